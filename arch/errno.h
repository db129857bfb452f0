/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/errno.h - the one error convention of minhv: a function that can
 * fail returns 0 (or a count, where it says so) and a negative errno, -E*,
 * on failure (Linux numbering; identical to the host libc's, so unit tests
 * may mix them). In arch/, the lowest layer, so that arch/ uses it too. */
#ifndef MINHV_ARCH_ERRNO_H
#define MINHV_ARCH_ERRNO_H

#ifndef EPERM
#define EPERM 1
#endif
#ifndef ENOENT
#define ENOENT 2
#endif
#ifndef EIO
#define EIO 5
#endif
#ifndef E2BIG
#define E2BIG 7
#endif
#ifndef EAGAIN
#define EAGAIN 11
#endif
#ifndef ENOMEM
#define ENOMEM 12
#endif
#ifndef EFAULT
#define EFAULT 14
#endif
#ifndef EBUSY
#define EBUSY 16
#endif
#ifndef ENODEV
#define ENODEV 19
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ENOSPC
#define ENOSPC 28
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef EBADMSG
#define EBADMSG 74
#endif
#ifndef ENOSYS
#define ENOSYS 38
#endif
#ifndef ETIMEDOUT
#define ETIMEDOUT 110
#endif

/* Not an error: a handler in a chain (the MSR exit's, the guest platform's
 * port devices, the xAPIC page on a nested page fault) returns this
 * positive value when the request is not its own, so that its caller asks
 * the next one. 0 means handled, -E* failed. */
#define E_NOT_MINE 1

#endif
