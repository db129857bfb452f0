; SPDX-License-Identifier: GPL-2.0-only
; guest/mb-hostile/mce_spin.asm - a multiboot guest for the machine-check
; and NMI boot test (tests/boot/14-mce-nmi.t). It turns CR4.MCE on (else
; QEMU resets the whole machine on an injected #MC), says "spinning" and
; spins with IF=0 for ever, so CPU 0 stays in guest mode: an NMI is an NMI
; exit, and a #MC, which QEMU TCG delivers into the guest (it checks no #MC
; intercept there), finds an empty IDT: a triple fault, a SHUTDOWN exit
; with MCG_STATUS.MCIP set, as real hardware gives for a guest with
; CR4.MCE clear.
; Multiboot v1 with the a.out kludge (flag 16): loaded at 1 MiB as is. It
; loads no segment register, so the loader's flat segments serve.
bits 32
org 0x100000

MB_MAGIC equ 0x1BADB002
MB_FLAGS equ 1 << 16
COM1 equ 0x3f8

header:
	dd MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)
	dd header, header, end, end, start

start:
	mov esp, stack_top		; multiboot leaves ESP undefined
	lidt [idtr]			; limit 0: no vector has a gate
	mov eax, cr4
	or eax, 1 << 6			; CR4.MCE
	mov cr4, eax
	mov esi, msg_spin
	call print
.spin:
	jmp .spin

print:
	mov dx, COM1
.next:
	lodsb
	test al, al
	jz .done
	out dx, al
	jmp .next
.done:
	ret

msg_spin: db "mce_spin: CR4.MCE on, spinning", 10, 0
align 8
idtr:
	dw 0
	dd 0
	times 256 db 0
stack_top:
end:
