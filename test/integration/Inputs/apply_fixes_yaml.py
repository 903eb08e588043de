"""Applies a clang-tidy --export-fixes YAML file the way
clang-apply-replacements does, for gate-fixes.test: with it when it is on
PATH (Debian's clang-tools-<major>), else the same rules here.

    apply_fixes_yaml.py DIR     (the .yaml files in DIR)

The rules: per diagnostic, one fix -- its own replacements, else those of
its first note that has some (tooling::selectFirstFix); the replacements
of one file of diagnostics are all applied, identical ones as many times as
they occur (clang-apply-replacements deduplicates identical replacements
only between different files), overlapping different ones are a conflict
(status 1).
"""
import glob
import os
import shutil
import subprocess
import sys

import yaml


def main():
    tool = shutil.which("clang-apply-replacements")
    if tool:
        return subprocess.call([tool, sys.argv[1]])
    edits = {}
    for path in glob.glob(os.path.join(sys.argv[1], "*.yaml")):
        with open(path) as f:
            data = yaml.safe_load(f) or {}
        for d in data.get("Diagnostics") or []:
            msgs = [d.get("DiagnosticMessage") or {}] + list(d.get("Notes") or [])
            chosen = next((m["Replacements"] for m in msgs if m.get("Replacements")), [])
            for r in chosen:
                edits.setdefault(os.path.realpath(r["FilePath"]), []).append(
                    (int(r["Offset"]), int(r["Length"]), r.get("ReplacementText") or ""))
    for path, reps in edits.items():
        reps.sort()
        for a, b in zip(reps, reps[1:]):
            if a[0] + a[1] > b[0] and a != b:
                print("conflict in %s: %r and %r" % (path, a, b))
                return 1
        with open(path, "rb") as f:
            data = f.read()
        for offset, length, text in reversed(reps):
            data = data[:offset] + text.encode() + data[offset + length:]
        with open(path, "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
