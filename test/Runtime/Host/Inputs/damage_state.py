"""Writes a damaged copy of a continuous-mode state file (recover-safety.test).

  damage_state.py IN OUT registry-outside|thread-loop|records-outside

The state header (runtime/host/lwp_host.c, struct lwp_state_header) holds
the mapping's base address at offset 16, its used bytes at 32 and the
thread registry pointer at 56; a thread state (lwp_host_internal.h) holds
its records pointer at 16 and its next pointer at 96. Pointers are
addresses in the mapping (base + file offset).

The state file is a sparse 4 GiB mapping: the copy keeps its holes (cp
--sparse=always) and only the words to damage are rewritten in place, so
the test neither reads 4 GiB into memory nor writes 4 GiB to disk.
"""
import os
import struct
import subprocess
import sys

src, dst, how = sys.argv[1:4]
if how not in ("registry-outside", "thread-loop", "records-outside"):
    sys.exit("unknown damage " + how)
subprocess.run(["cp", "--sparse=always", src, dst], check=True)
size = os.path.getsize(dst)


def read_u64(f, offset):
    f.seek(offset)
    return struct.unpack("<Q", f.read(8))[0]


def write_u64(f, offset, value):
    f.seek(offset)
    f.write(struct.pack("<Q", value))


with open(dst, "r+b") as f:
    base = read_u64(f, 16)
    used = read_u64(f, 32)
    registry = read_u64(f, 56)
    thread = registry - base
    if how == "registry-outside":
        write_u64(f, 56, base + used + 4096)
    elif how == "thread-loop":
        write_u64(f, thread + 96, registry)
    else:  # records-outside
        write_u64(f, thread + 16, base + size - 8)
