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

%define G_SPEC_CTRL 0x70	; struct svm_gprs.spec_ctrl
%define H_VMCB 0x00		; struct svm_host
%define H_SPEC_CTRL 0x08
%define H_FLAGS 0x10
%define SVM_HOST_SPEC_SWAP 1	; arch/svm.h
%define SVM_HOST_RSB_FILL 2
%define MSR_SPEC_CTRL 0x48	; arch/msr.h (arch/svm.h asserts it)

; The privileged instructions of the stub by name (CLGI, VMRUN, WRMSR,
; ...): arch/svm_insn.inc, found through -Iarch/. The unit tests assemble
; this same file with -Itests/doubles/ instead, whose svm_insn.inc makes
; each a call into the CPU double (tests/doubles/fake_svm.c): the stub's
; own order is tested, not a model of it.
%include "svm_insn.inc"

; void svm_vmrun(hpa_t vmcb [rdi], struct svm_gprs *g [rsi],
;                const struct svm_host *h [rdx])
; Entered with IF=0 (the run loop's CLI before its handshake), returns
; with IF=1: an interrupt that caused the exit is taken at its STGI, on
; host state. Per call it saves the callee-saved registers (the guest's
; values replace them) and two of its arguments; the guest VMCB's address
; needs no slot: #VMEXIT restores host RAX, which held it for VMRUN
; (APM 15.5.1, 15.6), so VMSAVE follows VMRUN directly.
global svm_vmrun
svm_vmrun:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	push rdx		; [rsp+8] struct svm_host
	push rsi		; [rsp]   guest GPRs
	CLGI			; GIF=0: no interrupt/NMI until host state is back
	; Software SPEC_CTRL swap (no V_SPEC_CTRL): the guest's value, unless
	; it is the host's, under GIF=0 like KVM's RESTORE_GUEST_SPEC_CTRL.
	test byte [rdx + H_FLAGS], SVM_HOST_SPEC_SWAP
	jz .guest_spec_done
	mov rax, [rsi + G_SPEC_CTRL]
	cmp rax, [rdx + H_SPEC_CTRL]
	je .guest_spec_done
	mov ecx, MSR_SPEC_CTRL
	mov rdx, rax
	shr rdx, 32
	WRMSR
.guest_spec_done:
	STI			; host IF=1: with V_INTR_MASKING it gates physical
				; interrupts in the guest, which then exit (15.21.1)
	mov rax, rdi
	VMLOAD			; guest FS/GS/TR/LDTR/KernelGS/STAR.../SYSENTER
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
	VMRUN			; #VMEXIT restores host RAX, RSP, RIP (15.6)
	VMSAVE			; RAX = guest VMCB: its hidden state saved back
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
	mov rbx, [rsp + 8]
	mov rax, [rbx + H_VMCB]
	VMLOAD			; host GS base (percpu), TR, ... again
	; The return stack buffer holds what the guest left: 32 CALLs whose
	; return addresses are never used replace every entry before the
	; first RET (KVM's FILL_RETURN_BUFFER for X86_FEATURE_RSB_VMEXIT),
	; unless AutoIBRS protects host mode. The LFENCE after the join
	; keeps a mispredicted JZ from running on to a RET.
	test byte [rbx + H_FLAGS], SVM_HOST_RSB_FILL
	jz .rsb_done
	RSB_FILL_START
%rep 32
	call $ + 6		; 5 bytes: lands past the INT3
	int3			; a speculative RET into this stops here
%endrep
	add rsp, 32 * 8
.rsb_done:
	lfence
	; The host's SPEC_CTRL back before STGI (KVM's
	; RESTORE_HOST_SPEC_CTRL): an NMI held during the guest is taken at
	; STGI, whatever IF says, and its handler must not run (indirect
	; calls included) with the guest's value, IBRS=0 for instance. The
	; guest cannot change it without an exit (SPEC_CTRL is intercepted),
	; so the value it ran with is the one it left.
	test byte [rbx + H_FLAGS], SVM_HOST_SPEC_SWAP
	jz .host_spec_done
	mov rax, [rsp]
	mov rax, [rax + G_SPEC_CTRL]
	cmp rax, [rbx + H_SPEC_CTRL]
	je .host_spec_done
	mov rax, [rbx + H_SPEC_CTRL]
	mov ecx, MSR_SPEC_CTRL
	mov rdx, rax
	shr rdx, 32
	WRMSR
.host_spec_done:
	STGI			; a pending interrupt/NMI is taken here
	add rsp, 16
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret

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
