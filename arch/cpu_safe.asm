; SPDX-License-Identifier: GPL-2.0-only
; arch/cpu_safe.asm - instructions whose address trap_dispatch() (hv/trap.c)
; knows. rdmsr_safe(): RDMSR that survives #GP: the #GP path sees RIP ==
; rdmsr_safe_insn and resumes at rdmsr_safe_fixup, which returns false
; (SDM vol 2, RDMSR: #GP on a bad MSR). cpu_safe_halt(), cpu_safe_mwait():
; STI then HLT or MWAIT, the STI shadow keeping a maskable interrupt out
; until the CPU waits; an NMI or #MC, which that shadow does not hold off,
; taken right before the HLT or MWAIT resumes at its _done label instead
; (the shadow is gone after the handler: an interrupt pending since before
; the STI, the wake-up itself, would be taken first, and the CPU then wait
; for another that may never come).
bits 64
section .text
global rdmsr_safe:function hidden
global rdmsr_safe_insn:function hidden
global rdmsr_safe_fixup:function hidden
global cpu_safe_halt:function hidden
global cpu_safe_halt_insn:function hidden
global cpu_safe_halt_done:function hidden
global cpu_safe_mwait:function hidden
global cpu_safe_mwait_insn:function hidden
global cpu_safe_mwait_done:function hidden
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

; void cpu_safe_halt(void)
cpu_safe_halt:
	sti
cpu_safe_halt_insn:
	hlt
cpu_safe_halt_done:
	ret

; void cpu_safe_mwait(u32 hint /* edi */): EAX = hint, ECX = 0 (no
; extensions), on the line cpu_monitor() armed (APM vol 3 MWAIT).
cpu_safe_mwait:
	mov eax, edi
	xor ecx, ecx
	sti
cpu_safe_mwait_insn:
	mwait
cpu_safe_mwait_done:
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
