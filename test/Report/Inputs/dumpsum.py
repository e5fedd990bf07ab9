#!/usr/bin/env python3
"""The checksum of a version 3 dump (docs/dump-format.md, "Checksum"), for
tests that build or edit dumps.

  dumpsum.py check DUMP        prints "ok" or "bad" (exit 0 / 1)
  dumpsum.py reseal IN OUT     OUT = IN with its last 8 bytes replaced by the
                               checksum of the bytes before them (a v3 dump
                               edited in place reads as a whole again)
  dumpsum.py seal IN OUT       OUT = IN + the checksum of all of IN (a v3
                               dump's bytes without their trailer, e.g. cut)
  dumpsum.py v2 IN OUT         OUT = IN as version 2: no trailer, no
                               calling-context nodes, version 2

As a module: checksum(data) of the bytes before the trailer, xxh64(data).
"""
import struct
import sys

BLOCK = 1 << 20
P1 = 0x9E3779B185EBCA87
P2 = 0xC2B2AE3D27D4EB4F
P3 = 0x165667B19E3779F9
P4 = 0x85EBCA77C2B2AE63
P5 = 0x27D4EB2F165667C5
M = (1 << 64) - 1


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def _round(acc, lane):
    return (_rotl((acc + lane * P2) & M, 31) * P1) & M


def xxh64(data):
    """XXH64 with seed 0 (llvm::xxHash64)."""
    n = len(data)
    p = 0
    if n >= 32:
        v = [(P1 + P2) & M, P2, 0, (-P1) & M]
        while p + 32 <= n:
            lanes = struct.unpack_from("<4Q", data, p)
            v = [_round(v[i], lanes[i]) for i in range(4)]
            p += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) +
             _rotl(v[3], 18)) & M
        for lane in v:
            h = ((h ^ _round(0, lane)) * P1 + P4) & M
    else:
        h = P5
    h = (h + n) & M
    while p + 8 <= n:
        h ^= _round(0, struct.unpack_from("<Q", data, p)[0])
        h = (_rotl(h, 27) * P1 + P4) & M
        p += 8
    if p + 4 <= n:
        h ^= (struct.unpack_from("<I", data, p)[0] * P1) & M
        h = (_rotl(h, 23) * P2 + P3) & M
        p += 4
    while p < n:
        h ^= (data[p] * P5) & M
        h = (_rotl(h, 11) * P1) & M
        p += 1
    h ^= h >> 33
    h = (h * P2) & M
    h ^= h >> 29
    h = (h * P3) & M
    h ^= h >> 32
    return h


def checksum(body):
    """The checksum of a version 3 dump whose bytes before the trailer are
    body: the XXH64 of the XXH64s of its 1 MiB blocks."""
    hashes = b"".join(struct.pack("<Q", xxh64(body[i:i + BLOCK]))
                      for i in range(0, len(body), BLOCK))
    return xxh64(hashes)


def without_nodes(d):
    """A version 4 dump's bytes (no trailer) without its calling-context
    nodes, each thread's num_nodes 0 (the version 2 and 3 layout)."""
    if struct.unpack_from("<I", d, 8)[0] < 4:
        return d
    record_size, num_ids = struct.unpack_from("<I", d, 20)[0], \
        struct.unpack_from("<I", d, 32)[0]
    num_images, num_threads = struct.unpack_from("<II", d, 48)
    num_modules = struct.unpack_from("<I", d, 64)[0]
    pos = 80
    for _ in range(num_images):
        build_id_size, name_size = struct.unpack_from("<II", d, pos + 8)
        pos += 16 + (build_id_size + name_size + 7) // 8 * 8
    pos += 24 * num_modules + 64 * num_ids
    out = bytearray(d[:pos])
    for _ in range(num_threads):
        num_records = struct.unpack_from("<Q", d, pos + 8)[0]
        num_nodes = struct.unpack_from("<Q", d, pos + 40)[0]
        thread = bytearray(d[pos:pos + 48 + num_records * record_size])
        struct.pack_into("<Q", thread, 40, 0)
        out += thread
        pos += len(thread) + 32 * num_nodes
    return out


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    data = open(argv[2], "rb").read()
    if argv[1] == "check":
        ok = struct.unpack("<Q", data[-8:])[0] == checksum(data[:-8])
        print("ok" if ok else "bad")
        return 0 if ok else 1
    if argv[1] == "reseal":
        data = data[:-8]
    elif argv[1] == "v2":
        out = without_nodes(bytearray(data[:-8]))
        struct.pack_into("<I", out, 8, 2)
        open(argv[3], "wb").write(out)
        return 0
    elif argv[1] != "seal":
        sys.exit(__doc__)
    open(argv[3], "wb").write(data + struct.pack("<Q", checksum(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
