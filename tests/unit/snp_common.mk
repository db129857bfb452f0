# tests/unit/snp_common.mk - sources shared by the SNP/RMP/RMPOPT suites.
SNP_UT_COMMON := tests/unit/snp_env.c tests/doubles/fake_cpu.c \
	tests/doubles/fake_console.c hv/snp/rmp.c hv/snp/rmp_hw.c hv/snp/rmp_model.c \
	hv/snp/rmpopt.c hv/snp/rmpopt_pass.c hv/snp/rmpopt_stats.c hv/snp/rmpopt_topo.c \
	hv/snp/snp.c hv/snp/guest.c hv/snp/fw.c hv/selftest/snp_scenario.c hv/mm.c \
	hv/log.c hv/ktap.c lib/fmt.c hv/features.c
