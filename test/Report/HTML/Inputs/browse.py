#!/usr/bin/env python3
"""Loads a page in headless Chromium (Debian's chromium, as root) and prints
its DOM after the scripts ran, or saves a screenshot.

Usage: browse.py dom PAGE.html [FRAGMENT]      the DOM on stdout
       browse.py screenshot PAGE.html OUT.png [WIDTHxHEIGHT]
Each run gets a fresh profile folder (removed afterwards); network, sync,
component updates and the GPU are off, so the page gets nothing it did not
carry itself.
"""
import os
import shutil
import subprocess
import sys
import tempfile

CHROMIUM = os.environ.get("LWP_CHROMIUM", "/usr/bin/chromium")


def run(args, page, fragment=""):
    profile = tempfile.mkdtemp(prefix="lwp-chromium-")
    try:
        cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-extensions",
               "--disable-dev-shm-usage", "--user-data-dir=" + profile,
               "--virtual-time-budget=20000"] + args + [
               "file://" + os.path.abspath(page) + fragment]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=180)
        if p.returncode != 0:
            sys.stderr.write(p.stderr.decode(errors="replace"))
            sys.exit("browse.py: chromium exited with %d" % p.returncode)
        return p.stdout
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "dom":
        fragment = sys.argv[3] if len(sys.argv) > 3 else ""
        sys.stdout.buffer.write(run(["--dump-dom"], sys.argv[2], fragment))
    elif len(sys.argv) >= 4 and sys.argv[1] == "screenshot":
        size = sys.argv[4] if len(sys.argv) > 4 else "1280x1600"
        out = os.path.abspath(sys.argv[3])
        run(["--screenshot=" + out, "--window-size=" + size.replace("x", ","),
             "--hide-scrollbars"], sys.argv[2])
        if not os.path.exists(out):
            sys.exit("browse.py: no screenshot written")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
