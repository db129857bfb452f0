/* tests/doubles/ktap_storage.h - the KTAP result storage a unit test hands
 * to ktap_init(), as boot/ does with firmware memory in the real image. */
#ifndef MINHV_TESTS_KTAP_STORAGE_H
#define MINHV_TESTS_KTAP_STORAGE_H

#include <stdlib.h>

#include "hv/ktap.h"

static inline void *ktap_test_storage(void)
{
	static void *mem;

	if (!mem)
		mem = calloc(1, ktap_storage_bytes());
	return mem;
}

#endif
