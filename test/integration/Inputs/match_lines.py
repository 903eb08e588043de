"""Prints the lines of FILE that an editor's problem pattern REGEX matches:
file name (last component), line, column, severity, message.

    match_lines.py REGEX FILE
"""
import os
import re
import sys

rx = re.compile(sys.argv[1])
with open(sys.argv[2]) as f:
    for line in f.read().splitlines():
        m = rx.match(line)
        if m:
            print("match:", os.path.basename(m.group(1)), *m.groups()[1:])
