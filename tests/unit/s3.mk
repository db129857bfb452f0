# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/s3.mk - ACPI S3 on the guest platform: PM1 registers, the RTC
# and the sleep/resume of a fake guest's vCPUs (the SVM fixture).
UNIT_TESTS += test_s3
test_s3_MODS = $(test_exits_MODS)
