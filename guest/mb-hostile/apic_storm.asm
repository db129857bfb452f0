; SPDX-License-Identifier: GPL-2.0-only
; guest/mb-hostile/apic_storm.asm - a hostile multiboot guest for the
; virtual local APIC: with -DTIMER it programs the x2APIC timer periodic with
; an initial count of 1 (an interrupt every bus cycle, if minhv let it);
; otherwise it floods itself with self-IPIs (x2APIC SELF_IPI, MSR 0x83F).
; Either way it never ends by itself: minhv must stay in control (its
; run-time limit stops it) and only this guest may slow down.
; Multiboot v1 with the a.out kludge (flag 16): loaded at 1 MiB as is.
bits 32
org 0x100000

MB_MAGIC equ 0x1BADB002
MB_FLAGS equ 1 << 16
VEC equ 0x40

header:
	dd MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)
	dd header, header, end, end, start

start:
	; Multiboot leaves GDTR undefined (spec 3.2): our own flat GDT, so an
	; interrupt gate's CS (0x08) means something.
	lgdt [gdtr]
	jmp 0x08:.flat
.flat:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov esp, stack_top
	lidt [idtr]
	; IDT entry VEC: 32-bit interrupt gate to isr, CS = the loader's.
	mov eax, isr
	mov [idt + VEC * 8], ax
	mov word [idt + VEC * 8 + 2], 0x08
	mov word [idt + VEC * 8 + 4], 0x8e00
	shr eax, 16
	mov [idt + VEC * 8 + 6], ax
	; IA32_APIC_BASE: x2APIC on (EN and EXTD, SDM 11.12.1).
	mov ecx, 0x1b
	rdmsr
	or eax, (1 << 11) | (1 << 10)
	wrmsr
	xor edx, edx
	mov ecx, 0x80f		; SVR: software enable, spurious 0xff
	mov eax, 0x1ff
	wrmsr
%ifdef TIMER
	mov ecx, 0x83e		; divide by 1
	mov eax, 0xb
	wrmsr
	mov ecx, 0x832		; LVT timer: periodic, vector VEC
	mov eax, (1 << 17) | VEC
	wrmsr
	mov ecx, 0x838		; initial count 1
	mov eax, 1
	wrmsr
	sti
.spin:
	jmp .spin
%else
	sti
	mov ecx, 0x83f		; SELF_IPI
	mov eax, VEC
.flood:
	wrmsr
	jmp .flood
%endif

isr:
	push eax
	push ecx
	push edx
	xor eax, eax
	xor edx, edx
	mov ecx, 0x80b		; EOI
	wrmsr
	pop edx
	pop ecx
	pop eax
	iret

align 8
gdt:
	dq 0
	dq 0x00cf9a000000ffff	; 0x08: 32-bit code, flat
	dq 0x00cf92000000ffff	; 0x10: data, flat
gdtr:
	dw 3 * 8 - 1
	dd gdt
align 8
idtr:
	dw 256 * 8 - 1
	dd idt
align 8
idt:
	times 256 * 8 db 0
	times 1024 db 0
stack_top:
end:
