/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/errno.h - moved to arch/errno.h; kept only until every include names
 * the new place. */
#include "arch/errno.h"
