/* hv/errno.h - negative errno values returned by hv/ functions (Linux
 * numbering; identical to the host libc's, so unit tests may mix them). */
#ifndef MINHV_HV_ERRNO_H
#define MINHV_HV_ERRNO_H

#ifndef EPERM
#define EPERM 1
#endif
#ifndef EIO
#define EIO 5
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
#ifndef ETIMEDOUT
#define ETIMEDOUT 110
#endif

#endif
