# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/decode.mk - unit tests of hv/emul: the MOV decoder, the guest
# page-table walker and instruction fetch, and MMIO emulation.
UNIT_TESTS += test_decode test_walk test_mmio
test_decode_MODS := emul_decode
test_walk_MODS := emul_walk
test_mmio_MODS := emul
