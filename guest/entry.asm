; SPDX-License-Identifier: GPL-2.0-only
; guest/entry.asm - 64-bit entry points of the test guest. minhv starts
; vCPU 0 at _start (long mode, paging on, RDI = struct hv_boot_info, RSP set);
; HC_VCPU_START lands other vCPUs at ap_entry with RDI = their start block.
bits 64
default rel

extern guest_main, ap_main, idt_load
extern __bss_start, __bss_end
global _start, ap_entry, gdt_load

KERNEL_CS equ 0x08
KERNEL_DS equ 0x10

section .text.entry progbits alloc exec nowrite
_start:
	cli
	cld
	mov r12, rdi			; boot info, kept across the calls
	lea rdi, [__bss_start]		; BSS: vCPU 0 only, before any C
	lea rcx, [__bss_end]
	sub rcx, rdi
	xor eax, eax
	rep stosb
	call gdt_load
	call idt_load
	and rsp, -16
	mov rdi, r12
	xor esi, esi			; vCPU 0
	call guest_main
.dead:
	cli
	hlt
	jmp .dead

ap_entry:
	cli
	cld
	mov r12, rdi
	call gdt_load
	call idt_load
	and rsp, -16
	mov rdi, r12
	call ap_main
	jmp _start.dead

; Our own GDT, so IRETQ from exception handlers has descriptors to load
; whatever segment state minhv left in the VMCB.
gdt_load:
	lgdt [gdt_desc]
	mov ax, KERNEL_DS
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	pop rax				; return address
	push KERNEL_CS
	push rax
	o64 retf			; reload CS, return to caller

section .data
align 16
gdt:
	dq 0
	dq 0x00af9b000000ffff		; 0x08: code, 64-bit, present, accessed
	dq 0x00cf93000000ffff		; 0x10: data, writable, present, accessed
gdt_end:
gdt_desc:
	dw gdt_end - gdt - 1
	dq gdt

section .note.GNU-stack noalloc noexec nowrite progbits
