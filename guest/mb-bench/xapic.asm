; SPDX-License-Identifier: GPL-2.0-only
; guest/mb-bench/xapic.asm - a multiboot guest that times xAPIC register
; accesses through the MMIO page (SDM vol 3 11.4.1, at 0xFEE00000 after
; reset), for make bench and tests/boot/70-exit-budget.t: N reads of the
; APIC ID register, then N writes of 0 to EOI (with nothing in service, as
; after each interrupt a guest takes, the most common xAPIC write), each
; loop timed with RDTSC around it. Prints "xapic_read T" and "xapic_write T" (TSC
; per access, the format of kvm-unit-tests' vmexit lines) on COM1 and
; ends through isa-debug-exit with value 0 (a pass). Under minhv each
; access is a nested page fault emulated from the instruction's bytes.
; Multiboot v1 with the a.out kludge (flag 16): loaded at 1 MiB as is;
; 32-bit protected mode, paging off (multiboot spec 3.2).
bits 32
org 0x100000

MB_MAGIC equ 0x1BADB002
MB_FLAGS equ 1 << 16
APIC_ID equ 0xfee00020
APIC_EOI equ 0xfee000b0
N equ 256			; accesses per loop (a power of two: SHRD)
LOG2N equ 8
COM1 equ 0x3f8
DEBUG_EXIT equ 0xf4

header:
	dd MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)
	dd header, header, end, end, start

start:
	mov esp, stack_top
	mov eax, [APIC_ID]	; warm: the first access pays for a cold path
	mov dword [APIC_EOI], 0
	mov esi, name_read
	mov ebx, read_loop
	call timed
	mov esi, name_write
	mov ebx, write_loop
	call timed
	xor eax, eax
	out DEBUG_EXIT, eax	; value 0: QEMU exits with 1, minhv reports 1
.halt:
	cli
	hlt
	jmp .halt

; timed: run the loop at EBX, print the name at ESI and TSC per access.
timed:
	rdtsc
	mov [t0], eax
	mov [t0 + 4], edx
	call ebx
	rdtsc
	sub eax, [t0]
	sbb edx, [t0 + 4]
	shrd eax, edx, LOG2N	; / N
	mov edi, eax
	call puts
	mov eax, edi
	call putu
	mov al, 10
	call putc
	ret

read_loop:
	mov ecx, N
.r:	mov eax, [APIC_ID]
	dec ecx
	jnz .r
	ret

write_loop:
	mov ecx, N
.w:	mov dword [APIC_EOI], 0
	dec ecx
	jnz .w
	ret

; puts: the NUL-terminated string at ESI.
puts:
	lodsb
	test al, al
	jz .done
	call putc
	jmp puts
.done:
	ret

; putu: EAX in decimal.
putu:
	mov ecx, 10
	xor ebx, ebx		; digits pushed
.div:	xor edx, edx
	div ecx
	push edx
	inc ebx
	test eax, eax
	jnz .div
.out:	pop eax
	add al, '0'
	call putc
	dec ebx
	jnz .out
	ret

putc:
	mov dx, COM1
	out dx, al
	ret

name_read:	db "xapic_read ", 0
name_write:	db "xapic_write ", 0
align 8
t0:	dq 0
	times 256 db 0
stack_top:
end:
