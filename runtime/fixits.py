#!/usr/bin/env python3
"""Fix-its proven on the GPU: the check's note fixes applied to each warned
case (`clang-tidy --fix-notes --fix`, the command a user runs), the checker
run again on the fixed copy, the manifest carried to a GPU machine, and the
fix-it table (the fixed program silent and fresh in every run).

Used by runtime/agree.py. Python 3 standard library only; may call
runtime/corpus.py.
"""

import fnmatch
import hashlib
import json
import os
import re
import shutil
import tempfile

from corpus import Case, format_rows, parallel, run, run_checker, summary_env, tidy_command


FIXED_MANIFEST = "manifest.json"


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def make_fixed(cases, checker, clang_tidy, plugin, cuda_path, jobs, extra, fixed_dir):
    """For every case the checker warned on: a copy under fixed_dir with the
    check's note fixes applied (`clang-tidy --fix-notes --fix`, the command a
    user runs), and the checker run again on the copy. Writes
    fixed_dir/manifest.json and returns it: {case name: {"file": the copy's
    name, "sha256": its hash, "fixes": fixes applied, "warnings": the
    checker's warnings on the copy, "ok": the checker ran cleanly}}."""
    if os.path.isdir(fixed_dir):
        shutil.rmtree(fixed_dir)
    os.makedirs(fixed_dir)
    todo = [c for c in cases if not c.python and c.name in checker and checker[c.name][0]
            and checker[c.name][1]]
    copies = []
    for case in todo:
        dst = os.path.join(fixed_dir, os.path.basename(case.path))
        shutil.copyfile(case.path, dst)
        copies.append(Case(dst))

    def fix(case):
        before = sha256_of(case.path)
        with tempfile.TemporaryDirectory(prefix="cars-rt-summaries-") as directory:
            env, _ = summary_env(case, clang_tidy, plugin, cuda_path, extra, directory)
            rc, out, err = run(tidy_command(case, clang_tidy, plugin, cuda_path,
                                            extra + ["--fix-notes", "--fix"]), timeout=300,
                               env=env)
        m = re.search(r"clang-tidy applied (\d+) of (\d+) suggested fixes", out + err)
        n = int(m.group(1)) if m else 0
        return case.name, (n if sha256_of(case.path) != before else 0)

    applied = dict(parallel(fix, copies, jobs, label="fix-its"))
    # Checked again: the copies that a fix changed (the others are their case).
    after = run_checker([Case(c.path) for c in copies if applied[c.name]], clang_tidy, plugin,
                        cuda_path, jobs, extra)
    manifest = {}
    for c in copies:
        ok, warned, _ = after.get(c.name) or checker[c.name]
        manifest[c.name] = {"file": os.path.basename(c.path), "sha256": sha256_of(c.path),
                            "fixes": applied[c.name], "ok": ok,
                            "warnings": sorted(warned)}
    with open(os.path.join(fixed_dir, FIXED_MANIFEST), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    return manifest


def load_fixed(fixed_dir):
    """The manifest make_fixed wrote (carried to a GPU machine without
    clang-tidy 22), or None."""
    path = os.path.join(fixed_dir, FIXED_MANIFEST)
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return json.load(f)


def fixed_cases(manifest, fixed_dir, patterns=None):
    """The fixed copies that got at least one fix, as cases."""
    out = []
    for name, m in sorted(manifest.items()):
        if m["fixes"] and (not patterns or any(fnmatch.fnmatch(name, p) for p in patterns)):
            out.append(Case(os.path.join(fixed_dir, m["file"])))
    return out


def fixit_verdicts(cases, manifest, gpu_fixed):
    """Rows and problems of the fix-it table for one GPU result. A case with
    a fix-it agrees when the checker is silent on the fixed copy and, on the
    GPU, every marked access of the fixed program read fresh data in every
    run (measured on a copy with the same hash). A warned case without a
    fix-it is listed (the check offers none where it is ambiguous), not a
    failure."""
    rows, problems = [], []
    for case in cases:
        m = manifest.get(case.name)
        if m is None:
            continue
        if not m["fixes"]:
            rows.append((case.name, 0, "-", "-", "-", "no fix-it offered"))
            continue
        after = "silent" if m["ok"] and not m["warnings"] else (
            "checker failed" if not m["ok"] else "warns at " + ",".join(map(str, m["warnings"])))
        if after != "silent":
            problems.append("%s: after its %d fix-it(s), the checker %s" % (case.name, m["fixes"], after))
        g = (gpu_fixed or {}).get(case.name)
        if g is None:
            stale_txt, verdict = "-", "NO-GPU-DATA"
            problems.append("%s: no GPU measurement of the fixed program" % case.name)
        elif g.get("sha256") != m["sha256"]:
            stale_txt, verdict = "-", "STALE-MEASUREMENT"
            problems.append("%s: the fixed program differs from the one measured on the GPU "
                            "(rerun agree.py on a GPU)" % case.name)
        else:
            acc = g.get("accesses", {})
            bad = {k: v["stale"] + v.get("other", 0) for k, v in acc.items()}
            stale_txt = " ".join("%s=%d/%d" % (k, bad[k], acc[k]["total"]) for k in sorted(acc)) or "-"
            fresh = g.get("exit") == 0 and acc and not any(bad.values()) and all(
                acc[k]["total"] > 0 for k in acc)
            verdict = "fixed" if fresh and after == "silent" else "NOT-FIXED"
            if not fresh:
                problems.append("%s: the fixed program still read stale data on the GPU (%s, exit %s)"
                                % (case.name, stale_txt, g.get("exit")))
        rows.append((case.name, m["fixes"], after, stale_txt, g.get("exit", "-") if g else "-", verdict))
    return rows, problems


def format_fixit_table(rows):
    head = ("case", "fix-its", "checker after", "stale k/N after", "exit", "verdict")
    return format_rows(head, rows)
