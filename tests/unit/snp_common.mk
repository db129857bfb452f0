# tests/unit/snp_common.mk - sources shared by the SNP/RMP/RMPOPT suites.
SNP_UT_COMMON := tests/unit/snp_env.c tests/doubles/fake_cpu.c \
	tests/doubles/fake_console.c hv/rmp.c hv/rmp_hw.c hv/rmp_model.c \
	hv/rmpopt.c hv/rmpopt_pass.c hv/rmpopt_stats.c hv/rmpopt_topo.c \
	hv/snp.c hv/snp_guest.c hv/snp_fw.c hv/snp_scenario.c hv/mm.c \
	hv/log.c hv/ktap.c hv/lib/fmt.c hv/features.c
