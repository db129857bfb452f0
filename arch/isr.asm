; SPDX-License-Identifier: GPL-2.0-only
; arch/isr.asm - one entry stub per vector. Each pushes a dummy error code
; where the CPU pushes none (SDM vol 3 6.13), the vector, then all GPRs in
; struct trap_frame order, and calls trap_dispatch(frame).
bits 64
section .text
extern trap_dispatch

%macro ISR_NOERR 1
isr_%1:
	push qword 0
	push qword %1
	jmp isr_common
%endmacro
%macro ISR_ERR 1
isr_%1:
	push qword %1
	jmp isr_common
%endmacro

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
	; keep the C call 16-byte aligned whatever the interrupted stack was
	mov rbx, rsp
	and rsp, -16
	call trap_dispatch
	mov rsp, rbx
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
	add rsp, 16 ; vector, error code
	iretq

%assign v 0
%rep 256
%if v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30
	ISR_ERR v
%else
	ISR_NOERR v
%endif
%assign v v + 1
%endrep

; Table of stub addresses, as offsets from isr_0 so that it needs no
; relocation in the position-independent image.
section .rodata
global isr_offsets:data hidden
align 8
isr_offsets:
%assign v 0
%rep 256
	dd isr_ %+ v - isr_0
%assign v v + 1
%endrep
section .text
global isr_stub0:function hidden
isr_stub0 equ isr_0

section .note.GNU-stack noalloc noexec nowrite progbits
