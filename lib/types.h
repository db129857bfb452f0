/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/types.h - fixed-width integers and distinct address types, shared by
 * the hypervisor (through arch/types.h) and the test guest (guest/).
 * Host-physical, guest-physical and host-virtual addresses are one-member
 * structs so that mixing them is a compile error (the Hafnium idiom). */
#ifndef MINHV_LIB_TYPES_H
#define MINHV_LIB_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* Host-physical address (what the CPU puts on the bus in host mode). */
typedef struct {
	u64 v;
} hpa_t;
/* Guest-physical address (what a guest's page tables produce). */
typedef struct {
	u64 v;
} gpa_t;
/* Host-virtual address; minhv identity-maps, but the type keeps intent. */
typedef struct {
	u64 v;
} hva_t;

static inline hpa_t hpa(u64 v)
{
	return (hpa_t){ v };
}
static inline gpa_t gpa(u64 v)
{
	return (gpa_t){ v };
}
/* minhv runs on an identity map: a host-physical address is its own
 * host-virtual address. These two are the only conversion points. */
static inline void *hpa_to_ptr(hpa_t a)
{
	return (void *)(uintptr_t)a.v;
}
static inline hpa_t ptr_to_hpa(const void *p)
{
	return (hpa_t){ (u64)(uintptr_t)p };
}

#define PAGE_SHIFT 12
#define PAGE_SIZE 4096ULL
#define SZ_2M (2ULL << 20)
#define SZ_1G (1ULL << 30)
#define ALIGN_UP(x, a) (((x) + (a)-1) & ~((u64)(a)-1))
#define ALIGN_DOWN(x, a) ((x) & ~((u64)(a)-1))
#define IS_ALIGNED(x, a) (((x) & ((u64)(a)-1)) == 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1ULL << (n))

#endif
