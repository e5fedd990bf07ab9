#!/usr/bin/env python3
"""Sets the map hash of every module of a version 3 dump (lwp_dump_module.
map_hash, docs/dump-format.md) to the hash of the blob at the module's
address in a binary's lwp_map section, as a runtime that records it would,
and reseals the dump (dumpsum.py).

usage: setmaphash.py DUMP BINARY OUT
  BINARY: a 64-bit little-endian ELF file (single-image dumps only), or "-"
  to set every hash to 0 (not recorded, as in a dump of an older runtime).
"""
import struct
import sys

import dumpsum


def lwp_map(path):
    """(address, bytes) of the lwp_map section of an ELF64 LE file."""
    elf = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)

    def section(i):
        name, _, _, addr, off, size = struct.unpack_from(
            "<IIQQQQ", elf, shoff + i * shentsize)
        return name, addr, off, size

    _, _, stroff, _ = section(shstrndx)
    for i in range(shnum):
        name, addr, off, size = section(i)
        end = elf.index(b"\0", stroff + name)
        if elf[stroff + name:end] == b"lwp_map":
            return addr, elf[off:off + size]
    sys.exit("setmaphash.py: no lwp_map section in " + path)


def main(argv):
    dump = bytearray(open(argv[1], "rb").read())
    base, section = lwp_map(argv[2]) if argv[2] != "-" else (0, b"")
    num_images, = struct.unpack_from("<I", dump, 48)
    num_modules, = struct.unpack_from("<I", dump, 64)
    pos = 80
    for _ in range(num_images):
        id_size, name_size = struct.unpack_from("<II", dump, pos + 8)
        pos += 16 + (id_size + name_size + 7) // 8 * 8
    for _ in range(num_modules):
        vaddr, = struct.unpack_from("<Q", dump, pos)
        h = 0
        if section:
            off = vaddr - base
            slots, = struct.unpack_from("<I", section, off + 24)
            h = dumpsum.xxh64(section[off:off + slots]) & 0xffffffff
        struct.pack_into("<I", dump, pos + 20, h)
        pos += 24
    body = bytes(dump[:-8])
    open(argv[3], "wb").write(body + struct.pack("<Q",
                                                 dumpsum.checksum(body)))


if __name__ == "__main__":
    main(sys.argv)
