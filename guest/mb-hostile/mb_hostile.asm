; SPDX-License-Identifier: GPL-2.0-only
; guest/mb-hostile/mb_hostile.asm - a hostile multiboot guest for the waits,
; the vLAPIC and the exits of issue 24 (tests/boot/66-hostile-mb.t). Built
; once per case:
;   (default)    a row of checks, each printed "mbh: ok <name>" or
;                "mbh: not ok <name>", then isa-debug-exit 0 when all
;                passed (the multiboot pass), else 1;
;   -DCLI_HLT    cli; hlt on its only vCPU;
;   -DINIT_SELF  an INIT IPI to all including self;
;   -DS3         ACPI S3 with no wake-up source enabled;
;   -DWALK_APIC  a store whose page-table walk reads the APIC page.
; Each of the last four waits for, or does, what nothing can answer: minhv
; must stop it with a reason (not hang), and survive it.
; Multiboot v1 with the a.out kludge (flag 16): loaded at 1 MiB as is.
bits 32
org 0x100000

MB_MAGIC equ 0x1BADB002
MB_FLAGS equ 1 << 16
COM1 equ 0x3f8
APIC equ 0xfee00000
EXIT_PORT equ 0xf4
VEC_TIMER equ 0x40
PD equ 0x300000			; 32-bit paging: a page directory here
%ifndef FROM
%define FROM 1			; -DFROM=n: start at check n (to try one)
%endif
SEGBASE equ 0x200000		; base of the data segment 0x20

header:
	dd MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)
	dd header, header, end, end, start

start:
	; Multiboot leaves GDTR and IDTR undefined (spec 3.2): our own.
	lgdt [gdtr]
	jmp 0x08:.flat
.flat:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	mov esp, stack_top
	lidt [idtr]
	mov eax, 1
	mov ebx, db_isr
	call gate
	mov eax, 2
	mov ebx, nmi_isr
	call gate
	mov eax, 13
	mov ebx, gp_isr
	call gate
	mov eax, VEC_TIMER
	mov ebx, timer_isr
	call gate
	mov dword [APIC + 0xf0], 0x1ff	; SVR: software enable

%ifdef CLI_HLT
	mov esi, m_clihlt
	call print
	cli
	hlt
	jmp $
%elifdef INIT_SELF
	mov esi, m_init
	call print
	mov dword [APIC + 0x310], 0
	; INIT (101b), level assert, destination shorthand "all including
	; self" (10b): this vCPU waits for a SIPI nobody sends.
	mov dword [APIC + 0x300], 0x84500
	jmp $
%elifdef S3
	mov esi, m_s3
	call print
	mov dx, 0x604			; PM1a_CNT (the FADT's)
	mov ax, (1 << 10) | (1 << 13)	; SLP_TYP S3, SLP_EN
	out dx, ax
	jmp $
%elifdef WALK_APIC
	mov esi, m_walk
	call print
	; PDE 0: 4 MiB identity page (code, data). PDE 1 points at the APIC
	; page as if it were a page table: the PTE for linear 0x4c0000 lies
	; at APIC + 0x300 (the ICR). The store's walk reads it.
	mov dword [PD], 0x83
	mov dword [PD + 4], APIC | 3
	mov eax, PD
	mov cr3, eax
	mov eax, cr4
	or eax, 1 << 4			; PSE
	mov cr4, eax
	mov eax, cr0
	or eax, 1 << 31			; PG
	mov cr0, eax
	mov dword [0x4c0000], 0x000c4500
	jmp $
%else
	call checks
	mov esi, m_done
	call print
	mov dx, EXIT_PORT
	mov al, [failed]
	out dx, al
	jmp $
%endif

; IDT gate EAX -> handler EBX: a 32-bit interrupt gate, CS 0x08.
gate:
	mov [idt + eax * 8], bx
	mov word [idt + eax * 8 + 2], 0x08
	mov word [idt + eax * 8 + 4], 0x8e00
	shr ebx, 16
	mov [idt + eax * 8 + 6], bx
	ret

; Print the NUL-terminated string at ESI on COM1.
print:
	push eax
	push edx
	mov dx, COM1
.next:
	lodsb
	test al, al
	jz .done
	out dx, al
	jmp .next
.done:
	pop edx
	pop eax
	ret

; Report the check named at EDI: passed when ZF is set.
report:
	pushf
	mov esi, m_ok
	jz .ok
	mov byte [failed], 1
	mov esi, m_notok
.ok:
	call print
	mov esi, edi
	call print
	mov esi, m_nl
	call print
	popf
	ret

; Wait with sti; hlt; cli until [fired] is set or 40 HLTs (about 2 s:
; minhv resumes a HLT nothing wakes after 55 ms) went by; ZF set when it
; fired.
wait_fired:
	mov ecx, 40
.again:
	cmp dword [fired], 0
	jne .yes
	sti
	hlt
	cli
	dec ecx
	jnz .again
	cmp dword [fired], 1		; ZF clear: it never fired
	ret
.yes:
	cmp eax, eax
	ret

checks:
	; 1. sti; hlt with nothing armed: each HLT ends (minhv's 55 ms BIOS
	; tick); a lost host-timer wake-up hung here.
	mov ecx, 10
.halts:
	sti
	hlt
	cli
	dec ecx
	jnz .halts
	cmp eax, eax
	mov edi, n_halts
	call report

%if FROM <= 2
	; 2. Byte and word reads of the APIC page (version 0x00050014).
	mov al, [APIC + 0x30]
	mov bx, [APIC + 0x32]
	movzx ecx, byte [APIC + 0x30]
	cmp al, 0x14
	jne .bytes
	cmp bx, 0x0005
	jne .bytes
	cmp ecx, 0x14
.bytes:
	mov edi, n_bytes
	call report
%endif

%if FROM <= 3
	; 3. A REP prefix on a MOV is ignored.
	db 0xf3
	mov eax, [APIC + 0x30]
	cmp eax, 0x00050014
	mov edi, n_repmov
	call report
%endif

%if FROM <= 4
	; 4. A one-shot timer that fires while sti; hlt waits is delivered
	; before the next instruction (a stale STI shadow kept it waiting).
	mov dword [fired], 0
	mov dword [APIC + 0x3e0], 0xb		; divide by 1
	mov dword [APIC + 0x320], VEC_TIMER	; one-shot
	mov dword [APIC + 0x380], 20000000	; 20 ms at 1 GHz
	call wait_fired
	mov edi, n_oneshot
	call report
%endif

%if FROM <= 5
	; 5. A guest TSC write does not move the one-shot timer (it counts
	; the bus clock): armed for 10 ms, then the TSC set back to 0.
	mov dword [fired], 0
	mov dword [APIC + 0x3e0], 0xb		; divide by 1
	mov dword [APIC + 0x320], VEC_TIMER	; one-shot
	mov dword [APIC + 0x380], 10000000
	xor eax, eax
	xor edx, edx
	mov ecx, 0x10			; IA32_TIME_STAMP_COUNTER
	wrmsr
	call wait_fired
	mov edi, n_tscwrite
	call report
%endif

%if FROM <= 6
	; 6. REP INSB into page 0 (a PC's IVT is RAM): LSR reads 0x60.
	mov byte [0x100], 0
	mov edi, 0x100
	mov ecx, 2
	mov dx, COM1 + 5
	cld
	rep insb
	cmp word [0x100], 0x6060
	mov edi, n_page0
	call report
%endif

%if FROM <= 7
	; 7. INSB at ES:EDI with ES.base = SEGBASE: linear, not EDI.
	mov byte [SEGBASE + 0x10], 0
	mov ax, 0x20
	mov es, ax
	mov edi, 0x10
	mov dx, COM1 + 5
	insb
	mov ax, 0x10
	mov es, ax
	cmp byte [SEGBASE + 0x10], 0x60
	mov edi, n_segbase
	call report
%endif

%if FROM <= 8
	; 8. String I/O through paging: linear 0x800000 maps to physical
	; 0x400000 (4 MiB pages, the first two identity). OUTSB of "P" and
	; a newline from there prints them; INSB to linear 0x800010 lands
	; at physical 0x400010.
	mov dword [PD], 0x83
	mov dword [PD + 4], 0x400083
	mov dword [PD + 8], 0x400083
	mov byte [0x400000], 'P'
	mov byte [0x400001], 10
	mov eax, PD
	mov cr3, eax
	mov eax, cr4
	or eax, 1 << 4			; PSE
	mov cr4, eax
	mov eax, cr0
	or eax, 1 << 31			; PG
	mov cr0, eax
	mov esi, m_paged
	call print
	mov esi, 0x800000
	mov ecx, 2
	mov dx, COM1
	rep outsb
	mov byte [0x400010], 0
	mov edi, 0x800010
	mov dx, COM1 + 5
	insb
	mov eax, cr0
	and eax, ~(1 << 31)
	mov cr0, eax
	cmp esi, 0x800002
	jne .paged
	cmp byte [0x400010], 0x60
.paged:
	mov edi, n_paged
	call report
%endif

%if FROM <= 9
	; 9. MOV to CR4 with a reserved bit from 16-bit code: #GP, as from
	; any other code (QEMU answers it with VMEXIT_INVALID).
	mov dword [gp_seen], 0
	mov [saved_esp], esp
	jmp 0x18:cr4_16 - 0x100000	; CS 0x18 has its base at 1 MiB
cr4_back:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov esp, [saved_esp]
	cmp dword [gp_seen], 1
	mov edi, n_cr4
	call report
%endif

%if FROM <= 10
	; 10. An NMI handler's IRET that faults while another NMI is
	; pending: the #GP frame has the guest's TF (clear), and no #DB
	; follows (minhv's single step must not leak).
	mov dword [gp_seen], 0
	mov dword [gp_tf], 0
	mov dword [db_seen], 0
	mov dword [nmis], 0
	mov dword [APIC + 0x310], 0
	mov dword [APIC + 0x300], 0x4400	; NMI to APIC ID 0: itself
	mov ecx, 20
.nmiwait:
	mov dx, 0x80			; an exit or two for minhv to inject
	in al, dx
	cmp dword [nmis], 2
	je .nmidone
	dec ecx
	jnz .nmiwait
.nmidone:
	mov eax, [gp_seen]
	or eax, [gp_tf]
	or eax, [db_seen]
	cmp eax, 1			; one #GP, its TF clear, no #DB
	jne .nmibad
	cmp dword [nmis], 2
.nmibad:
	mov edi, n_nmiiret
	call report
	je .nmiok
	mov esi, m_nmi				; what it saw, for the log
	call print
	mov eax, [gp_seen]
	call hex
	mov eax, [gp_tf]
	call hex
	mov eax, [db_seen]
	call hex
	mov eax, [nmis]
	call hex
	mov esi, m_nl
	call print
.nmiok:
%endif

	ret

; Print EAX as 8 hex digits and a space.
hex:
	push ecx
	push edx
	mov ecx, 8
	mov dx, COM1
.digit:
	rol eax, 4
	push eax
	and al, 0xf
	add al, '0'
	cmp al, '9'
	jbe .out
	add al, 'a' - '9' - 1
.out:
	out dx, al
	pop eax
	dec ecx
	jnz .digit
	mov al, ' '
	out dx, al
	pop edx
	pop ecx
	ret

%if FROM <= 9
bits 16
cr4_16:
	mov eax, cr4
	or eax, 1 << 31			; reserved
	mov cr4, eax			; #GP -> gp_isr
	jmp dword 0x08:cr4_back		; not reached
bits 32
%endif

; #GP: from the CR4 check (its CS is 0x18) go back to 32-bit code; from
; the NMI handler's IRET record the pushed EFLAGS.TF, repair the NMI
; frame's CS and return to the IRET.
gp_isr:
	inc dword [gp_seen]
%if FROM <= 9
	cmp word [esp + 8], 0x18	; error code, EIP, CS
	jne .iret
	jmp 0x08:cr4_back
%endif
.iret:
	mov eax, [esp + 12]		; EFLAGS
	and eax, 1 << 8
	mov [gp_tf], eax
	mov eax, [nmi_frame]
	mov word [eax + 4], 0x08
	add esp, 4			; the error code
	iret

; NMI: the first one sends itself another (pending: NMIs are blocked
; until IRET), breaks its own frame's CS and IRETs into the #GP.
nmi_isr:
	inc dword [nmis]
	cmp dword [nmis], 1
	jne .out
	mov dword [APIC + 0x300], 0x4400	; NMI to itself: pending
	mov [nmi_frame], esp
	mov word [esp + 4], 0x28		; past the GDT: #GP on IRET
.out:
	iret

db_isr:
	inc dword [db_seen]
	and dword [esp + 8], ~(1 << 8)	; clear TF so it stops
	iret

timer_isr:
	mov dword [fired], 1
	mov dword [APIC + 0xb0], 0		; EOI
	iret

m_clihlt: db "mbh: cli; hlt", 10, 0
m_init: db "mbh: INIT to all including self", 10, 0
m_s3: db "mbh: ACPI S3, no wake-up", 10, 0
m_walk: db "mbh: page walk through the APIC page", 10, 0
m_done: db "mbh: done", 10, 0
m_paged: db "mbh: paged OUTSB: ", 0
m_ok: db "mbh: ok ", 0
m_notok: db "mbh: not ok ", 0
m_nl: db 10, 0
m_nmi: db "mbh: #GP, its TF, #DB, NMIs: ", 0
n_halts: db "sti_hlt_nothing_armed", 0
n_bytes: db "apic_byte_word_reads", 0
n_repmov: db "rep_mov_ignored", 0
n_oneshot: db "oneshot_wakes_sti_hlt", 0
n_tscwrite: db "timer_ignores_tsc_write", 0
n_page0: db "rep_insb_page0", 0
n_segbase: db "insb_segment_base", 0
n_paged: db "outsb_through_paging", 0
n_cr4: db "cr4_reserved_16bit_gp", 0
n_nmiiret: db "nmi_iret_fault_no_tf_leak", 0

align 8
gdt:
	dq 0
	dq 0x00cf9a000000ffff	; 0x08: 32-bit code, flat
	dq 0x00cf92000000ffff	; 0x10: data, flat
	dq 0x00009a100000ffff	; 0x18: 16-bit code, base 1 MiB, 64 KiB
	dq 0x00cf92200000ffff	; 0x20: data, base SEGBASE (0x200000)
gdt_end:
gdtr:
	dw gdt_end - gdt - 1
	dd gdt
align 8
idtr:
	dw 256 * 8 - 1
	dd idt
failed: db 0
align 4
fired: dd 0
saved_esp: dd 0
gp_seen: dd 0
gp_tf: dd 0
db_seen: dd 0
nmis: dd 0
nmi_frame: dd 0
align 8
idt:
	times 256 * 8 db 0
	times 4096 db 0
stack_top:
end:
