/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/errno.h - negative errno values returned by hv/ functions (Linux
 * numbering; identical to the host libc's, so unit tests may mix them). */
#ifndef MINHV_HV_ERRNO_H
#define MINHV_HV_ERRNO_H

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
#ifndef ENOSYS
#define ENOSYS 38
#endif
#ifndef ETIMEDOUT
#define ETIMEDOUT 110
#endif

#endif
