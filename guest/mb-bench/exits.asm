; SPDX-License-Identifier: GPL-2.0-only
; guest/mb-bench/exits.asm - a multiboot guest that times a foreign
; guest's common exits, for make bench and tests/boot/70-exit-budget.t
; (a boot of seconds, where kvm-unit-tests' vmexit.flat takes minutes):
;   xapic_read, xapic_write  xAPIC APIC ID reads and EOI writes (with
;       nothing in service, as after each interrupt a guest takes) through
;       the MMIO page (SDM vol 3 11.4.1, 0xFEE00000 after reset): under
;       minhv each is a nested page fault emulated from its bytes
;   mb_cpuid        CPUID leaf 0, as vmexit.flat's cpuid
;   mb_pmtimer      IN EAX from the ACPI PM timer (port 0x608), as its
;                   inl_from_pmtimer
;   mb_tscdeadline  x2APIC: WRMSR IA32_TSC_DEADLINE with the current TSC,
;                   the timer interrupt, WRMSR EOI in its handler, as its
;                   tscdeadline (SDM vol 3 11.5.4.1)
; Each loop runs N times between two RDTSCs; prints "name T" (TSC per
; operation, vmexit.flat's format) on COM1 and ends through
; isa-debug-exit with value 0 (a pass), 1 when the timer never fired.
; Multiboot v1 with the a.out kludge (flag 16): loaded at 1 MiB as is;
; 32-bit protected mode, paging off (multiboot spec 3.2); its own GDT,
; since the loader's GDTR need not be valid, and an IDT for the timer.
bits 32
org 0x100000

MB_MAGIC equ 0x1BADB002
MB_FLAGS equ 1 << 16
APIC_ID equ 0xfee00020
APIC_EOI equ 0xfee000b0
MSR_APIC_BASE equ 0x1b
APIC_BASE_EN equ 1 << 11
APIC_BASE_EXTD equ 1 << 10
MSR_TSC_DEADLINE equ 0x6e0
X2APIC_TPR equ 0x808
X2APIC_EOI equ 0x80b
X2APIC_SVR equ 0x80f
X2APIC_LVT_TIMER equ 0x832
LVT_TSC_DEADLINE equ 2 << 17
TIMER_VEC equ 0xef
PM_TIMER equ 0x608
N equ 256			; operations per loop (a power of two: SHRD)
LOG2N equ 8
SPIN equ 100000			; polls of the flag before giving up
COM1 equ 0x3f8
DEBUG_EXIT equ 0xf4

header:
	dd MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)
	dd header, header, end, end, start

start:
	lgdt [gdt_desc]
	jmp 0x08:.flat
.flat:	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	mov esp, stack_top
	lidt [idt_desc]
	mov eax, [APIC_ID]	; warm: the first access pays for a cold path
	mov dword [APIC_EOI], 0
	mov esi, name_read
	mov ebx, read_loop
	call timed
	mov esi, name_write
	mov ebx, write_loop
	call timed
	mov esi, name_cpuid
	mov ebx, cpuid_loop
	call timed
	mov esi, name_pmtimer
	mov ebx, pmtimer_loop
	call timed
	; x2APIC on (xAPIC first: EN, then EN | EXTD, SDM 11.12.5), software
	; enabled, the timer in TSC-deadline mode, nothing held back by TPR.
	mov ecx, MSR_APIC_BASE
	rdmsr
	or eax, APIC_BASE_EN | APIC_BASE_EXTD
	wrmsr
	xor edx, edx
	mov ecx, X2APIC_SVR
	mov eax, 0x1ff
	wrmsr
	mov ecx, X2APIC_TPR
	xor eax, eax
	wrmsr
	mov ecx, X2APIC_LVT_TIMER
	mov eax, LVT_TSC_DEADLINE | TIMER_VEC
	wrmsr
	sti
	mov esi, name_tsc
	mov ebx, tsc_loop
	call timed
	xor eax, eax
	out DEBUG_EXIT, eax	; value 0: a pass
.halt:
	cli
	hlt
	jmp .halt

fail:
	mov esi, name_fail
	call puts
	mov eax, 1
	out DEBUG_EXIT, eax
	jmp start.halt

; timed: run the loop at EBX, print the name at ESI and TSC per access.
; The loops leave ESI alone.
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

cpuid_loop:
	mov ebp, N
.c:	xor eax, eax
	xor ecx, ecx
	cpuid
	dec ebp
	jnz .c
	ret

pmtimer_loop:
	mov ecx, N
	mov dx, PM_TIMER
.p:	in eax, dx
	dec ecx
	jnz .p
	ret

; The deadline is the TSC now: the interrupt is due at once, and the loop
; waits for its handler.
tsc_loop:
	mov ebp, N
.t:	mov byte [flag], 0
	rdtsc
	mov ecx, MSR_TSC_DEADLINE
	wrmsr
	mov ebx, SPIN
.w:	cmp byte [flag], 0
	jne .next
	dec ebx
	jnz .w
	jmp fail
.next:	dec ebp
	jnz .t
	ret

timer_isr:
	push eax
	push ecx
	push edx
	mov byte [flag], 1
	xor eax, eax
	xor edx, edx
	mov ecx, X2APIC_EOI
	wrmsr
	pop edx
	pop ecx
	pop eax
	iret

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
name_cpuid:	db "mb_cpuid ", 0
name_pmtimer:	db "mb_pmtimer ", 0
name_tsc:	db "mb_tscdeadline ", 0
name_fail:	db "mb_tscdeadline: no timer interrupt", 10, 0
flag:	db 0

align 8
gdt:	dq 0
	dq 0x00cf9a000000ffff	; 0x08: code, flat 4 GiB, 32-bit
	dq 0x00cf92000000ffff	; 0x10: data, flat 4 GiB
gdt_desc:
	dw gdt_desc - gdt - 1
	dd gdt

; Vectors 0..TIMER_VEC: only the timer's gate is present.
align 8
idt:	times TIMER_VEC * 8 db 0
	dw ((timer_isr - $$) + 0x100000) & 0xffff
	dw 0x08
	db 0, 0x8e		; present, DPL 0, 32-bit interrupt gate
	dw ((timer_isr - $$) + 0x100000) >> 16
idt_desc:
	dw idt_desc - idt - 1
	dd idt

align 8
t0:	dq 0
	times 256 db 0
stack_top:
end:
