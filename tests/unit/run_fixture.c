// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/run_fixture.c - see run_fixture.h. */
#define _POSIX_C_SOURCE 200809L /* nanosleep() */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "arch/apic.h"
#include "arch/apicdef.h"
#include "arch/errno.h"
#include "hv/features.h"
#include "hv/loader/elf_format.h"
#include "hv/loader/multiboot.h"
#include "hv/mm.h"
#include "hv/options/options.h"
#include "hv/percpu.h"
#include "hv/sched/sched.h"
#include "hv/smp/ipi.h"
#include "hv/smp/time.h"
#include "hv/svm/svm.h"
#include "hv/svm/vcpu_watchdog.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_trap.h"
#include "tests/doubles/state_hooks.h"
#include "tests/unit/run_fixture.h"

/* --- the machine --- */

/* hv/smp/time.c's rate, as tsc_calibrate() would have measured it. */
u64 g_tsc_khz;
/* hv/run/main.c's, which boot/ fills. */
struct options g_options;
struct percpu **g_percpu;
u32 g_ncpus;
static struct percpu pcs[RF_NCPUS], *pcs_tab[RF_NCPUS];
static struct svm_cpu scs[RF_NCPUS];
static void *pool;

struct guest *rf_guest;
enum selftest_stage rf_stages[16];
unsigned rf_nstages;
void (*rf_stage_hook)(enum selftest_stage st, struct selftest_ctx *c);
unsigned rf_self_kicks, rf_calls;

/* hv/percpu.c reads GS; here a thread is the fake CPU it selected. */
struct percpu *this_cpu(void)
{
	return &pcs[fake_cpu_current()];
}

void rf_setup(u32 ncpus, u64 step)
{
	assert_true(ncpus >= 1 && ncpus <= RF_NCPUS);
	fake_cpu_reset();
	fake_console_clear();
	fake_trap_reset();
	fake_vmrun_reset();
	fake_trace_enable(false);
	ktap_reset();
	mm_reset();
	pool = aligned_alloc(SZ_2M, RF_POOL);
	assert_non_null(pool);
	assert_int_equal(mm_add_region(ptr_to_hpa(pool), RF_POOL / PAGE_SIZE),
			 0);
	memset(&g_features, 0, sizeof(g_features));
	g_features.vendor = VENDOR_AMD;
	g_features.svm = g_features.npt = g_features.nx = true;
	g_features.svm_nasid = 16;
	g_features.phys_addr_bits = 48;
	options_defaults(&g_options);
	memset(pcs, 0, sizeof(pcs));
	memset(scs, 0, sizeof(scs));
	for (u32 i = 0; i < RF_NCPUS; i++) {
		pcs[i].self = &pcs[i];
		pcs[i].cpu = i;
		pcs[i].online = i < ncpus;
		pcs[i].svm = &scs[i];
		scs[i].enabled = true;
		scs[i].host.vmcb = hpa(0x1000 * (i + 1)); /* only VMSAVEd */
		pcs_tab[i] = &pcs[i];
	}
	g_percpu = pcs_tab;
	g_ncpus = ncpus;
	park_reset(); /* not armed: a test arms it (park_init()) */
	sched_reset();
	assert_int_equal(sched_init(), 0);
	/* The host's x2APIC: its timer is the watchdog's tick. */
	for (u32 r = 0; r < 0x40; r++)
		fake_msr_define(X2APIC_MSR(r << 4), 0);
	apic_select(true, hpa(0));
	g_tsc_khz = RF_TSC_KHZ;
	fake_rdtsc_hook = NULL;
	rf_watchdog_init(0);
	fake_tsc_set(0, step);
	fake_console_clear();
	rf_guest = NULL;
	rf_nstages = 0;
	rf_stage_hook = NULL;
	rf_self_kicks = rf_calls = 0;
}

void rf_watchdog_init(u32 ms)
{
	u64 (*hook)(void) = fake_rdtsc_hook;

	/* The calibration waits up to 500 ms of TSC for a timer interrupt
	 * that never comes here: let the time pass in a few reads. */
	fake_rdtsc_hook = NULL;
	fake_tsc_set(0, RF_TSC_KHZ * 100);
	vcpu_watchdog_init(ms);
	fake_rdtsc_hook = hook;
}

bool rf_wait_vcpu_on(u32 cpu)
{
	for (unsigned i = 0; i < 5000; i++) {
		if (__atomic_load_n(&scs[cpu].vcpu, __ATOMIC_ACQUIRE))
			return true;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	return false;
}

/* --- the cross-CPU call: one thread per call to another CPU --- */

struct rf_job {
	u32 cpu;
	ipi_fn fn;
	void *arg;
	pthread_t t;
};
static struct rf_job jobs[32];
static unsigned njobs, joined;
static pthread_mutex_t jobs_mu = PTHREAD_MUTEX_INITIALIZER;

static void *job_run(void *p)
{
	struct rf_job *j = p;

	fake_cpu_select(j->cpu);
	j->fn(j->arg);
	return NULL;
}

void rf_join(void)
{
	pthread_mutex_lock(&jobs_mu);
	while (joined < njobs) {
		pthread_t t = jobs[joined++].t;

		pthread_mutex_unlock(&jobs_mu);
		pthread_join(t, NULL);
		pthread_mutex_lock(&jobs_mu);
	}
	njobs = joined = 0;
	pthread_mutex_unlock(&jobs_mu);
}

void rf_teardown(void)
{
	rf_join();
	free(pool);
	pool = NULL;
}

u32 ipi_this_cpu(void)
{
	return fake_cpu_current();
}

u32 ipi_online_count(void)
{
	return g_ncpus;
}

int ipi_call_on(u32 cpu, ipi_fn fn, void *arg, bool wait)
{
	struct rf_job *j, once;

	if (cpu >= g_ncpus || !pcs[cpu].online)
		return -ENOENT;
	if (cpu == fake_cpu_current()) {
		fn(arg);
		return 0;
	}
	if (wait) {
		once = (struct rf_job){ cpu, fn, arg, 0 };
		assert_int_equal(pthread_create(&once.t, NULL, job_run, &once),
				 0);
		pthread_join(once.t, NULL);
		return 0;
	}
	/* Asynchronous (a vCPU started on its CPU, a kick): joined by
	 * rf_join(). */
	pthread_mutex_lock(&jobs_mu);
	rf_calls++;
	assert_true(njobs < ARRAY_SIZE(jobs));
	j = &jobs[njobs++];
	*j = (struct rf_job){ cpu, fn, arg, 0 };
	assert_int_equal(pthread_create(&j->t, NULL, job_run, j), 0);
	pthread_mutex_unlock(&jobs_mu);
	return 0;
}

int ipi_call_all(ipi_fn fn, void *arg, bool wait, bool include_self)
{
	int n = 0;

	for (u32 i = 0; i < g_ncpus; i++)
		if (i != fake_cpu_current() && !ipi_call_on(i, fn, arg, wait))
			n++;
	if (include_self)
		fn(arg), n++;
	return n;
}

void ipi_self_kick(void)
{
	rf_self_kicks++;
}

/* --- the self-test hook (hv/selftest_hook.h) --- */

void selftest_run(enum selftest_stage stage, struct selftest_ctx *ctx)
{
	if (rf_nstages < ARRAY_SIZE(rf_stages))
		rf_stages[rf_nstages++] = stage;
	if (ctx->guest)
		rf_guest = ctx->guest;
	if (rf_stage_hook)
		rf_stage_hook(stage, ctx);
}

/* --- guest images --- */

#define IMG_SEG 0x1000 /* file offset of the one PT_LOAD */
#define IMG_SIZE 0x1200
static u8 img[IMG_SIZE];

/* One PT_LOAD of 0x200 bytes at RF_ENTRY (HLT bytes, and the result name
 * at RF_NAME_GPA); ELF64 for minhv's test guest, ELF32 with a multiboot
 * header for a foreign kernel. */
static void build_image(bool multiboot)
{
	memset(img, 0, sizeof(img));
	memcpy(img, "\177ELF", 4);
	img[EI_CLASS] = multiboot ? ELFCLASS32 : ELFCLASS64;
	img[EI_DATA] = ELFDATA2LSB;
	img[EI_VERSION] = EV_CURRENT;
	if (multiboot) {
		struct elf32_ehdr e = { .e_type = ET_EXEC,
					.e_machine = EM_386,
					.e_version = EV_CURRENT,
					.e_entry = RF_ENTRY,
					.e_phoff = sizeof(e),
					.e_ehsize = sizeof(e),
					.e_phentsize =
						sizeof(struct elf32_phdr),
					.e_phnum = 1 };
		struct elf32_phdr ph = { .p_type = PT_LOAD,
					 .p_offset = IMG_SEG,
					 .p_vaddr = RF_ENTRY,
					 .p_paddr = RF_ENTRY,
					 .p_filesz = 0x200,
					 .p_memsz = 0x200,
					 .p_flags = PF_R | PF_W | PF_X,
					 .p_align = 0x1000 };
		struct mb_header h = { .magic = MB_HEADER_MAGIC,
				       .checksum = -MB_HEADER_MAGIC };

		memcpy(img + EI_NIDENT, (u8 *)&e + EI_NIDENT,
		       sizeof(e) - EI_NIDENT);
		memcpy(img + sizeof(e), &ph, sizeof(ph));
		memcpy(img + 0x100, &h, sizeof(h));
	} else {
		struct elf64_ehdr e = { .e_type = ET_EXEC,
					.e_machine = EM_X86_64,
					.e_version = EV_CURRENT,
					.e_entry = RF_ENTRY,
					.e_phoff = sizeof(e),
					.e_ehsize = sizeof(e),
					.e_phentsize =
						sizeof(struct elf64_phdr),
					.e_phnum = 1 };
		struct elf64_phdr ph = { .p_type = PT_LOAD,
					 .p_flags = PF_R | PF_W | PF_X,
					 .p_offset = IMG_SEG,
					 .p_vaddr = RF_ENTRY,
					 .p_paddr = RF_ENTRY,
					 .p_filesz = 0x200,
					 .p_memsz = 0x200,
					 .p_align = 0x1000 };

		memcpy(img + EI_NIDENT, (u8 *)&e + EI_NIDENT,
		       sizeof(e) - EI_NIDENT);
		memcpy(img + sizeof(e), &ph, sizeof(ph));
	}
	memset(img + IMG_SEG, 0xf4, 0x100); /* HLT */
	strcpy((char *)img + IMG_SEG + (RF_NAME_GPA - RF_ENTRY), "run.one");
}

struct guest_params rf_params(enum guest_kind kind, u32 nr)
{
	assert_true(kind == GUEST_MINHV || kind == GUEST_MULTIBOOT);
	build_image(kind == GUEST_MULTIBOOT);
	return (struct guest_params){
		.name = "rt",
		.image = img,
		.image_size = sizeof(img),
		.mem_size = RF_MEM,
		.nr_vcpus = nr,
		.pause = { -1, -1, PAUSE_REQ_AUTO },
	};
}

/* --- scripted guest actions --- */

void rf_guest_hc(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	vm->save.rax = arg & 0xff;
	r->rsi = (arg >> 8) & 0xff;
	r->rdi = arg >> 16;
}

void rf_guest_outb(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	vm->save.rax = (vm->save.rax & ~0xffULL) | (arg & 0xff);
	vm->control.exit_info2 = vm->save.rip + 1;
}

void rf_guest_rdmsr(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	vm->control.exit_info1 = 0; /* RDMSR */
	r->rcx = arg;
}
