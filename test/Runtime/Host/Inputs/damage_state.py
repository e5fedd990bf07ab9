"""Writes a damaged copy of a continuous-mode state file (recover-safety.test).

  damage_state.py IN OUT registry-outside|thread-loop|records-outside|
                         flip-header|flip-image-name|flip-thread|
                         flip-record-id

The state header (runtime/host/lwp_host_internal.h, struct
lwp_state_header, 120 bytes) holds the mapping's base address at offset 16,
its used bytes at 32, the thread registry pointer at 56, the image table at
64 (its count at 80), the module table at 72 (its count at 84) and the
checksum at 112; a thread state holds its records pointer at 16, its node
array at 152 (capacity at 164), its next pointer at 168 and its check at
176 (lwp_host_continuous.c asserts these offsets). Pointers are addresses in the mapping (base + file offset).

The first three damage a pointer and then seal the state again (recompute
the checksums as the runtime would), as a state that is consistent but
wrong: lwp-recover's structural checks must refuse it. The flip-* ones flip
one bit without sealing: the checksums must refuse it.

The state file is sparse where it was never written: the copy keeps its
holes (cp --sparse=always) and only the words to damage are rewritten in
place.
"""
import os
import struct
import subprocess
import sys

HOW = ("registry-outside", "thread-loop", "records-outside", "flip-header",
       "flip-image-name", "flip-thread", "flip-record-id")
src, dst, how = sys.argv[1:4]
if how not in HOW:
    sys.exit("unknown damage " + how)
subprocess.run(["cp", "--sparse=always", src, dst], check=True)
size = os.path.getsize(dst)

FNV_START = 0xCBF29CE484222325


def fnv(h, data):
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def read(f, offset, n):
    f.seek(offset)
    return f.read(n)


def read_u64(f, offset):
    return struct.unpack("<Q", read(f, offset, 8))[0]


def read_u32(f, offset):
    return struct.unpack("<I", read(f, offset, 4))[0]


def write_u64(f, offset, value):
    f.seek(offset)
    f.write(struct.pack("<Q", value))


def seal(f, base):
    """Recomputes the header checksum and every thread's check."""
    used = read_u64(f, 32)
    header = bytearray(read(f, 0, 120))
    header[32:40] = bytes(8)
    header[112:120] = bytes(8)
    c = fnv(FNV_START, header)
    images, modules = read_u64(f, 64), read_u64(f, 72)
    num_images, num_modules = read_u32(f, 80), read_u32(f, 84)
    if images:
        c = fnv(c, read(f, images - base, 32 * num_images))
        for i in range(num_images):
            entry = images - base + 32 * i
            name, build_id = read_u64(f, entry + 8), read_u64(f, entry + 16)
            build_id_size = read_u32(f, entry + 24)
            text = read(f, name - base, used - (name - base))
            c = fnv(c, text[:text.index(b"\0")])
            if build_id:
                c = fnv(c, read(f, build_id - base, build_id_size))
    if modules:
        c = fnv(c, read(f, modules - base, 24 * num_modules))
    write_u64(f, 112, c)
    thread, seen = read_u64(f, 56), 0
    while thread and 4096 <= thread - base < used and seen < 64:
        t = thread - base
        state = read(f, t, 184)
        check = FNV_START
        for offset, n in ((0, 8), (8, 4), (16, 8), (32, 8), (48, 8), (56, 8),
                          (68, 4), (152, 8), (164, 4), (168, 8)):
            check = fnv(check, state[offset:offset + n])
        write_u64(f, t + 176, check)
        thread, seen = read_u64(f, t + 168), seen + 1


def flip(f, offset):
    f.seek(offset)
    b = f.read(1)[0]
    f.seek(offset)
    f.write(bytes([b ^ 0x10]))


with open(dst, "r+b") as f:
    base = read_u64(f, 16)
    used = read_u64(f, 32)
    registry = read_u64(f, 56)
    thread = registry - base
    if how == "registry-outside":
        write_u64(f, 56, base + used + 4096)
    elif how == "thread-loop":
        seal(f, base)
        write_u64(f, thread + 168, registry)
    elif how == "records-outside":
        write_u64(f, thread + 16, base + size - 8)
    elif how == "flip-header":
        flip(f, 88)  # next_id
    elif how == "flip-image-name":
        name = read_u64(f, read_u64(f, 64) - base + 8)
        flip(f, name - base + 1)
    elif how == "flip-record-id":
        records = read_u64(f, thread + 16) - base
        flip(f, records + 8 + 2)  # the first record's id_word, bit 20
    else:  # flip-thread
        flip(f, thread + 33)  # capacity
    if not how.startswith("flip-"):
        seal(f, base)
