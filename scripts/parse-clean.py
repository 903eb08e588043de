#!/usr/bin/env python3
"""How much of a real project the check sees: the share of its translation
units that parse clean with the project's own compile database, translated
as the launcher, the hook and the gate translate it (issue 27).

Takes a compile database written by the project's build (CMake's
CMAKE_EXPORT_COMPILE_COMMANDS, or `bear -- make`), usually with nvcc
entries. For each translator version asked for, it translates the database
with that version's own cuda-async-read-before-sync-compdb (the working
tree's, and with --before COMMIT the one committed at COMMIT, taken with
`git archive`), then runs clang-tidy with only this check on every selected
entry, with exactly the translated entry's flags (and its directory as
clang's -working-directory), as the launcher would. Per version it reports
the units that parse clean, crash or time out, the check's warnings, and the
causes of the units that do not parse (each unit's first error, grouped by
header and message, line numbers left out), so that every failure can be
explained in docs/real-code.md.

Usage:

  scripts/parse-clean.py -p BUILD/compile_commands.json --src PROJECT_TREE
      [--name NAME] [--before COMMIT] [--all-entries] [--match REGEX]
      [--files-limit N] [--jobs N] [--timeout S] [--plugin P]
      [--clang-tidy P] [--out FILE.json]

By default only the nvcc entries are run (the ones the translator rewrites);
--all-entries adds the host compiler's (passed through unchanged). Running a
unit is scripts/real-code.py's (its run_one: the same statuses, crash marks
and JSON fields), so the two scripts' results read alike.

Exit status: 0 when the runs completed (parse errors included), 2 on a
usage error. Only the Python 3 standard library is used.
"""

import argparse
import collections
import concurrent.futures
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
COMPDB = "tools/cuda-async-read-before-sync-compdb"


def _load_real_code():
    spec = importlib.util.spec_from_file_location(
        "real_code", os.path.join(HERE, "real-code.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


rc = _load_real_code()
sys.path.insert(0, os.path.join(ROOT, "tools"))
import cars_compdb as cdb  # noqa: E402  (how the tools read an entry)


def _abs_file(entry):
    f = entry["file"]
    return os.path.normpath(f if os.path.isabs(f)
                            else os.path.join(entry["directory"], f))


def translator_tools(version, scratch):
    """The tools/ folder of a translator version: the working tree's, or
    the one committed at `version` (extracted with git archive)."""
    if version is None:
        return os.path.join(ROOT, "tools")
    out = os.path.join(scratch, "tools-" + re.sub(r"\W", "_", version))
    try:
        blob = subprocess.run(["git", "-C", ROOT, "archive", version, "tools"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        err = getattr(e, "stderr", b"") or b""
        raise SystemExit("parse-clean: cannot take tools/ at %s: %s" % (
            version, err.decode(errors="replace").strip() or e))
    with tarfile.open(fileobj=io.BytesIO(blob)) as t:
        t.extractall(out)
    return os.path.join(out, "tools")


def translate(db, tools, out_dir):
    """The database translated by that version's compdb command."""
    p = subprocess.run([sys.executable, os.path.join(tools, os.path.basename(COMPDB)),
                        "-p", db, "-o", out_dir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode:
        raise SystemExit("parse-clean: translation failed:\n" + p.stdout)
    with open(os.path.join(out_dir, "compile_commands.json")) as f:
        return json.load(f)


class DatabaseRecipe(rc.Recipe):
    """Files and flags from a translated compile database: each file's
    first entry, its flags as translated (compiler, -c, -o and the file
    itself left out), in its entry's directory."""

    name = "database"

    def __init__(self, args, src, entries):
        super().__init__(args, src)
        self.entries = {}
        for e in entries:
            self.entries.setdefault(self.rel(_abs_file(e)), e)

    def rel(self, path):
        real = os.path.realpath(path)
        if real.startswith(self.src + os.sep):
            return os.path.relpath(real, self.src)
        return real

    def select(self):
        return sorted(self.entries)

    def entry_flags(self, rel):
        e = self.entries[rel]
        args, out, i = cdb.entry_arguments(e)[1:], [], 0
        target = _abs_file(e)
        while i < len(args):
            a = args[i]
            if a == "-o":
                i += 2
                continue
            if a != "-c" and not (not a.startswith("-") and os.path.normpath(
                    os.path.join(e["directory"], a)) == target):
                out.append(a)
            i += 1
        return out + ["-working-directory", e["directory"]]


def first_cause(rec):
    """The unit's first error, its line and column left out, so that one
    header's error in many units is one cause."""
    if rec["status"] in ("crash", "timeout"):
        return rec["status"]
    if not rec["first_errors"]:
        return "(no error text)"
    return re.sub(r"^(.*?):\d+:\d+: ", r"\1: ", rec["first_errors"][0])


def run_version(label, recipe, files, args, namer):
    results = []

    def task(rel):
        rec = rc.run_one(rel, recipe, args, namer)
        print("[%s %d] %-11s %6.1fs %s" % (label, len(results) + 1, rec["status"],
                                          rec["time_s"], rel),
              file=sys.stderr, flush=True)
        results.append(rec)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for fut in [ex.submit(task, f) for f in files]:
            fut.result()
    results.sort(key=lambda r: r["file"])
    summary, uniq = rc.summarize(results)
    causes = collections.Counter(first_cause(r) for r in results
                                 if not r["parse_clean"])
    return {"summary": summary, "causes": causes.most_common(),
            "unique_warnings": [{"path": k[0], "line": k[1], "col": k[2],
                                 "message": k[3], "files": v} for k, v in uniq],
            "results": results}


def report(name, runs, total, stream):
    p = lambda *a: print(*a, file=stream)
    p("== %s: %d of %d units" % (name, next(iter(runs.values()))["summary"]["files"],
                                 total))
    p("| translator | parse-clean | crashes | timeouts | warnings (unique) |")
    p("|---|---|---|---|---|")
    for label, run in runs.items():
        s = run["summary"]
        p("| %s | %d / %d (%.1f %%) | %d | %d | %d (%d) |" % (
            label, s["parse_clean"], s["files"],
            100.0 * s["parse_clean"] / s["files"] if s["files"] else 0,
            s["crashes"], s["timeouts"], s["warnings"], s["unique_warnings"]))
    for label, run in runs.items():
        if run["causes"]:
            p("-- %s: first errors of the units that do not parse" % label)
            for cause, n in run["causes"]:
                p("  %3d  %s" % (n, cause))
    last = list(runs.values())[-1]
    if last["unique_warnings"]:
        p("-- warnings (%s):" % list(runs)[-1])
        for w in last["unique_warnings"]:
            p("  %s:%d:%d: %s" % (w["path"], w["line"], w["col"], w["message"]))


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-p", required=True, metavar="DB",
                    help="the project's compile_commands.json (or its folder)")
    ap.add_argument("--src", required=True,
                    help="the project's work tree (paths are shown relative to it)")
    ap.add_argument("--name", help="the project's name in the report")
    ap.add_argument("--before", metavar="COMMIT",
                    help="also run the translator committed at COMMIT, first")
    ap.add_argument("--all-entries", action="store_true",
                    help="run the host compiler's entries too, not only nvcc's")
    ap.add_argument("--match", help="keep only files whose path matches")
    ap.add_argument("--files-limit", type=int, default=0,
                    help="an evenly spaced sample of N of the units")
    ap.add_argument("--plugin", default=rc.DEFAULT_PLUGIN)
    ap.add_argument("--clang-tidy", default=rc.DEFAULT_CLANG_TIDY)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=300,
                    help="per-unit limit in seconds (default 300)")
    ap.add_argument("--out", help="write every run's results here (JSON)")
    args = ap.parse_args(argv)

    db = os.path.abspath(args.p)
    if os.path.isdir(db):
        db = os.path.join(db, "compile_commands.json")
    src = os.path.realpath(args.src)
    if not os.path.isfile(db):
        ap.error("no compile database at %s" % args.p)
    if not os.path.isdir(src):
        ap.error("--src %s is not a folder" % args.src)
    args.plugin = os.path.abspath(args.plugin)
    if not os.path.isfile(args.plugin):
        ap.error("no plugin at %s" % args.plugin)
    args.extra_arg, args.shims, args.jobs = [], {}, max(1, args.jobs)
    with open(db) as f:
        original = json.load(f)
    nvcc = {_abs_file(e) for e in original if cdb.is_nvcc(cdb.entry_arguments(e))}

    namer = rc.PathNamer(src)
    runs, files, total = {}, None, 0
    with tempfile.TemporaryDirectory(prefix="parse-clean-") as scratch:
        versions = ([args.before] if args.before else []) + [None]
        for version in versions:
            label = version or "working tree"
            out_dir = os.path.join(scratch, "db-" + str(len(runs)))
            entries = translate(db, translator_tools(version, scratch), out_dir)
            if not args.all_entries:
                entries = [e for e in entries if _abs_file(e) in nvcc]
            recipe = DatabaseRecipe(args, src, entries)
            if files is None:  # the same units for every version
                files = recipe.select()
                if args.match:
                    files = [f for f in files if re.search(args.match, f)]
                total = len(files)
                files = rc.pick(files, args.files_limit)
            runs[label] = run_version(label, recipe, files, args, namer)
    name = args.name or os.path.basename(src)
    report(name, runs, total, sys.stdout)
    if args.out:
        doc = {"project": name, "database": db, "src": src,
               "plugin_sha256": rc.sha256(args.plugin),
               "units_selected": total, "files_limit": args.files_limit,
               "runs": runs}
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
