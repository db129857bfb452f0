// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_vcpu_race.c - vCPUs 0 and 1 race HC_VCPU_START
 * on the last vCPU with different arguments (RDI, RSP), thousands of
 * times; the started vCPU records what it got and ends (HLT, IF=0), which
 * makes it startable again. Each start must carry a winner's arguments,
 * and as many starts as calls that returned 0: a loser (-EBUSY) never
 * takes effect. */
#include "guest/atomic.h"
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "guest/x86.h"

#define RACE_ROUNDS 2000
#define MAX_STARTS 8

/* The target's entry: RDI = arg, RSI = the RSP it was given. */
__asm__(".text\n"
	".globl race_entry\n"
	"race_entry:\n"
	"	mov %rsp, %rsi\n"
	"	and $-16, %rsp\n"
	"	call race_target\n"
	"1:	cli\n"
	"	hlt\n"
	"	jmp 1b\n");
extern char race_entry[];
void race_target(u64 arg, u64 rsp);

static volatile u32 go, done1, starts, recorded, won[2], bad_ret;
static volatile u64 got_arg[MAX_STARTS], got_rsp[MAX_STARTS];
static volatile long last_bad;
static u32 target;

void race_target(u64 arg, u64 rsp)
{
	u32 i = atomic_inc(&starts) - 1;

	if (i < MAX_STARTS) {
		got_rsp[i] = rsp;
		atomic_set(&got_arg[i], arg);
	}
	/* Last: vCPU 0 checks and clears the round only after this, so a
	 * start's late writes never land in the next round. */
	atomic_inc(&recorded);
}

/* Each racer gives its own stack top: the target can tell them apart. */
static u64 racer_rsp(u32 me)
{
	return boot_info->stack_top - target * GUEST_STACK_SIZE - me * 64;
}

static volatile u32 stuck_in_race;

static void race(u32 me, u32 round)
{
	u64 arg = (u64)me << 32 | round, t0 = rdtsc();

	for (;;) {
		long r = hc_vcpu_start(target, (u64)(uintptr_t)race_entry,
				       racer_rsp(me), arg);

		if (r == 0) {
			atomic_inc(&won[me]);
			return;
		}
		if (r != -HC_EBUSY) {
			atomic_inc(&bad_ret);
			last_bad = r;
			return;
		}
		/* Busy: the other won, or the target has not left yet. */
		if (atomic_read(&starts))
			return;
		if (rdtsc() - t0 > VCPU_WAIT_TSC) {
			printf("hostile_vcpu_race: vCPU %u round %u: busy for too long, %u starts, won %u+%u, ONLINE(target) = %ld\n",
			       me, round, starts, won[0], won[1],
			       hc_vcpu_online(target));
			atomic_inc(&stuck_in_race);
			return;
		}
		cpu_relax();
	}
}

static void racer1(void *unused)
{
	(void)unused;
	for (u32 r = 1; r <= RACE_ROUNDS; r++) {
		while (atomic_read(&go) != r)
			cpu_relax();
		race(1, r);
		atomic_set(&done1, r);
	}
}

static bool wait_for(volatile u32 *p, u32 v)
{
	u64 t0 = rdtsc();

	while (atomic_read(p) != v)
		if (rdtsc() - t0 > VCPU_WAIT_TSC)
			return false;
	return true;
}

/* After round r: as many starts as winners, each with a winner's args. */
static bool check_round(u32 r, u32 *wrong)
{
	u32 n = atomic_read(&starts), per[2] = { 0, 0 };

	if (n > MAX_STARTS || n != won[0] + won[1] || n == 0)
		return false;
	for (u32 i = 0; i < n; i++) {
		u64 a = atomic_read(&got_arg[i]);
		u32 who = (u32)(a >> 32);

		if ((u32)a != r || who > 1 || got_rsp[i] != racer_rsp(who)) {
			(*wrong)++;
			continue;
		}
		per[who]++;
	}
	if (per[0] != won[0] || per[1] != won[1])
		(*wrong)++;
	return true;
}

static const char *race_supported(void)
{
	return smp_nr() < 3 ? "needs at least 3 vCPUs" : NULL;
}

static void race_body(void)
{
	u32 r, wrong = 0, rounds = 0, total = 0, stuck = 0;

	target = smp_nr() - 1;
	printf("hostile_vcpu_race: vCPUs 0 and 1 race HC_VCPU_START(%u) %u times\n",
	       target, RACE_ROUNDS);
	if (!report(vcpu_run(1, racer1, NULL) == 0, "vCPU 1 did not start"))
		return;
	for (r = 1; r <= RACE_ROUNDS; r++) {
		atomic_set(&starts, 0);
		atomic_set(&recorded, 0);
		atomic_set(&won[0], 0);
		atomic_set(&won[1], 0);
		for (u32 i = 0; i < MAX_STARTS; i++)
			got_arg[i] = 0;
		atomic_set(&go, r);
		race(0, r);
		if (!wait_for(&done1, r)) {
			stuck++;
			break;
		}
		/* The winner's call returned: its start shows up soon. */
		if (!wait_for(&recorded, won[0] + won[1]) ||
		    !check_round(r, &wrong)) {
			wrong++;
			printf("hostile_vcpu_race: round %u: %u starts, %u + %u winners\n",
			       r, starts, won[0], won[1]);
		}
		total += won[0] + won[1];
		rounds++;
		if (wrong > 5 || bad_ret || stuck_in_race)
			break;
	}
	atomic_set(&go, RACE_ROUNDS + 1);
	report(!stuck, "vCPU 1 stopped racing in round %u", r);
	report(!stuck_in_race,
	       "%u times HC_VCPU_START stayed busy with no start (round %u)",
	       stuck_in_race, r);
	report(!bad_ret,
	       "%u HC_VCPU_START calls returned %ld, want 0 or -EBUSY", bad_ret,
	       last_bad);
	report(wrong == 0,
	       "%u rounds where starts and winners disagree or a loser's arguments took effect",
	       wrong);
	report(rounds == RACE_ROUNDS, "%u of %u rounds ran", rounds,
	       RACE_ROUNDS);
	report_info("%u rounds, %u starts", rounds, total);
}

const struct scenario scn_hostile_vcpu_race = { "hostile_vcpu_race", "hostile",
						race_supported, race_body,
						SCN_MANUAL };
