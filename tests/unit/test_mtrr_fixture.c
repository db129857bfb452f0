// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_mtrr_fixture.c - see test_mtrr_fixture.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_smp_pthread.h"
#include "tests/doubles/state_hooks.h"
#include "tests/unit/test_mtrr_fixture.h"

const u32 t_fixed_msr[MTRR_NFIXED] = { 0x250, 0x258, 0x259, 0x268, 0x269, 0x26a,
				       0x26b, 0x26c, 0x26d, 0x26e, 0x26f };
const u64 t_fixed_val[MTRR_NFIXED] = {
	0x0606060606060606ULL, 0x0606060606060606ULL, 0, /* VGA UC */
	0x0505050505050505ULL, 0x0505050505050505ULL, 0x0505050505050505ULL,
	0x0505050505050505ULL, 0x0505050505050505ULL, 0x0505050505050505ULL,
	0x0505050505050505ULL, 0x0505050505050505ULL,
};

void t_state(struct mtrr_state *s)
{
	memset(s, 0, sizeof(*s));
	s->cap = 0x508;
	s->vcnt = 8;
	s->have_fixed = true;
	s->def_type = T_DEF_TYPE;
	s->var[0].base = 0x80000000ULL | MTRR_TYPE_UC;
	s->var[0].mask = T_VMASK(2ULL << 30);
	memcpy(s->fixed, t_fixed_val, sizeof(s->fixed));
}

void t_machine(unsigned ncpus, enum cpu_vendor v, bool ss)
{
	struct mtrr_state s;

	fake_cpu_reset();
	fake_console_clear();
	mtrr_reset();
	mtrr_set_barrier_timeout(1ULL << 38);
	memset(&g_features, 0, sizeof(g_features));
	g_features.vendor = v;
	g_features.mtrr = true;
	g_features.self_snoop = ss;
	g_features.phys_addr_bits = T_PA_BITS;

	t_state(&s);
	fake_msr_define(MSR_MTRRCAP, s.cap);
	fake_msr_define(MSR_MTRR_DEF_TYPE, s.def_type);
	for (unsigned i = 0; i < 8; i++) {
		fake_msr_define(MSR_MTRR_PHYSBASE(i), s.var[i].base);
		fake_msr_define(MSR_MTRR_PHYSMASK(i), s.var[i].mask);
	}
	for (unsigned i = 0; i < MTRR_NFIXED; i++)
		fake_msr_define(t_fixed_msr[i], t_fixed_val[i]);
	if (v == VENDOR_AMD || v == VENDOR_HYGON)
		fake_msr_define(MSR_AMD_SYSCFG, T_SYSCFG);

	fake_smp_set_online(ncpus);
	for (unsigned i = 0; i < FAKE_NCPUS; i++) {
		fake_cpus[i].irq_enabled = true;
		fake_cpus[i].cr3 = T_CR3;
	}
}

void t_cpu_trace(unsigned cpu, char *buf, size_t n)
{
	char tag[16];
	const char *p = fake_trace();
	size_t len = 0, tl;

	snprintf(tag, sizeof(tag), "cpu%u: ", cpu);
	tl = strlen(tag);
	buf[0] = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t ll = e ? (size_t)(e - p) : strlen(p);

		if (ll >= tl && !strncmp(p, tag, tl)) {
			assert_true(len + ll - tl + 2 < n);
			memcpy(buf + len, p + tl, ll - tl);
			len += ll - tl;
			buf[len++] = '\n';
			buf[len] = 0;
		}
		p += ll + (e ? 1 : 0);
	}
}

unsigned t_wbinvd_total(unsigned ncpus)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ncpus; i++)
		n += fake_cpus[i].wbinvd_count;
	return n;
}
