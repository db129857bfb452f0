# tests/unit/decode.mk - unit tests of hv/emul: the MOV decoder, the guest
# page-table walker and instruction fetch, and MMIO emulation.
UNIT_TESTS += test_decode test_walk test_mmio
test_decode_SRCS := tests/unit/test_decode.c hv/emul/decode.c
test_walk_SRCS := tests/unit/test_walk.c hv/emul/walk.c
test_mmio_SRCS := tests/unit/test_mmio.c hv/emul/mmio.c hv/emul/regs.c \
	hv/emul/walk.c hv/emul/decode.c
