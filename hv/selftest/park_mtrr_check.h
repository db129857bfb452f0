/* hv/selftest/park_mtrr_check.h - parked CPUs in an MTRR rendezvous (KTAP check). */
#ifndef MINHV_HV_PARK_MTRR_CHECK_H
#define MINHV_HV_PARK_MTRR_CHECK_H

void park_mtrr_check(void);

#endif
