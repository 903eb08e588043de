#!/usr/bin/env python3
"""The cost of summaries across translation units, as the gate pays it.

Issue 26's goals, as ratios measured in one run on one real project:

  cold      the gate's whole analysis with an empty summary cache
            (tools/cars_summaries.py: refresh, then results: the summaries'
            runs are runs of the check and their findings are the gate's)
            / one clang-tidy pass with the check alone over the same units
            (the baseline, "plain"). Goal <= 1.3.
  warm      the same again, nothing changed / plain (expected ~0: no unit
            is analysed).
  changed   one unit's main file edited (a comment appended, undone
            afterwards), the refresh again / that unit's own plain cost.
            Goal <= 1.1. Medians of --repeat edits (default 3).

Costs are CPU seconds (user + system) of the clang-tidy processes
(RUSAGE_CHILDREN), so the number of jobs and other load on the machine do
not change them. The units are those scripts/real-code.py selects for the
project (its --list), with its flags, written into a compile database in a
scratch directory; the snapshot is only read, except for the one edit of
"changed", which is restored. Also printed: the fixpoint's rounds and how
many units each re-ran, and whether the findings of the cold run equal
those of the plain one apart from what the summaries change.

Usage: bench/summaries.py --project {cuda-samples,faiss,raft,generic}
           --src DIR [--files-limit N] [--jobs N] [--repeat N] [--plugin PATH]
           [--clang-tidy PATH] [real-code.py arguments after --]
Exit status 2 when the project's files cannot be listed.
"""
import argparse
import concurrent.futures
import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import cars_summaries as cs  # noqa: E402

CHECK = "cuda-async-read-before-sync"


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def list_units(ns, extra):
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "real-code.py"), "--list",
           "--project", ns.project, "--src", ns.src] + extra
    if ns.files_limit:
        cmd += ["--files-limit", str(ns.files_limit)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        sys.exit("bench/summaries.py: real-code.py --list failed:\n" + p.stderr)
    units = []
    for line in p.stdout.splitlines():
        if line.strip():
            rel, _, flags = line.partition(" ")
            units.append((os.path.join(os.path.abspath(ns.src), rel), shlex.split(flags)))
    return units


def write_database(units, directory):
    db = [{"directory": os.path.dirname(path), "file": path,
           "arguments": ["clang++"] + flags + ["-c", path]} for path, flags in units]
    with open(os.path.join(directory, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)
    return os.path.join(directory, "compile_commands.json")


def plain(ns, db_dir, paths):
    """The baseline: the check alone over each unit, no summaries."""
    env = dict(os.environ)
    for k in ("CARS_SUMMARY_EXPORT_DIRECTORY", "CARS_SUMMARY_IMPORT_PATHS"):
        env.pop(k, None)

    def one(path):
        p = subprocess.run([ns.clang_tidy, "--load=" + ns.plugin, "--checks=-*," + CHECK,
                            "--quiet", "-p", db_dir, path], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True, errors="replace")
        return [l for l in p.stdout.splitlines() if "warning:" in l]

    before = children_cpu()
    with concurrent.futures.ThreadPoolExecutor(ns.jobs) as pool:
        warnings = [w for ws in pool.map(one, paths) for w in ws]
    return children_cpu() - before, warnings


def gate(ns, database, db_dir, log):
    before = children_cpu()
    cs.refresh(database, db_dir, ns.clang_tidy, ns.plugin, jobs=ns.jobs, log=log)
    done, _, output, _, missing = cs.results(database, db_dir)
    warnings = [l for l in output.splitlines() if "warning:" in l]
    return children_cpu() - before, warnings, len(done), len(missing)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--project", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--files-limit", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=3, help="edits of the changed unit")
    ap.add_argument("--plugin", default=os.environ.get(
        "CARS_PLUGIN", os.path.join(ROOT, "build", "checker", "CudaAsyncReadBeforeSync.so")))
    ap.add_argument("--clang-tidy", default=os.environ.get(
        "CLANG_TIDY", "/usr/lib/llvm-22/bin/clang-tidy"))
    ns, extra = ap.parse_known_args()
    extra = [a for a in extra if a != "--"]
    units = list_units(ns, extra)
    if not units:
        print("bench/summaries.py: no files selected", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="cars-bench-summaries-")
    os.environ["CARS_SUMMARY_CACHE"] = os.path.join(work, "cache")
    rounds = []

    def log(message):
        rounds.append(message.replace("summaries: ", ""))

    try:
        database = write_database(units, work)
        paths = [p for p, _ in units]
        print("%s: %d translation units, %d jobs" % (ns.project, len(paths), ns.jobs), flush=True)
        t_plain, w_plain = plain(ns, work, paths)
        t_cold, w_cold, done, missing = gate(ns, database, work, log)
        cold_rounds = list(rounds)
        del rounds[:]
        t_warm, _, _, _ = gate(ns, database, work, log)
        # One unit edited: the refresh again, against that unit's own cost
        # (medians of --repeat edits, each a different comment).
        victim = paths[len(paths) // 2]
        with open(victim, "rb") as f:
            original = f.read()
        changed, own = [], []
        try:
            for k in range(max(1, ns.repeat)):
                with open(victim, "wb") as f:
                    f.write(original + b"\n// bench/summaries.py: edit %d\n" % k)
                del rounds[:]
                changed.append(gate(ns, database, work, log)[0])
                changed_rounds = list(rounds)
                own.append(plain(ns, work, [victim])[0])
        finally:
            with open(victim, "wb") as f:
                f.write(original)
        t_changed, t_own = statistics.median(changed), statistics.median(own)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("plain    %8.1f s CPU, %d warnings" % (t_plain, len(w_plain)))
    print("cold     %8.1f s CPU, %d warnings, findings of %d units, %d missing; %s"
          % (t_cold, len(w_cold), done, missing, "; ".join(cold_rounds)))
    print("warm     %8.1f s CPU" % t_warm)
    print("changed  %8.1f s CPU (%s; %s); the unit alone %.1f s (medians of %d)"
          % (t_changed, os.path.relpath(victim, ns.src), "; ".join(changed_rounds)
             or "nothing re-run", t_own, len(changed)))
    print("ratios   cold/plain %.2f (goal <= 1.3), warm/plain %.3f, changed/own %.2f "
          "(goal <= 1.1)" % (t_cold / t_plain if t_plain else 0, t_warm / t_plain if t_plain else 0,
                             t_changed / t_own if t_own else 0))
    gained = sorted(set(w_cold) - set(w_plain))
    lost = sorted(set(w_plain) - set(w_cold))
    print("findings with summaries: %d new, %d gone" % (len(gained), len(lost)))
    for w in gained:
        print("  + " + w)
    for w in lost:
        print("  - " + w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
