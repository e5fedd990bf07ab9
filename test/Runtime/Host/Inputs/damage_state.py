"""Writes a damaged copy of a continuous-mode state file (recover-safety.test).

  damage_state.py IN OUT registry-outside|thread-loop|records-outside

The state header (runtime/host/lwp_host.c, struct lwp_state_header) holds
the mapping's base address at offset 16, its used bytes at 32 and the
thread registry pointer at 56; a thread state (lwp_host_internal.h) holds
its records pointer at 16 and its next pointer at 96. Pointers are
addresses in the mapping (base + file offset).
"""
import struct
import sys

src, dst, how = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
base, = struct.unpack_from("<Q", data, 16)
used, = struct.unpack_from("<Q", data, 32)
registry, = struct.unpack_from("<Q", data, 56)
thread = registry - base
if how == "registry-outside":
    struct.pack_into("<Q", data, 56, base + used + 4096)
elif how == "thread-loop":
    struct.pack_into("<Q", data, thread + 96, registry)
elif how == "records-outside":
    struct.pack_into("<Q", data, thread + 16, base + len(data) - 8)
else:
    sys.exit("unknown damage " + how)
open(dst, "wb").write(data)
