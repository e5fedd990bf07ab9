#!/usr/bin/env python3
"""same_output.py A B: exits 0 when the two program outputs are the same but
for printMemref's buffer addresses ("base@ = 0x..."), else prints the first
differing line and exits 1."""
import re
import sys

BASE = re.compile(rb"base@ = 0x[0-9a-fA-F]+")


def lines(path):
    with open(path, "rb") as f:
        return BASE.sub(b"base@ = 0x?", f.read()).splitlines()


a, b = lines(sys.argv[1]), lines(sys.argv[2])
if not a:
    sys.exit("same_output: %s is empty" % sys.argv[1])
for n, (x, y) in enumerate(zip(a, b), 1):
    if x != y:
        sys.exit("same_output: line %d differs:\n  %r\n  %r" % (n, x, y))
if len(a) != len(b):
    sys.exit("same_output: %d lines vs %d" % (len(a), len(b)))
