; SPDX-License-Identifier: GPL-2.0-only
; arch/trampoline.asm - AP start-up: real mode -> 32-bit protected mode ->
; long mode -> C (SDM vol 3 9.9 and 10.8.5, AMD APM vol 2 14.8). Copied at run
; time into a page below 1 MiB; position independent: every address comes
; from the parameter block the BSP fills (struct tramp_params, trampoline.h).

%define CR0_PE (1 << 0)
%define CR4_PAE (1 << 5)
; PG | WP | NE | ET | MP | PE, and CD = NW = 0 (INIT leaves CD and NW set)
%define CR0_LONG 0x80010033
%define MSR_EFER 0xc0000080
%define MSR_GS_BASE 0xc0000101
%define SEL_CODE32 0x08
%define SEL_DATA 0x10
%define SEL_CODE64 0x18

%define OFF(x) ((x) - trampoline_start)

global trampoline_start, trampoline_end, trampoline_params
global tp_cr3, tp_efer, tp_entry64, tp_percpus, tp_ncpus, tp_alive
global tp_off_apic_id, tp_off_stack, tp_off_stage, tp_far32, tp_far64
global tp_gdtr, tp_cr4, tp_gdt, tp_pm32, tp_lm64

section .text
bits 16
; The SIPI starts us at CS = page >> 4, IP = 0.
trampoline_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	xor ebx, ebx
	mov bx, ax
	shl ebx, 4			; ebx = linear address of this page
	o32 lgdt [OFF(tp_gdtr)]
	mov eax, cr0
	or eax, CR0_PE
	mov cr0, eax
	o32 jmp far [OFF(tp_far32)]	; -> tp_pm32, CS = SEL_CODE32

bits 32
tp_pm32:
	mov ax, SEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, CR4_PAE
	or eax, [ebx + OFF(tp_cr4)]	; MCE; LA57 before paging, as the BSP
	mov cr4, eax
	mov eax, [ebx + OFF(tp_cr3)]	; PML4 (PML5 with LA57) below 4 GiB
	mov cr3, eax
	mov ecx, MSR_EFER
	rdmsr
	or eax, [ebx + OFF(tp_efer)]	; LME, and NXE/SCE as on the BSP
	wrmsr
	mov eax, CR0_LONG
	mov cr0, eax			; paging on: IA-32e compatibility mode
	jmp far [ebx + OFF(tp_far64)]	; -> tp_lm64, CS = SEL_CODE64

bits 64
tp_lm64:
	mov ax, SEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	mov r15d, ebx			; upper halves are undefined: zero-extend
	lock inc dword [r15 + OFF(tp_alive)]

	; Our APIC ID: CPUID 0Bh EDX (32-bit x2APIC ID) when that leaf is
	; valid, else CPUID 1 EBX[31:24] (SDM vol 3 11.4.6, 11.12.8.1).
	xor eax, eax
	cpuid
	cmp eax, 0xb
	jb .legacy_id
	mov eax, 0xb
	xor ecx, ecx
	cpuid
	test ebx, 0xffff		; no logical processors: leaf invalid
	jz .legacy_id
	mov r14d, edx
	jmp .find
.legacy_id:
	mov eax, 1
	cpuid
	shr ebx, 24
	mov r14d, ebx

	; Find our struct percpu: g_percpu[i]->apic_id == ours.
.find:
	mov rsi, [r15 + OFF(tp_percpus)]
	mov ecx, [r15 + OFF(tp_ncpus)]
	mov r8d, [r15 + OFF(tp_off_apic_id)]
	mov r9d, [r15 + OFF(tp_off_stack)]
	mov r10d, [r15 + OFF(tp_off_stage)]
.next:
	test ecx, ecx
	jz .dead			; not ours to start
	dec ecx
	mov rdi, [rsi + rcx * 8]
	test rdi, rdi
	jz .next
	cmp [rdi + r8], r14d
	jne .next

	; Claim it: boot_stage 0 -> 1. Fails when the BSP gave up on us.
	xor eax, eax
	mov edx, 1
	lock cmpxchg [rdi + r10], edx
	jne .dead

	mov rsp, [rdi + r9]		; this CPU's stack
	mov eax, edi			; GS base = struct percpu
	mov rdx, rdi
	shr rdx, 32
	mov ecx, MSR_GS_BASE
	wrmsr
	xor ebp, ebp
	push rbp			; return address 0: ends stack traces
	jmp [r15 + OFF(tp_entry64)]	; smp_ap_entry(rdi = percpu)

.dead:
	cli
	hlt
	jmp .dead

; Parameter block, filled by the BSP in the copy (layout = trampoline.h).
align 8
trampoline_params:
tp_cr3:		dd 0		; +0
tp_efer:	dd 0		; +4
tp_entry64:	dq 0		; +8
tp_percpus:	dq 0		; +16
tp_ncpus:	dd 0		; +24
tp_alive:	dd 0		; +28
tp_off_apic_id:	dd 0		; +32
tp_off_stack:	dd 0		; +36
tp_off_stage:	dd 0		; +40
tp_far32:	dd 0		; +44 offset, then selector
		dw SEL_CODE32
tp_far64:	dd 0		; +50
		dw SEL_CODE64
tp_gdtr:	dw tp_gdt_end - tp_gdt - 1	; +56 limit, then base
		dd 0
		dw 0		; +62 pad
tp_cr4:		dd 0		; +64
		dd 0		; +68 pad
align 8
tp_gdt:
	dq 0
	dq 0x00cf9a000000ffff		; 0x08 32-bit code
	dq 0x00cf92000000ffff		; 0x10 data
	dq 0x00af9a000000ffff		; 0x18 64-bit code
tp_gdt_end:
trampoline_end:

section .note.GNU-stack noalloc noexec nowrite progbits
