/* hv/tristate.h - an option that is forced on, forced off, or left to the
 * code to decide (e.g. mtrr_flush=on|off|auto). */
#ifndef MINHV_HV_TRISTATE_H
#define MINHV_HV_TRISTATE_H

enum tristate { TRI_AUTO = 0, TRI_ON, TRI_OFF };

#endif
