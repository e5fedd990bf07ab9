"""Runs a program and prints its output, then "status: exit N" or
"status: signal N" (signals.test), with SIGINT and SIGTERM at their
default actions. Usage: run_status.py PROGRAM ARGS..."""
import signal
import subprocess
import sys


def default_signals():
    # A shell may start background jobs with SIGINT ignored, which the
    # child would inherit.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


proc = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE,
                      stderr=subprocess.STDOUT, text=True,
                      preexec_fn=default_signals)
sys.stdout.write(proc.stdout)
if proc.returncode < 0:
    print("status: signal %d" % -proc.returncode)
else:
    print("status: exit %d" % proc.returncode)
