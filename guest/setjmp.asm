; SPDX-License-Identifier: GPL-2.0-only
; guest/setjmp.asm - guest_setjmp/guest_longjmp: callee-saved registers,
; RSP and RIP, so an exception handler can resume a scenario (guest/except.c).
bits 64
global guest_setjmp, guest_longjmp

section .text
; int guest_setjmp(struct jmpbuf *jb): 0 now, the longjmp value later.
guest_setjmp:
	mov [rdi + 0], rbx
	mov [rdi + 8], rbp
	mov [rdi + 16], r12
	mov [rdi + 24], r13
	mov [rdi + 32], r14
	mov [rdi + 40], r15
	lea rdx, [rsp + 8]		; RSP after our return
	mov [rdi + 48], rdx
	mov rdx, [rsp]			; return address
	mov [rdi + 56], rdx
	xor eax, eax
	ret

; _Noreturn void guest_longjmp(struct jmpbuf *jb, int val): val != 0.
guest_longjmp:
	mov rbx, [rdi + 0]
	mov rbp, [rdi + 8]
	mov r12, [rdi + 16]
	mov r13, [rdi + 24]
	mov r14, [rdi + 32]
	mov r15, [rdi + 40]
	mov rsp, [rdi + 48]
	mov eax, esi
	test eax, eax
	jnz .ret
	inc eax
.ret:
	jmp [rdi + 56]

section .note.GNU-stack noalloc noexec nowrite progbits
