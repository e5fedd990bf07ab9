"""Checks the dumps of a program that forked (shared-objects.test): finds
DIR/PREFIX*.dump, tells the parent's (which has counts) from the child's
(none), renames them PREFIX{parent,child}.dump, and prints what it found.
Usage: check_fork_dumps.py DIR PREFIX"""
import glob
import os
import re
import subprocess
import sys


def raw(path):
    return subprocess.run(["lwp-report", "--raw", "--no-records", path],
                          check=True, capture_output=True, text=True).stdout


def main(folder, prefix):
    paths = sorted(glob.glob(os.path.join(folder, prefix + "*.dump")))
    print("dumps: %d" % len(paths))
    dumps = {p: raw(p) for p in paths}
    # The parent ran regs_kernel (ID 1, the first module's function) 5 times;
    # the child started from zero: it counts only the instances that were
    # open when it forked (main's), which it still closes.
    parent = [p for p, t in dumps.items() if "count 1: 5" in t]
    child = [p for p, t in dumps.items() if "count 1: 5" not in t]
    assert len(parent) == 1 and len(child) == 1, dumps
    text = dumps[parent[0]]
    images = re.findall(r"^image \d+: .*, (\S+)$", text, re.M)
    print("parent: " + ", ".join("image " + i for i in images))
    # The map of each image gives the IDs of its functions.
    counts = {int(i): int(c) for i, c in re.findall(r"^count (\d+): (\d+)$",
                                                      text, re.M)}
    names = {}
    for image, first, last in re.findall(
            r"^module \d+: image (\d+), blob \S+, IDs (\d+)-(\d+)(?:, map hash [0-9a-f]+)?$", text,
            re.M):
        table = subprocess.run(["lwp-report", "--map", images[int(image)]],
                               check=True, capture_output=True,
                               text=True).stdout
        rows = [l.split() for l in table.splitlines()[1:]]
        for offset, row in enumerate(rows):
            if row[1] == "function":
                key = (os.path.basename(images[int(image)]), row[2])
                names[key] = int(first) + offset
    print("parent: " + ", ".join(
        "%s %d" % (f, counts.get(names[(i, f)], 0))
        for i, f in [("libregs.so", "regs_kernel"),
                     ("libplug.so", "plugin_entry"), ("prog", "main")]))
    tid = lambda t: re.search(r"^thread 0: tid (\d+)", t, re.M).group(1)
    assert tid(dumps[child[0]]) != tid(text)
    child_counts = re.findall(r"^count (\d+): (\d+)$", dumps[child[0]], re.M)
    assert child_counts == [(str(names[("prog", "main")]), "1")], child_counts
    print("child: only main, open at the fork, other thread ID")
    os.rename(parent[0], os.path.join(folder, prefix + "parent.dump"))
    os.rename(child[0], os.path.join(folder, prefix + "child.dump"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
