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
the tool is run BENCH_RUNS times (default 5) under /usr/bin/time -v: wall
seconds min / median / max, user seconds (median), maximum resident set size
(max over runs). records/s = records / median wall seconds; the xray ratio
compares records/s at the same size. LWP: --format=csv to /dev/null (the
whole analysis: matching, self cycles, percentiles).
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile


def timed(cmd):
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True,
                       text=True)
    if p.returncode:
        sys.exit("throughput: failed: %s\n%s" % (" ".join(cmd), p.stderr))
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)",
                     p.stderr)
    h, m, s = wall.groups()
    secs = int(h or 0) * 3600 + int(m) * 60 + float(s)
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", p.stderr)[1])
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                        p.stderr)[1])
    return secs, user, rss


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
        rec = 24
        if free < need * 1.2:
            rec = 16
            print("disk: %.1f GB free < %.1f GB needed: 16-byte records" %
                  (free / 1e9, need / 1e9))
        else:
            print("disk: %.1f GB free; largest inputs %.1f GB (LWP, %d-byte "
                  "records) + %.1f GB (XRay): written in full" %
                  (free / 1e9, max(sizes) * 24 / 1e9, rec,
                   max(xsizes) * 32 / 1e9))
        runs = int(os.environ.get("BENCH_RUNS", "5"))
        print("method: one warm-up run, then %d runs under /usr/bin/time -v; "
              "wall seconds min/median/max, user seconds median, max RSS" %
              runs)
        print("%-34s %11s %6s %6s %6s %6s %11s %8s %8s" % (
            "input", "records", "min s", "med s", "max s", "user s",
            "records/s", "max RSS", "RSS/rec"))

        def measure(label, n, cmd):
            subprocess.run(cmd, check=True, capture_output=True)  # warm
            walls, users, rss = [], [], 0
            for _ in range(runs):
                w, u, r = timed(cmd)
                walls.append(w)
                users.append(u)
                rss = max(rss, r)
            med = statistics.median(walls)
            print("%-34s %11d %6.2f %6.2f %6.2f %6.2f %11.3g %5.0f MB "
                  "%6.1f B" % (label, n, min(walls), med, max(walls),
                               statistics.median(users), n / med,
                               rss / 1024, rss * 1024 / n))
            return n / med, rss

        rows, xrate = [], {}
        for n in sizes:
            dump = os.path.join(tmp, "big.dump")
            mp = os.path.join(tmp, "big.map.json")
            subprocess.run([mk, "lwp", str(n), dump, mp, str(rec)], check=True)
            cmd = [report, "--map-json=" + mp, dump, "--format=csv",
                   "-o", os.devnull]
            rate, rss = measure("lwp-report, %d B records, 64 regions" % rec,
                                n, cmd)
            rows.append(("lwp", n, n / rate, rss))
            os.unlink(dump)
        for n in xsizes:
            log = os.path.join(tmp, "xray.log")
            subprocess.run([mk, "xray", str(n), log, "6", "4"], check=True)
            cmd = ["llvm-xray-22", "account",
                   "-instr_map=" + os.path.join(bindir, "k_xray"), log]
            xrate[n], _ = measure("llvm-xray account (basic log)", n, cmd)
            os.unlink(log)
        for _, n, secs, _ in rows:
            if n in xrate:
                print("lwp-report / llvm-xray account at %d records: %.1fx "
                      "records/s" % (n, n / secs / xrate[n]))
        worst = min(n / s for _, n, s, _ in rows)
        print("target >= 50M records/s: worst %.3g -> %s" % (
            worst, "met" if worst >= 50e6 else "MISSED"))
        small, big = rows[0], rows[-1]
        if big[1] == small[1]:
            return
        growth = (big[3] - small[3]) / (big[1] - small[1]) * 1024
        print("target memory grows with regions, not records: %.1f bytes of "
              "max RSS per extra record (64 regions throughout) -> %s" % (
                  growth, "met" if growth < 1 else "MISSED"))


if __name__ == "__main__":
    main()
