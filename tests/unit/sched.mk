# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/sched.mk - the scheduler (hv/sched): the run queue and CPU
# sets on a fake clock (test_sched), and a simulated machine running
# scripted vCPUs through the same decisions (test_sched_sim), whose queue
# set's decisions test_sched_set also calls directly.
UNIT_TESTS += test_sched test_sched_sim test_sched_set
test_sched_MODS := sched_runq
test_sched_sim_MODS := sched sched_runq sched_sim_fixture
test_sched_set_MODS := sched sched_runq sched_sim_fixture
