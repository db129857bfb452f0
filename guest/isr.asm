; SPDX-License-Identifier: GPL-2.0-only
; guest/isr.asm - exception entry stubs for vectors 0-31: each pushes an
; error code (0 when the CPU has none) and its vector, then all GPRs, and
; calls exception_handler(struct exc_frame *). See guest/except.h.
bits 64
default rel

extern exception_handler
global isr_table

; Vectors whose exceptions push an error code (AMD APM vol 2, 8.2).
%define HAS_ERR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

section .text
%assign v 0
%rep 32
isr_ %+ v:
%if HAS_ERR(v) == 0
	push 0
%endif
	push v
	jmp isr_common
%assign v v + 1
%endrep

isr_common:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	cld
	mov rdi, rsp
	call exception_handler		; may change the frame's RIP
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16			; vector, error code
	iretq

section .rodata
align 8
isr_table:
%assign v 0
%rep 32
	dq isr_ %+ v
%assign v v + 1
%endrep

section .note.GNU-stack noalloc noexec nowrite progbits
