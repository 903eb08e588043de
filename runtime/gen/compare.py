#!/usr/bin/env python3
"""The check against the ordering model, on generated programs.

Holds: the command line that generates the programs of a seed range
(generate.py), runs cuda-async-read-before-sync on them, many scenarios per
translation unit (tidy.py), asks the ordering model (model.py) for its
verdicts, and compares them per marked line: an access warning on an access's
line <=> the model's "stale possible" (a copy into it may be in flight); a
producer warning on a copy's line <=> the model's "the copy may read its
source before the work writing it". It reports agreement, false positives
(the check warns, the model says ordered), misses, warnings on unmarked lines,
crashes, time-outs; then reduces each disagreement (reduce.py) to a minimal
program that keeps it and writes it, with the model's reason and the check's
message, to the output folder. With --python, the same for the programs'
PyTorch rendering (render_torch.py: the grammar's PyTorch subset) and the
check's Python front end.
May call: generate.py, model.py, render.py, render_torch.py, tidy.py,
reduce.py, clang-tidy, checker/python.
Python 3 standard library only; run with any python3.

Exit status: 0; 1 when agreement is below --min-agreement /
--min-producer-agreement, or on a crash, a time-out or a program the check
could not parse (unless --allow-crashes); 2 on a usage error (bad seeds, no
plugin).
"""

import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate as G  # noqa: E402
import model as M  # noqa: E402
import reduce as R  # noqa: E402
import render  # noqa: E402
import render_torch  # noqa: E402
import tidy as T  # noqa: E402

COMPARED = (M.STALE, M.ORDERED)


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def compare_one(prog, res, verd, first_only=False):
    """Rows for one program: (kind "access"|"copy", id, outcome, model reason,
    check messages); outcome: agree / false-positive / miss / not-compared:<why>."""
    rows = []
    for ident, a in verd["accesses"].items():
        warned = ident in res.access
        if a["verdict"] not in COMPARED:
            rows.append(("access", ident, "not-compared:" + a["verdict"], a["reason"],
                         res.access.get(ident, []), warned))
            continue
        if ident in res.shadowed and not warned:
            rows.append(("access", ident, "not-compared:same-call", a["reason"], [], warned))
            continue
        if first_only and a.get("earlier") and not warned:
            # The Python front end reports a copy at its first access on a path.
            rows.append(("access", ident, "not-compared:reported-earlier", a["reason"], [],
                         warned))
            continue
        stale = a["verdict"] == M.STALE
        out = "agree" if warned == stale else ("false-positive" if warned else "miss")
        rows.append(("access", ident, out, a["reason"], res.access.get(ident, []), warned))
    for ident, c in verd["copies"].items():
        warned = ident in res.producer
        if c["verdict"] == M.UNREACHED:
            rows.append(("copy", ident, "not-compared:unreached", c["reason"],
                         res.producer.get(ident, []), warned))
            continue
        if ident in res.shadowed and not warned:
            rows.append(("copy", ident, "not-compared:same-call", c["reason"], [], warned))
            continue
        early = c["verdict"] == "early"
        out = "agree" if warned == early else ("false-positive" if warned else "miss")
        rows.append(("copy", ident, out, c["reason"], res.producer.get(ident, []), warned))
    return rows


def reason_key(kind, outcome, reason):
    """A coarse class of a disagreement before reduction: the model's reason
    with names and ids taken out."""
    r = re.sub(r"\b[hdsec]\d+\b|\bspt\b|\b[ac]\d+\b", "X", reason)
    r = re.sub(r"(; )?X by ", " by ", r)
    r = re.sub(r"\s+", " ", r)
    return "%s %s: %s" % (kind, outcome, r[:120])


def signature(prog, target):
    """What a reduced program is made of: its statements in order, streams
    and destinations by kind, the target marked with *."""
    kinds = {s["name"]: s["kind"] for s in prog["streams"]}
    hk = {h["name"]: h["kind"] for h in prog["hosts"]}
    parts = []

    def rec(stmts):
        for s in stmts:
            attrs = []
            if "stream" in s:
                attrs.append(kinds[s["stream"]])
            if "host" in s:
                attrs.append(hk[s["host"]])
            if s["op"] == "if":
                attrs.append(s["cond"]["kind"] + ":" + s["cond"].get("form", ""))
            if s["op"] == "loop":
                attrs.append(s["bound"]["kind"] + (":%d" % s["bound"]["n"]
                                                   if s["bound"]["kind"] == "const" else ""))
            if s["op"] == "lambda":
                attrs.append("[%s]" % ("&, handles" if s.get("capture") == "handles" else "&"))
            if s["op"] == "call" and s.get("pass_handles"):
                attrs.append("handles passed")
            star = "*" if s.get("id") == target else ""
            parts.append("%s%s%s" % (star, s["op"], "[%s]" % ",".join(attrs) if attrs else ""))
            for k in G.children(s):
                parts.append("%s{" % k)
                rec(s[k])
                parts.append("}")

    rec(prog["body"])
    return " ".join(parts)


class Runner:
    def __init__(self, args, tidy_bin, workdir):
        self.a = args
        self.tidy = tidy_bin
        self.work = workdir
        self.counter = 0

    def check(self, progs, tags, name):
        return T.check_programs(progs, tags, self.work, self.a.plugin, self.tidy,
                                self.a.strict, self.a.timeout, name, python=self.a.python)

    def verdicts(self, prog):
        return M.verdicts(prog, strict=self.a.strict, include_managed=self.a.include_managed,
                          eager_legacy=self.a.eager_legacy)

    def holds(self, target_kind, ident, outcome, status=None):
        """The predicate of a reduction: the candidates still disagree so."""
        def batch(progs):
            self.counter += 1
            tags = ["%sr%d" % (p["seed"], k) for k, p in enumerate(progs)]
            res = self.check(progs, tags, "reduce%d_%d" % (os.getpid(), self.counter))
            out = []
            for p, t in zip(progs, tags):
                r = res[t]
                if status is not None:
                    out.append(r.status == status)
                    continue
                if r.status != "ok":
                    out.append(False)
                    continue
                rows = compare_one(p, r, self.verdicts(p), self.a.python)
                out.append(any(k == target_kind and i == ident and o == outcome
                               for k, i, o, *_ in rows))
            return out
        return batch


def write_reduced(outdir, name, prog, header, check_log, python=False):
    if python:
        text = render_torch.render_module([prog], header=header.replace("// ", "# ")).text
    else:
        text = render.render_unit([prog], header=header).text
    with open(os.path.join(outdir, name + (".py" if python else ".cu")), "w",
              encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(outdir, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(prog, f, indent=1)
        f.write("\n")
    with open(os.path.join(outdir, name + ".check.txt"), "w", encoding="utf-8") as f:
        f.write(check_log)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Compare cuda-async-read-before-sync with the ordering model on "
                    "generated programs (runtime/gen/README.md).")
    ap.add_argument("--seeds", default="0:200", help="A:B (B excluded) or A-B (default 0:200)")
    ap.add_argument("--size", type=int, default=G.DEFAULT_SIZE, help="size bound per program")
    ap.add_argument("--batch", type=int, default=80, help="scenarios per translation unit")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="clang-tidy processes at once")
    ap.add_argument("--plugin", default=T.default_plugin(),
                    help="the plugin (default $CARS_PLUGIN or build/checker/...so)")
    ap.add_argument("--clang-tidy", default=None, help="clang-tidy 22 (default: found)")
    ap.add_argument("--strict", action="store_true",
                    help="StrictMode, for the check and the model (pageable copies asynchronous)")
    ap.add_argument("--include-managed", action="store_true",
                    help="count managed destinations (not measured) in the agreement")
    ap.add_argument("--eager-legacy", action="store_true",
                    help="the model's other reading of the legacy-stream rule (model.py), "
                         "contradicted on an H100")
    ap.add_argument("--python", action="store_true",
                    help="the programs' PyTorch rendering (render_torch.py) through the check's "
                         "Python front end, against the model of the same programs")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per clang-tidy run")
    ap.add_argument("--out", default=os.path.join(HERE, "out"),
                    help="output folder (default runtime/gen/out; replaced)")
    ap.add_argument("--no-reduce", action="store_true", help="do not reduce disagreements")
    ap.add_argument("--max-reduce", type=int, default=40, help="disagreements reduced at most")
    ap.add_argument("--per-class", type=int, default=2,
                    help="disagreements reduced per coarse class (the model's reason)")
    ap.add_argument("--min-agreement", type=float, default=None,
                    help="exit 1 when access agreement (%%) is below this")
    ap.add_argument("--min-producer-agreement", type=float, default=None,
                    help="exit 1 when producer-diagnostic agreement (%%) is below this")
    ap.add_argument("--allow-crashes", action="store_true",
                    help="do not fail on crashes, time-outs or parse errors")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    log = (lambda m: None) if args.quiet else (lambda m: print(m, flush=True))

    try:
        seeds = G.parse_seeds(args.seeds)
        if args.batch < 1 or args.jobs < 1:
            raise ValueError("--batch and --jobs must be at least 1")
        progs = [G.generate(s, args.size) for s in seeds]
        if args.python:
            if args.strict or args.eager_legacy:
                raise ValueError("--python takes neither --strict nor --eager-legacy")
            progs = [render_torch.to_torch(p) for p in progs]
    except ValueError as e:
        print("compare.py: error: %s" % e, file=sys.stderr)
        return 2
    tidy_bin, problem = (None, None) if args.python else T.check_tools(args.plugin,
                                                                        args.clang_tidy)
    if problem:
        print("compare.py: error: %s" % problem, file=sys.stderr)
        return 2
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(os.path.join(args.out, "reduced"))
    work = os.path.join(args.out, "units")
    os.makedirs(work)
    run = Runner(args, tidy_bin, work)

    t0 = time.time()
    batches = [(progs[k:k + args.batch], "batch%04d" % (k // args.batch))
               for k in range(0, len(progs), args.batch)]
    mode = "python" if args.python else "strict" if args.strict else "default"
    log("== %d programs (seeds %s, size %d), %d units, %d checks at once, %s mode"
        % (len(progs), args.seeds, args.size, len(batches), args.jobs, mode))
    results = {}
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = [ex.submit(run.check, b, [str(p["seed"]) for p in b], name) for b, name in batches]
        for n, f in enumerate(cf.as_completed(futs), 1):
            results.update(f.result())
            log("  checked %d/%d units" % (n, len(batches)))
    t_check = time.time() - t0

    counts = {"access": {}, "copy": {}}
    disagreements, unmarked, remarks, broken = [], [], [], []
    for p in progs:
        tag = str(p["seed"])
        r = results[tag]
        if r.status != "ok":
            broken.append((p, r))
            continue
        remarks += [(p["seed"], m) for m in r.remarks]
        unmarked += [(p["seed"], line, m) for line, m in r.unmarked]
        for kind, ident, outcome, reason, msgs, warned in compare_one(p, r, run.verdicts(p),
                                                                      args.python):
            key = outcome.split(":")[0] if not outcome.startswith("not-compared") else outcome
            counts[kind][key] = counts[kind].get(key, 0) + 1
            if outcome in ("false-positive", "miss"):
                disagreements.append({"seed": p["seed"], "kind": kind, "id": ident,
                                      "outcome": outcome, "reason": reason, "check": msgs})

    def line(kind, label):
        c = counts[kind]
        n = c.get("agree", 0) + c.get("false-positive", 0) + c.get("miss", 0)
        extra = ", ".join("%d %s" % (v, k.split(":")[1]) for k, v in sorted(c.items())
                          if k.startswith("not-compared"))
        return n, c.get("agree", 0), "%s: %d compared, %d agree (%.2f%%), %d false positives " \
            "(check warns, model: ordered), %d misses (model: stale possible, check silent)%s" % (
                label, n, c.get("agree", 0), pct(c.get("agree", 0), n), c.get("false-positive", 0),
                c.get("miss", 0), "; not compared: " + extra if extra else "")

    na, aa, la = line("access", "accesses (access warning <=> a copy may be in flight)")
    nc, ac, lc = line("copy", "copies (producer warning <=> the copy may read its source early)")
    statuses = {}
    for _, r in broken:
        statuses[r.status] = statuses.get(r.status, 0) + 1
    summary = [
        "check vs model: %d programs, seeds %s, size %d, %s mode, %s"
        % (len(progs), args.seeds, args.size, mode,
           "the Python front end (checker/python)" if args.python else "plugin " + args.plugin),
        la, lc,
        "overall: %d of %d agree (%.2f%%)" % (aa + ac, na + nc, pct(aa + ac, na + nc)),
        "warnings on unmarked lines: %d; remarks: %d" % (len(unmarked), len(remarks)),
        "crashes: %d, time-outs: %d, not parsed: %d"
        % (statuses.get("crash", 0), statuses.get("timeout", 0), statuses.get("compile-error", 0)),
        "check time: %.1f s" % t_check]
    for s in summary:
        print(s)
    for seed, text, m in unmarked[:10]:
        print("  unmarked: seed %s: %s  <- %s" % (seed, text, m))
    for k, (p, r) in enumerate(broken[:10]):
        print("  %s: seed %s (run `generate.py --seed %s`)" % (r.status, p["seed"], p["seed"]))
        small, note = p, "not reduced"
        if r.status == "crash" and k < 3 and not args.no_reduce:
            # The crash kept: candidates that crash too (tidy.py bisects a batch).
            small, steps, _ = R.reduce(p, set(), run.holds(None, None, None, status="crash"))
            note = "reduced in %d steps" % len(steps)
        write_reduced(os.path.join(args.out, "reduced"), "%s_seed%s" % (r.status, p["seed"]), small,
                      "// %s of the check on seed %s (%s)" % (r.status, p["seed"], note), r.log,
                      args.python)

    # -- reduction ------------------------------------------------------------
    classes = {}
    for d in disagreements:
        classes.setdefault(reason_key(d["kind"], d["outcome"], d["reason"]), []).append(d)
    todo = []
    for key in sorted(classes, key=lambda k: -len(classes[k])):
        todo += [(key, d) for d in classes[key][:args.per_class]]
    todo = todo[:args.max_reduce] if not args.no_reduce else []
    reduced = []

    def reduce_one(item):
        key, d = item
        prog = next(p for p in progs if p["seed"] == d["seed"])
        pred = run.holds(d["kind"], d["id"], d["outcome"])
        small, steps, rounds = R.reduce(prog, {d["id"]}, pred)
        res = run.check([small], ["final"], "final_%s_%s" % (d["seed"], d["id"]))["final"]
        v = run.verdicts(small)
        table = v["accesses"] if d["kind"] == "access" else v["copies"]
        return dict(d, coarse=key, steps=len(steps), rounds=rounds, prog=small,
                    signature=signature(small, d["id"]), statements=G.count_stmts(small["body"]),
                    model=table[d["id"]]["reason"], log=res.log)

    if todo:
        log("== reducing %d disagreements (of %d, in %d coarse classes)"
            % (len(todo), len(disagreements), len(classes)))
        with cf.ThreadPoolExecutor(max_workers=max(1, min(2, args.jobs))) as ex:
            for n, r in enumerate(ex.map(reduce_one, todo), 1):
                reduced.append(r)
                log("  reduced %d/%d: seed %s %s %s -> %d statements"
                    % (n, len(todo), r["seed"], r["id"], r["outcome"], r["statements"]))
    groups = {}
    for r in reduced:
        groups.setdefault((r["kind"], r["outcome"], r["signature"]), []).append(r)
    if groups:
        print("disagreement classes (reduced programs in %s):" % os.path.join(args.out, "reduced"))
    for n, ((kind, outcome, sig), items) in enumerate(
            sorted(groups.items(), key=lambda kv: -len(kv[1])), 1):
        ex_ = items[0]
        name = "class%02d_%s_%s_seed%s_%s" % (n, kind, outcome, ex_["seed"], ex_["id"])
        header = ("// Reduced disagreement: %s %s of %s %s (seed %s, %d statements).\n"
                  "// The model: %s\n// The check: %s"
                  % (kind, outcome, kind, ex_["id"], ex_["seed"], ex_["statements"], ex_["model"],
                     "; ".join(ex_["check"]) or "silent"))
        write_reduced(os.path.join(args.out, "reduced"), name, ex_["prog"], header, ex_["log"],
                      args.python)
        print("  %2d. %s %s x%d: %s\n      %s.%s" % (n, kind, outcome, len(items), sig, name,
                                                   "py" if args.python else "cu"))
    report = {"seeds": args.seeds, "size": args.size, "strict": args.strict,
              "python": args.python,
              "plugin": args.plugin, "programs": len(progs), "counts": counts,
              "summary": summary, "disagreements": disagreements,
              "unmarked": [{"seed": s, "line": l, "message": m} for s, l, m in unmarked],
              "remarks": [{"seed": s, "message": m} for s, m in remarks],
              "broken": [{"seed": p["seed"], "status": r.status} for p, r in broken],
              "classes": [{"kind": k, "outcome": o, "signature": s, "count": len(v),
                           "example": "%s %s" % (v[0]["seed"], v[0]["id"]),
                           "model": v[0]["model"], "check": v[0]["check"]}
                          for (k, o, s), v in groups.items()],
              "coarse_classes": {k: len(v) for k, v in classes.items()}}
    with open(os.path.join(args.out, "report.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    shutil.rmtree(work, ignore_errors=True)

    fail = False
    if broken and not args.allow_crashes:
        print("FAIL: %d programs crashed, timed out or did not parse" % len(broken))
        fail = True
    if args.min_agreement is not None and pct(aa, na) < args.min_agreement:
        print("FAIL: access agreement %.2f%% is below %.2f%%" % (pct(aa, na), args.min_agreement))
        fail = True
    if args.min_producer_agreement is not None and pct(ac, nc) < args.min_producer_agreement:
        print("FAIL: producer agreement %.2f%% is below %.2f%%"
              % (pct(ac, nc), args.min_producer_agreement))
        fail = True
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
