#!/usr/bin/env python3
"""Flips every bit of a dump, one at a time, and runs lwp-report on each
damaged copy: a report that succeeds with output other than the intact
dump's is a flipped bit taken for a figure (the checksum of a version 3 dump
must make that impossible).

usage: flipbits.py WORKDIR DUMP -- LWP-REPORT-COMMAND...
  The command's argument "@DUMP@" is replaced by the damaged copy.

Prints one line:
  bits N: errors E (one line each), unchanged U, different D, bad errors B
where "unchanged" counts reports equal to the intact dump's, "different"
successful reports that differ from it, and "bad errors" failures that did
not end with exactly one "error:" line on stderr (a crash, a hang of more
than 60 s, or several lines). Exits 1 when the intact dump does not report.
"""
import concurrent.futures
import os
import subprocess
import sys


def run(command, path):
    """The command's exit code, output (with the dump's path as @DUMP@, so
    that copies compare equal) and error output."""
    args = [path if a == "@DUMP@" else a for a in command]
    try:
        p = subprocess.run(args, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, b"", b"timeout"
    return p.returncode, p.stdout.replace(path.encode(), b"@DUMP@"), p.stderr


def main(argv):
    split = argv.index("--")
    workdir, dump = argv[1], argv[2]
    command = argv[split + 1:]
    data = open(dump, "rb").read()
    rc, reference, err = run(command, dump)
    if rc != 0:
        sys.stderr.write("flipbits: the intact dump does not report:\n")
        sys.stderr.write(err.decode(errors="replace"))
        return 1
    os.makedirs(workdir, exist_ok=True)

    def flip(bit):
        damaged = bytearray(data)
        damaged[bit // 8] ^= 1 << (bit % 8)
        path = os.path.join(workdir, "flip%d.dump" % bit)
        with open(path, "wb") as f:
            f.write(damaged)
        rc, out, err = run(command, path)
        os.unlink(path)
        if rc == 0:
            return "unchanged" if out == reference else "different", bit, err
        lines = err.decode(errors="replace").splitlines()
        if rc == 1 and len(lines) == 1 and "error:" in lines[0]:
            return "errors", bit, err
        return "bad errors", bit, err

    counts = {"errors": 0, "unchanged": 0, "different": 0, "bad errors": 0}
    firsts = {}
    workers = max(2, os.cpu_count() or 2)
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for kind, bit, err in pool.map(flip, range(len(data) * 8)):
            counts[kind] += 1
            firsts.setdefault(kind, (bit, err))
    print("bits %d: errors %d (one line each), unchanged %d, different %d, "
          "bad errors %d" % (len(data) * 8, counts["errors"],
                             counts["unchanged"], counts["different"],
                             counts["bad errors"]))
    for kind in ("different", "bad errors", "unchanged"):
        if kind in firsts:
            bit, err = firsts[kind]
            print("first %s: bit %d (byte %d): %s" %
                  (kind, bit, bit // 8, err.decode(errors="replace").strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
