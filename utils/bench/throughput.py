#!/usr/bin/env python3
"""Report throughput: lwp-report on synthetic dumps of 1M, 10M and 100M
records, and llvm-xray account on XRay basic logs of as many events.

Usage: throughput.py BINDIR LWP_REPORT [SIZES] [XRAY_SIZES]
BINDIR holds mkbigdump (mkbigdump.c) and k_xray (an XRay-instrumented binary
whose function IDs 6 (main) and 4 (reduceInt) the XRay logs use).
SIZES default "1000000,10000000,100000000"; XRAY_SIZES default
"1000000,10000000" (llvm-xray account holds every event in memory, about
120 bytes each: 100M events would need ~12 GB on this shared machine).

Method: each input is written to a temporary directory on the same disk
(checked with statvfs first), its page cache warmed by one untimed run, then
the tool is run BENCH_RUNS times (default 5), timed by this script: wall
seconds from a monotonic clock around fork and wait4 (microseconds, not the
10 ms steps of /usr/bin/time), user seconds and maximum resident set size
from wait4's rusage: wall min / median / max, user median, max RSS over the
runs. records/s = records / median wall seconds; the xray ratio compares
records/s at the same size.
LWP inputs: version 3 dumps as the host runtime writes them (mkbigdump lwp3:
24-byte records with each instance's depth, the exact figures of every
region, the checksum the report verifies first; version 2, without it,
before issue 21), 64 regions, one thread; lwp-report --format=csv to /dev/null (the
whole analysis: matching, statistics, percentiles), once with its default
--jobs (the machine's cores: the records walked in parts at once) and once
with --jobs=1.
"""
import os
import statistics
import subprocess
import sys
import tempfile

from benchtime import timed
import rows as table_rows


def main():
    bindir, report = sys.argv[1], sys.argv[2]
    sizes = [int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else
                              "1000000,10000000,100000000").split(",")]
    xsizes = [int(x) for x in (sys.argv[4] if len(sys.argv) > 4 else
                               "1000000,10000000").split(",")]
    mk = os.path.join(bindir, "mkbigdump")
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) \
            as tmp:
        st = os.statvfs(tmp)
        free = st.f_bavail * st.f_frsize
        need = max(sizes) * 24 + max(xsizes) * 32
        if free < need * 1.2:
            sys.exit("throughput: %.1f GB free in %s, %.1f GB needed: give "
                     "smaller SIZES or another TMPDIR" %
                     (free / 1e9, tmp, need / 1e9))
        print("disk: %.1f GB free; largest inputs %.1f GB (LWP, 24-byte "
              "records) + %.1f GB (XRay): written in full" %
              (free / 1e9, max(sizes) * 24 / 1e9, max(xsizes) * 32 / 1e9))
        runs = int(os.environ.get("BENCH_RUNS", "5"))
        print("method: one warm-up run, then %d timed runs (wait4); wall "
              "seconds min/median/max, user seconds median, max RSS" % runs)
        print("%-34s %11s %6s %6s %6s %6s %11s %8s %8s" % (
            "input", "records", "min s", "med s", "max s", "user s",
            "records/s", "max RSS", "RSS/rec"))

        def measure(label, n, cmd):
            timed(cmd)  # warm
            walls, users, rss = [], [], 0
            for _ in range(runs):
                w, u, _, r = timed(cmd)
                walls.append(w)
                users.append(u)
                rss = max(rss, r)
            med = statistics.median(walls)
            print("%-34s %11d %6.3f %6.3f %6.3f %6.3f %11.3g %5.0f MB "
                  "%6.1f B" % (label, n, min(walls), med, max(walls),
                               statistics.median(users), n / med,
                               rss / 1024, rss * 1024 / n))
            return n / med, rss, walls

        rows, xrate = [], {}
        for n in sizes:
            dump = os.path.join(tmp, "big.dump")
            mp = os.path.join(tmp, "big.map.json")
            subprocess.run([mk, "lwp3", str(n), dump, mp], check=True)
            cmd = [report, "--map-json=" + mp, dump, "--format=csv",
                   "-o", os.devnull]
            rate, rss, walls = measure("lwp-report, v3 dump, 64 regions", n,
                                       cmd)
            rows.append(("lwp", n, n / rate, rss, walls))
            measure("lwp-report --jobs=1", n, cmd + ["--jobs=1"])
            os.unlink(dump)
        for n in xsizes:
            log = os.path.join(tmp, "xray.log")
            subprocess.run([mk, "xray", str(n), log, "6", "4"], check=True)
            cmd = ["llvm-xray-22", "account",
                   "-instr_map=" + os.path.join(bindir, "k_xray"), log]
            xrate[n], _, _ = measure("llvm-xray account (basic log)", n, cmd)
            os.unlink(log)
        for _, n, secs, rss, walls in rows:
            table_rows.emit(
                "report throughput: lwp-report, %dM records (CSV), max RSS "
                "%.0f MB" % (n // 1000000, rss / 1024), "M records/s",
                [n / w / 1e6 for w in walls],
                ("llvm-xray account %.1fM events/s (median)" %
                 (xrate[n] / 1e6)) if n in xrate else "-",
                "utils/bench/throughput.py BINDIR lwp-report %d" % n)
            if n in xrate:
                ratio = n / secs / xrate[n]
                print("lwp-report / llvm-xray account at %d records: %.1fx "
                      "records/s (target >= 8x) -> %s" % (
                          n, ratio, "met" if ratio >= 8 else "MISSED"))
        big = [(n, s) for _, n, s, _, _ in rows if n >= 10000000]
        if big:
            worst = min(n / s for n, s in big)
            print("target >= 100M records/s from 10M records: worst %.3g -> "
                  "%s" % (worst, "met" if worst >= 100e6 else "MISSED"))
        # Memory: growth between the two largest inputs (both walked in
        # parts, so both hold a mapped window per part).
        if len(rows) < 2:
            return
        small, big = rows[-2], rows[-1]
        growth = (big[3] - small[3]) / (big[1] - small[1]) * 1024
        print("target memory grows with regions, not records: %.1f bytes of "
              "max RSS per extra record from %d to %d records (64 regions "
              "throughout) -> %s" % (growth, small[1], big[1],
                                     "met" if growth < 1 else "MISSED"))


if __name__ == "__main__":
    main()
