"""Writes DIR/compile_commands.json: one clang entry per source file.

    make_db.py DIR FLAGS -- FILE...
"""
import json
import os
import shlex
import sys

out, rest = sys.argv[1], sys.argv[2:]
k = rest.index("--")
flags, files = rest[:k], rest[k + 1:]
os.makedirs(out, exist_ok=True)
entries = [{"directory": out, "file": os.path.abspath(f),
            "command": shlex.join(["clang++"] + flags + ["-c", os.path.abspath(f)])}
           for f in files]
with open(os.path.join(out, "compile_commands.json"), "w") as fh:
    json.dump(entries, fh, indent=2)
