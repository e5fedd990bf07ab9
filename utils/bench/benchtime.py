"""Timing of one benchmark run, shared by the benchmarks under utils/bench.

timed(cmd, env=None) runs cmd with its stdout discarded and returns
(wall seconds, user seconds, system seconds, maximum resident set size in
KiB): wall from a monotonic clock around the fork and wait4, CPU and memory
from wait4's rusage (microseconds, not the 10 ms steps of /usr/bin/time).
A run that fails ends the benchmark with its command and stderr.
"""
import os
import subprocess
import sys
import time


def timed(cmd, env=None):
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(cmd, stdout=null, stderr=subprocess.PIPE,
                                env=env)
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        sys.exit("%s: failed: %s\n%s" % (os.path.basename(sys.argv[0]),
                                         " ".join(cmd),
                                         err.decode(errors="replace")))
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss
