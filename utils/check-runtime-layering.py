#!/usr/bin/env python3
# ===- check-runtime-layering.py - No two runtime files call each other ---=== #
#
# Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
#
# ===----------------------------------------------------------------------=== #
"""check-runtime-layering.py: checks that no two object files of a runtime
call each other (issue 31, "the runtime's house": a file never calls back
into a file that calls it; dependencies go one way, lower layers offer a
registration instead of calling up).

  check-runtime-layering.py [--context FILE]... [--cycles] [--graph]
                            [--nm PATH] FILE...

FILE is an object file or a static archive; every object and every archive
member is one unit, named by its file (an archive's members as
"lib.a(member.o)"). Unit A calls unit B when an undefined symbol of A (U,
or weak w) is a function B defines: a global text symbol of B (llvm-nm
type T, W or i). A call is a reference, so taking a function's address
(registering it, patching its code) counts as a call too; references to
data (D, B, R, V, C) do not. A function defined by several units (memcpy in
two libraries) counts for each of them.

The check fails (exit status 1) when two units call each other; each such
pair is printed with the symbols of both directions:

  check-runtime-layering: a.o and b.o call each other
    a.o -> b.o: b_fn
    b.o -> a.o: a_fn

Options:
  --context FILE  objects or archives that only resolve calls (a C library
                  the runtime links against): a pair is reported when at
                  least one of its units is a FILE, never between two
                  context units. A context member that is a FILE object
                  too (same file name and symbols: an object given both on
                  its own and inside its archive) is that one unit.
                  Repeatable.
  --cycles        also fail on longer cycles (A -> B -> C -> A) through a
                  FILE unit: each strongly connected group of units that is
                  not a single pair is printed with one of its cycles.
  --graph         prints every call of a FILE unit ("A -> B: f g", sorted),
                  then the calls of context units into FILE units by
                  archive ("libc.a(*) -> B: f g"), then "OK" or the
                  violations.
  --nm PATH       the llvm-nm to run (default: $LLVM_NM, else llvm-nm on
                  PATH, else /usr/lib/llvm-22/bin/llvm-nm). GNU nm works
                  too (same -A -P output).

Exit status: 0 no violation ("OK" on stdout), 1 violations (on stdout), 2
bad usage or a FILE that llvm-nm cannot read.

Examples (from the build tree's parent):

  # the Hexagon runtime: its archive members and the start-up
  check-runtime-layering.py --cycles build/lib/liblwp_hexagon.a \\
      build/lib/lwp_hexagon_crt0.o
  # with the C library's own objects and the runner utilities, newlib's
  # objects as context
  check-runtime-layering.py --cycles build/lib/liblwp_hexagon.a \\
      build/lib/lwp_hexagon_crt0.o \\
      build/runtime/hexagon/libc/obj/lwp_libc_syscalls.o \\
      build/runtime/hexagon/libc/obj/lwp_libc_posix_memalign.o \\
      build/runtime/hexagon/libc/obj/lwp_setjmp.o \\
      build/lib/libmlir_runner_utils_hexagon.a \\
      --context build/lib/hexagon-libc/lib/libc.a \\
      --context build/lib/hexagon-libc/lib/libm.a
  # any runtime: its objects (or its archive, when its members are the
  # files), e.g. the host runtime's compiled sources
  check-runtime-layering.py --cycles \\
      build/runtime/host/CMakeFiles/lwp_host_objects.dir/*.o

test/Runtime/Hexagon/layering.test runs the first (and checks the script
itself on small objects that call each other), layering-libc.test the
second.
"""

import argparse
import os
import shutil
import subprocess
import sys
from collections import defaultdict, deque

# llvm-nm -P type letters: global functions (text, weak, GNU ifunc) and
# undefined symbols (plain, weak, weak object).
FUNCTION_TYPES = {"T", "W", "i"}
UNDEFINED_TYPES = {"U", "w", "v"}
TOOL = "check-runtime-layering"


def find_nm(given):
    """The llvm-nm to run: --nm, $LLVM_NM, llvm-nm on PATH, LLVM 22's."""
    for candidate in (given, os.environ.get("LLVM_NM"), "llvm-nm",
                      "llvm-nm-22", "/usr/lib/llvm-22/bin/llvm-nm"):
        if not candidate:
            continue
        path = shutil.which(candidate)
        if path:
            return path
        if given:
            break
    sys.exit("%s: no llvm-nm found%s (--nm PATH)" %
             (TOOL, " at " + given if given else ""))


class Unit:
    """One object file or archive member: its functions and references."""

    def __init__(self, name, context):
        self.name = name
        self.context = context
        self.defined = set()
        self.undefined = set()


def read_units(nm, path, context):
    """The units of object or archive PATH, in llvm-nm's order."""
    proc = subprocess.run([nm, "-A", "-P", "--no-sort", path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        sys.exit("%s: %s cannot read %s" % (TOOL, nm, path))
    units = {}
    order = []
    for line in proc.stdout.splitlines():
        # "PATH: name type value size" or "PATH[member]: name type ...".
        if not line.startswith(path):
            continue
        prefix, sep, rest = line[len(path):].partition(": ")
        fields = rest.split()
        if not sep or len(fields) < 2:
            continue
        if prefix.startswith("[") and prefix.endswith("]"):
            name = "%s(%s)" % (path, prefix[1:-1])
        elif not prefix:
            name = path
        else:
            continue
        unit = units.get(name)
        if unit is None:
            unit = units[name] = Unit(name, context)
            order.append(unit)
        symbol, kind = fields[0], fields[1]
        if kind in FUNCTION_TYPES:
            unit.defined.add(symbol)
        elif kind in UNDEFINED_TYPES:
            unit.undefined.add(symbol)
    return order


def member_name(name):
    """The file name of unit NAME ("lib.a(x.o)" -> "x.o")."""
    if name.endswith(")") and "(" in name:
        return name[name.index("(") + 1:-1]
    return os.path.basename(name)


def archive_of(name):
    """The archive of member unit NAME ("lib.a(x.o)" -> "lib.a"), or NAME."""
    if name.endswith(")") and "(" in name:
        return name[:name.index("(")]
    return name


def call_graph(units):
    """{(caller, callee): sorted symbols} between distinct units."""
    definers = defaultdict(list)
    for unit in units:
        for symbol in unit.defined:
            definers[symbol].append(unit)
    calls = defaultdict(set)
    for unit in units:
        for symbol in unit.undefined:
            for callee in definers.get(symbol, ()):
                if callee is not unit:
                    calls[(unit, callee)].add(symbol)
    return {edge: sorted(symbols) for edge, symbols in calls.items()}


def strongly_connected(units, calls):
    """Tarjan's components of the call graph, each a list of units."""
    succ = defaultdict(list)
    for caller, callee in calls:
        succ[caller].append(callee)
    index = {}
    low = {}
    stack = []
    on_stack = set()
    components = []

    def visit(root):
        # Iterative: runtimes are small, but recursion limits are not ours.
        work = [(root, iter(succ[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member is node:
                        break
                components.append(component)

    for unit in units:
        if unit not in index:
            visit(unit)
    return components


def one_cycle(component, calls, order):
    """A shortest cycle through COMPONENT's first FILE unit (input order)."""
    members = set(component)
    start = min(component, key=lambda u: (u.context, order[u]))
    succ = defaultdict(list)
    for caller, callee in calls:
        if caller in members and callee in members:
            succ[caller].append(callee)
    previous = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in succ[node]:
            if nxt is start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return [start] + list(reversed(path[:-1])) + [start]
            if nxt not in previous:
                previous[nxt] = node
                queue.append(nxt)
    return [start]


def main(argv):
    parser = argparse.ArgumentParser(
        prog="check-runtime-layering.py",
        description="Fails when two object files of a runtime call each "
        "other (see the file's header).")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="object files or static archives to check")
    parser.add_argument("--context", action="append", default=[],
                        metavar="FILE",
                        help="objects or archives that only resolve calls")
    parser.add_argument("--cycles", action="store_true",
                        help="also fail on cycles longer than a pair")
    parser.add_argument("--graph", action="store_true",
                        help="print every call between two units")
    parser.add_argument("--nm", help="the llvm-nm to run")
    args = parser.parse_args(argv)

    nm = find_nm(args.nm)
    units = []
    for path in args.files:
        units += read_units(nm, path, context=False)
    # A context member that is one of the FILE objects (the same file name
    # and symbols: an object both given and archived) is that unit.
    given = {(os.path.basename(u.name), frozenset(u.defined),
              frozenset(u.undefined)) for u in units}
    for path in args.context:
        units += [u for u in read_units(nm, path, context=True)
                  if (member_name(u.name), frozenset(u.defined),
                      frozenset(u.undefined)) not in given]
    calls = call_graph(units)
    order = {unit: i for i, unit in enumerate(units)}

    if args.graph:
        # Calls of FILE units one by one; those of context units into FILE
        # units by archive ("libc.a(*) -> x.o: ...").
        lines = {}
        for (caller, callee), symbols in calls.items():
            if callee.context and caller.context:
                continue
            name = caller.name
            if caller.context:
                name = archive_of(name) + ("(*)" if name.endswith(")") else "")
            lines.setdefault((caller.context, name, callee.name),
                             set()).update(symbols)
        for (_, caller, callee), symbols in sorted(lines.items()):
            print("%s -> %s: %s" % (caller, callee, " ".join(sorted(symbols))))

    failures = 0
    reported = set()
    for (caller, callee), symbols in sorted(
            calls.items(), key=lambda e: (e[0][0].name, e[0][1].name)):
        back = calls.get((callee, caller))
        if not back or (caller.context and callee.context):
            continue
        key = frozenset((caller, callee))
        if key in reported:
            continue
        reported.add(key)
        failures += 1
        print("%s: %s and %s call each other" % (TOOL, caller.name,
                                                 callee.name))
        print("  %s -> %s: %s" % (caller.name, callee.name, " ".join(symbols)))
        print("  %s -> %s: %s" % (callee.name, caller.name, " ".join(back)))

    if args.cycles:
        for component in strongly_connected(units, calls):
            if len(component) < 3 or all(u.context for u in component):
                continue
            failures += 1
            cycle = one_cycle(component, calls, order)
            print("%s: %d units call back into each other: %s" %
                  (TOOL, len(component), " -> ".join(u.name for u in cycle)))
            for unit in sorted(component, key=lambda u: u.name):
                print("  %s" % unit.name)

    if failures:
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
