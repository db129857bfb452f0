; SPDX-License-Identifier: GPL-2.0-only
; arch/stack.asm - switch to a new stack and call a function that never
; returns: used once, to leave the firmware's stack after ExitBootServices.
bits 64
section .text
global switch_stack_call:function hidden
; void switch_stack_call(u64 stack_top /* rdi */, void (*fn)(void *) /* rsi */,
;                        void *arg /* rdx */)
switch_stack_call:
	mov rsp, rdi
	and rsp, -16
	xor ebp, ebp	; end of the frame-pointer chain for stack traces
	mov rdi, rdx
	push rbp	; fake return address keeps the ABI's alignment
	jmp rsi

section .note.GNU-stack noalloc noexec nowrite progbits
