#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/mkimages.py - malformed and unusual guest images for
# tests/boot/67-malformed-images.t, written into OUTDIR:
#   bz_wrap.bin     a relocatable bzImage whose aligned pref_address lies
#                   near 2^64, its init_size taking the end past 2^64
#   bz_low.bin      a bzImage that is not relocatable, pref_address 0x10000
#   mb_badreq.bin   a multiboot kernel requiring a video mode (flag bit 2)
#   mb_elf32_low.elf  an ELF32 multiboot kernel with a small segment at
#                   0x8000 next to its code at 1 MiB; it checks that segment
#                   and module 0 and exits 0 (pass) or 1
#   mb_low.bin      an a.out-kludge multiboot kernel wholly in conventional
#                   memory (0x1000); it checks module 0 the same way
#   module.bin      module 0 for the last two: MODULE_SIZE bytes of 0xA5,
#                   large enough that a module placed right after a low
#                   image would reach the boot information page at 0x9000
# The multiboot kernels' code is assembled with NASM (as the Makefile's
# other guests are). Usage: mkimages.py OUTDIR
import os
import struct
import subprocess
import sys
import tempfile

MB_MAGIC = 0x1BADB002
MODULE_SIZE = 0xa000
LOW_MAGIC = 0x4C4F5731  # "1WOL" in the ELF32's low segment


def bzimage(pref, relocatable, init_size=0x100000):
    """A bzImage that passes every header check minhv makes (protocol
    2.15, LOADED_HIGH, XLF_KERNEL_64) with 4 KiB of kernel that never
    runs: only where it would go matters."""
    setup_sects = 1
    kernel = bytes([0xf4]) * 0x1000  # hlt
    img = bytearray((setup_sects + 1) * 512) + kernel
    hdr = 0x1f1
    img[hdr] = setup_sects
    struct.pack_into("<I", img, 0x1f4, len(kernel) // 16)  # syssize
    struct.pack_into("<H", img, 0x1fe, 0xAA55)  # boot_flag
    img[0x201] = 0x6a  # the header ends at 0x26c
    img[0x202:0x206] = b"HdrS"
    struct.pack_into("<H", img, 0x206, 0x020f)  # version
    img[0x211] = 0x01  # loadflags: LOADED_HIGH
    struct.pack_into("<I", img, 0x230, 0x200000)  # kernel_alignment
    img[0x234] = 1 if relocatable else 0
    struct.pack_into("<H", img, 0x236, 0x1)  # xloadflags: KERNEL_64
    struct.pack_into("<I", img, 0x238, 2047)  # cmdline_size
    struct.pack_into("<I", img, 0x22c, 0x7fffffff)  # initrd_addr_max
    struct.pack_into("<Q", img, 0x258, pref)  # pref_address
    struct.pack_into("<I", img, 0x260, init_size)
    return bytes(img)


def mb_aout(flags, load, body):
    """An a.out-kludge multiboot kernel: the header at its start."""
    flags |= 1 << 16
    hdr = struct.pack("<8I", MB_MAGIC, flags, (-(MB_MAGIC + flags)) & 0xffffffff,
                      load, load, 0, 0, load + 32)
    return hdr + body


# Module 0 checked from EBX (the boot information): every byte 0xA5;
# then isa-debug-exit 0 (pass) or 1. Shared by both kernels.
CHECK_MODULE = """
	mov eax, [ebx + 20]		; mods_count
	cmp eax, 1
	jne bad
	mov esi, [ebx + 24]		; mods_addr
	mov edi, [esi]			; mod_start
	mov ecx, [esi + 4]		; mod_end
	sub ecx, edi
	cmp ecx, %d
	jne bad
.byte:
	cmp byte [edi], 0xa5
	jne bad
	inc edi
	dec ecx
	jnz .byte
	mov al, 0
	jmp done
bad:
	mov al, 1
done:
	mov dx, 0xf4
	out dx, al
	cli
	hlt
""" % MODULE_SIZE


def nasm(src):
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "x.asm"), os.path.join(d, "x.bin")
        with open(a, "w") as f:
            f.write(src)
        subprocess.run(["nasm", "-f", "bin", a, "-o", b], check=True)
        with open(b, "rb") as f:
            return f.read()


def mb_low():
    """Loaded at 0x1000 (conventional memory) with its a.out header."""
    code = nasm("bits 32\norg 0x1020\nstart:\n" + CHECK_MODULE)
    return mb_aout(1 << 1, 0x1000, code)


def mb_elf32_low():
    """ELF32 (EM_386) with two PT_LOAD segments: LOW_MAGIC at 0x8000 (a
    page of its own), the code at 1 MiB; the multiboot header (flags:
    memory information) lies in the code segment, inside the first 8 KiB
    of the file."""
    code = nasm("bits 32\norg 0x100000\n"
                "mb: dd 0x%x, 2, 0x%x\n" % (MB_MAGIC, (-(MB_MAGIC + 2)) & 0xffffffff) +
                "start:\n"
                "\tcmp dword [0x8000], 0x%x\n\tjne bad\n" % LOW_MAGIC +
                CHECK_MODULE)
    low = struct.pack("<I", LOW_MAGIC)
    ehsize, phsize = 52, 32
    low_off = 0x100
    code_off = 0x200
    eh = bytearray(ehsize)
    eh[0:4] = b"\x7fELF"
    eh[4], eh[5], eh[6] = 1, 1, 1  # ELFCLASS32, little-endian, version
    struct.pack_into("<HHIIIIIHHHHHH", eh, 16, 2, 3, 1, 0x10000c, ehsize,
                     0, 0, ehsize, phsize, 2, 0, 0, 0)
    ph = struct.pack("<8I", 1, low_off, 0x8000, 0x8000, len(low), 0x100, 4, 0x1000)
    ph += struct.pack("<8I", 1, code_off, 0x100000, 0x100000, len(code), len(code),
                      5, 0x1000)
    img = bytearray(code_off + len(code))
    img[0:ehsize] = eh
    img[ehsize:ehsize + len(ph)] = ph
    img[low_off:low_off + len(low)] = low
    img[code_off:] = code
    return bytes(img)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: mkimages.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    images = {
        # pref_address + init_size wraps to 0x200000: below guest memory
        # top, so a check without the wrap passes and the kernel lands
        # 2 MiB below the guest's block.
        "bz_wrap.bin": bzimage(0xffffffffffe00000, True, 0x400000),
        "bz_low.bin": bzimage(0x10000, False),
        "mb_badreq.bin": mb_aout(1 << 2, 0x100000, b"\xf4\xeb\xfe"),
        "mb_elf32_low.elf": mb_elf32_low(),
        "mb_low.bin": mb_low(),
        "module.bin": bytes([0xa5]) * MODULE_SIZE,
    }
    for name, data in images.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
