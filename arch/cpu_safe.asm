; SPDX-License-Identifier: GPL-2.0-only
; arch/cpu_safe.asm - rdmsr_safe(): RDMSR that survives #GP.
; The #GP path of trap_dispatch() (hv/trap.c) sees RIP == rdmsr_safe_insn
; and resumes at rdmsr_safe_fixup, which returns false (SDM vol 2, RDMSR:
; #GP on a bad MSR).
bits 64
section .text
global rdmsr_safe:function hidden
global rdmsr_safe_insn:function hidden
global rdmsr_safe_fixup:function hidden
; bool rdmsr_safe(u32 msr /* edi */, u64 *val /* rsi */)
rdmsr_safe:
	mov ecx, edi
rdmsr_safe_insn:
	rdmsr
	shl rdx, 32
	or rax, rdx
	mov [rsi], rax
	mov eax, 1
	ret
rdmsr_safe_fixup:
	xor eax, eax
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
