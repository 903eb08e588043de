"""Runs a command and fails unless it exits with the given status.

    expect_status.py STATUS COMMAND...
"""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
print("exit status %d" % got, flush=True)
sys.exit(0 if got == want else 1)
