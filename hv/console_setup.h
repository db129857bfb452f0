/* hv/console_setup.h - choosing the console device (boot and options only). */
#ifndef MINHV_HV_CONSOLE_SETUP_H
#define MINHV_HV_CONSOLE_SETUP_H

#include "arch/uart.h"

void console_setup(const struct uart *u);
const struct uart *console_uart(void);

#endif
