; SPDX-License-Identifier: GPL-2.0-only
; arch/svm.asm - the VMRUN stub and the SVM instruction primitives
; (APM vol 2, 15.5 VMRUN, 15.5.2 VMSAVE/VMLOAD, 15.17 GIF). SysV ABI.
bits 64
default rel
section .text

%define G_RBX 0x00
%define G_RCX 0x08
%define G_RDX 0x10
%define G_RSI 0x18
%define G_RDI 0x20
%define G_RBP 0x28
%define G_R8  0x30
%define G_R9  0x38
%define G_R10 0x40
%define G_R11 0x48
%define G_R12 0x50
%define G_R13 0x58
%define G_R14 0x60
%define G_R15 0x68

; The VMRUN stub, in two variants that differ only in the host IF they
; return with. Both are entered with IF=0 (the run loop's CLI before its
; handshake). Per call it saves the callee-saved registers (the guest's
; values replace them) and two of its arguments; the guest VMCB's address
; needs no slot: #VMEXIT restores host RAX, which held it for VMRUN
; (APM 15.5.1, 15.6), so VMSAVE follows VMRUN directly.
%macro VMRUN_STUB 1		; %1: 1 = return with IF=1, 0 = IF=0
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	push rdx		; [rsp+8] host VMCB
	push rsi		; [rsp]   guest GPRs
	clgi			; GIF=0: no interrupt/NMI until host state is back
	sti			; host IF=1: with V_INTR_MASKING it gates physical
				; interrupts in the guest, which then exit (15.21.1)
	mov rax, rdi
	vmload			; guest FS/GS/TR/LDTR/KernelGS/STAR.../SYSENTER
	mov rbx, [rsi + G_RBX]
	mov rcx, [rsi + G_RCX]
	mov rdx, [rsi + G_RDX]
	mov rdi, [rsi + G_RDI]
	mov rbp, [rsi + G_RBP]
	mov r8,  [rsi + G_R8]
	mov r9,  [rsi + G_R9]
	mov r10, [rsi + G_R10]
	mov r11, [rsi + G_R11]
	mov r12, [rsi + G_R12]
	mov r13, [rsi + G_R13]
	mov r14, [rsi + G_R14]
	mov r15, [rsi + G_R15]
	mov rsi, [rsi + G_RSI]
	vmrun			; #VMEXIT restores host RAX, RSP, RIP (15.6)
	vmsave			; RAX = guest VMCB: its hidden state saved back
	mov rax, [rsp]
	mov [rax + G_RBX], rbx
	mov [rax + G_RCX], rcx
	mov [rax + G_RDX], rdx
	mov [rax + G_RSI], rsi
	mov [rax + G_RDI], rdi
	mov [rax + G_RBP], rbp
	mov [rax + G_R8],  r8
	mov [rax + G_R9],  r9
	mov [rax + G_R10], r10
	mov [rax + G_R11], r11
	mov [rax + G_R12], r12
	mov [rax + G_R13], r13
	mov [rax + G_R14], r14
	mov [rax + G_R15], r15
	mov rax, [rsp + 8]
	vmload			; host GS base (percpu), TR, ... again
%if %1 == 0
	cli			; IF as the caller had it (0) once GIF is back
%endif
	stgi			; with IF=1 a pending interrupt/NMI is taken here
	add rsp, 16
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret
%endmacro

; void svm_vmrun(hpa_t vmcb [rdi], struct svm_gprs *g [rsi], hpa_t host [rdx])
; Returns with IF=0: for a caller that still has work to do before any
; interrupt may run (the software SPEC_CTRL swap back to the host's).
global svm_vmrun
svm_vmrun:
	VMRUN_STUB 0

; void svm_vmrun_sti(hpa_t vmcb, struct svm_gprs *g, hpa_t host): the same,
; returning with IF=1 (an interrupt that caused the exit is taken at STGI).
global svm_vmrun_sti
svm_vmrun_sti:
	VMRUN_STUB 1

global svm_vmload
svm_vmload:
	mov rax, rdi
	vmload
	ret

global svm_vmsave
svm_vmsave:
	mov rax, rdi
	vmsave
	ret

global svm_stgi
svm_stgi:
	stgi
	ret

global svm_clgi
svm_clgi:
	clgi
	ret

; void svm_invlpga(u64 va [rdi], u32 asid [esi])
global svm_invlpga
svm_invlpga:
	mov rax, rdi
	mov ecx, esi
	invlpga rax, ecx
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
