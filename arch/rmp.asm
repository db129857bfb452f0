; SPDX-License-Identifier: GPL-2.0-only
; arch/rmp.asm - RMPUPDATE, PSMASH, RMPOPT and WBNOINVD as raw bytes (older
; assemblers lack the mnemonics). APM vol 3; AMD pub. 69201 for RMPOPT.
bits 64
section .text
global rmpupdate_insn:function hidden
global psmash_insn:function hidden
global rmpopt_insn:function hidden
global wbnoinvd:function hidden

; u32 rmpupdate_insn(hpa_t spa /* rdi */, const struct rmp_state *st /* rsi */)
rmpupdate_insn:
	mov rax, rdi
	mov rcx, rsi
	db 0xf2, 0x0f, 0x01, 0xfe	; RMPUPDATE
	ret

; u32 psmash_insn(hpa_t spa /* rdi */)
psmash_insn:
	mov rax, rdi
	db 0xf3, 0x0f, 0x01, 0xff	; PSMASH
	ret

; bool rmpopt_insn(hpa_t region /* rdi */, u64 func /* rsi */)
rmpopt_insn:
	mov rax, rdi
	mov rcx, rsi
	db 0xf2, 0x0f, 0x01, 0xfc	; RMPOPT: CF = region optimized
	setc al
	movzx eax, al
	ret

; void wbnoinvd(void)
wbnoinvd:
	db 0xf3, 0x0f, 0x09		; WBNOINVD (WBINVD where absent)
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
