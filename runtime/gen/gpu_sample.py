#!/usr/bin/env python3
"""The ordering model against a GPU, on a sample of generated programs.

Holds: the command line that picks a sample of seeds, renders them into
translation units of many scenarios each (render.py), builds them with
runtime/agree.py's own build function (nvcc -arch=sm_90 -O2 -std=c++17
-I runtime, cached under runtime/build/gen/), runs each scenario N times on
the GPU (`unit -s SEED -n N`: rt.h's runner, which prints `RT access=<id>
stale=<k> fresh=<f> ...`), and compares every marked access with the
model's verdict for the execution the GPU runs (the runtime ints' own
values); writes runtime/results/gen_<GPU>_driver-<version>.json.
`--compile-only` builds (nvcc -c) and stops: what a machine without a GPU
can test. `--python` does the same for the programs' PyTorch rendering
(render_torch.py, gen_torch.py: `python3 unit.py -s SEED -n N` with a torch
that has CUDA), judged by the model of the same programs; it writes
runtime/results/gen_torch_<GPU>_driver-<version>.json. With
`--compile-only` it byte-compiles the modules (no torch needed).
May call: generate.py, model.py, render.py, render_torch.py,
runtime/agree.py (build), runtime/corpus.py (Case, tools, RT lines), nvcc,
the built programs, the --python-bin interpreter.
Python 3 standard library only.

Outcome per access, from the model's value verdict (model.py: what the
access can see, the producer race and lost writes included):
  agree        model fresh, never stale on the GPU
  confirmed    model stale possible, stale in at least one run
  unobserved   model stale possible, fresh in every run (the copy landed
               before the access: timing, not a contradiction)
  CONTRADICTS  model fresh, stale in some run: the model (or the harness)
               is wrong; exit status 1
  no-record    the model says the access runs, the GPU printed nothing for
               it (a write that was not the last to touch its buffer is
               observed only when it was)
  managed:...  the same for a managed destination (docs/semantics.md has no
               row for it: the model treats its copies as asynchronous), a
               first measurement, not judged
"""

import argparse
import datetime
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, RUNTIME)
import generate as G  # noqa: E402
import model as M  # noqa: E402
import render  # noqa: E402
import render_torch  # noqa: E402
from corpus import RT_LINE_RE, Case, detect_gpu, find_nvcc, run, slug  # noqa: E402


def sample(seeds, n):
    """n seeds spread evenly over seeds (all of them when n is None)."""
    if n is None or n >= len(seeds):
        return list(seeds)
    step = len(seeds) / float(n)
    return [seeds[int(k * step)] for k in range(n)]


def write_units(progs, batch, src_dir):
    """Batches of progs as runtime/build/gen/src/gen_<first>_<last>.cu; returns
    [(Case, [prog])]."""
    os.makedirs(src_dir, exist_ok=True)
    out = []
    for k in range(0, len(progs), batch):
        part = progs[k:k + batch]
        name = "gen_%d_%d" % (part[0]["seed"], part[-1]["seed"])
        path = os.path.join(src_dir, name + ".cu")
        text = render.render_unit(part).text
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        out.append((Case(path), part))
    return out


def write_modules(progs, batch, src_dir):
    """Batches of progs (PyTorch) as runtime/build/gen/torch/gen_<first>_<last>.py;
    returns [(path, [prog])]."""
    os.makedirs(src_dir, exist_ok=True)
    out = []
    for k in range(0, len(progs), batch):
        part = progs[k:k + batch]
        path = os.path.join(src_dir, "gen_%d_%d.py" % (part[0]["seed"], part[-1]["seed"]))
        with open(path, "w", encoding="utf-8") as f:
            f.write(render_torch.render_module(part).text)
        out.append((path, part))
    return out


def program_of(seed, record):
    """The program a stored record measured: the seed's, in the PyTorch
    subset where the record is of the PyTorch rendering."""
    prog = G.generate(int(seed), record.get("size", G.DEFAULT_SIZE))
    return render_torch.to_torch(prog) if record.get("python") else prog


def outcome(model_value, rec):
    if model_value == M.UNREACHED:
        return "agree" if rec is None else "CONTRADICTS"
    if rec is None:
        return "no-record"
    stale = rec["stale"] + rec["other"]
    if model_value == "fresh":
        return "CONTRADICTS" if stale else "agree"
    return "confirmed" if stale else "unobserved"


def judge(seed, prog, rec):
    """The model's verdicts for one measured scenario: fills rec["model"];
    returns the table rows and the outcomes."""
    rows, outs = [], []
    v = M.verdicts(prog, env="gpu", include_managed=True)
    rec["model"] = {}
    for ident, a in v["accesses"].items():
        got = rec["accesses"].get("s%s_%s" % (seed, ident))
        o = outcome(a["value"], got) if rec["exit"] == 0 else "run-failed"
        if a["kind"] == "managed" and o != "run-failed":
            o = "managed:" + o  # not measured before: reported, not judged
        outs.append(o)
        rec["model"][ident] = {"op": a["op"], "destination": a["kind"],
                               "in_flight": a["verdict"], "value": a["value"],
                               "reason": a["value_reason"] or a["reason"], "outcome": o}
        rows.append((seed, ident, a["op"], a["kind"], a["value"],
                     "-" if got is None else "%d/%d" % (got["stale"] + got["other"], got["total"]), o))
    return rows, outs


def report(rows, counts, log):
    log("\n| seed | access | op | destination | model | stale k/N | outcome |")
    log("|---|---|---|---|---|---|---|")
    for r in rows:
        log("| %s |" % " | ".join(str(x) for x in r))
    log("\n== %s" % ", ".join("%s: %d" % kv for kv in sorted(counts.items())))


def write_record(record, path):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)


def recount(record):
    """Outcome counts over every scenario of a record (as judged when stored)."""
    counts = {}
    for rec in record["scenarios"].values():
        for m in rec.get("model", {}).values():
            counts[m["outcome"]] = counts.get(m["outcome"], 0) + 1
    return counts


def merged_record(path, size):
    """The stored record at path, in the merging form: each scenario carries
    its reps, the runs that measured them are a list. Raises ValueError when
    it was measured at another program size (other programs for the seeds)."""
    with open(path, encoding="utf-8") as f:
        record = json.load(f)
    if record.get("size", G.DEFAULT_SIZE) != size:
        raise ValueError("it holds programs of size %s, not %d" % (record.get("size"), size))
    if "runs" not in record:  # a single run's file, from before --merge
        record["runs"] = [{k: record.pop(k) for k in ("date", "seeds", "sample", "reps")
                           if k in record}]
    for rec in record["scenarios"].values():
        rec.setdefault("reps", record["runs"][0].get("reps"))
    return record


def rescore(path, out, log):
    """Judges a stored measurement again with the current model (no GPU)."""
    with open(path, encoding="utf-8") as f:
        record = json.load(f)
    rows, counts = [], {}
    for seed, rec in sorted(record["scenarios"].items(), key=lambda kv: int(kv[0])):
        r, outs = judge(seed, program_of(seed, record), rec)
        rows += r
        for o in outs:
            counts[o] = counts.get(o, 0) + 1
    record["counts"] = counts
    record["rescored"] = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M UTC")
    report(rows, counts, log)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1, sort_keys=True)
            f.write("\n")
        log("== wrote %s" % out)
    return 1 if counts.get("CONTRADICTS", 0) else 0


def measure(record, path, runs, log):
    """runs: [(seed, prog, unit name, result)], result None (not built) or
    a function giving the scenario's (exit status, stdout, stderr): each
    scenario run, judged, stored in record (written after each); returns
    (rows, counts)."""
    rows, counts, scenarios = [], {}, record["scenarios"]
    for seed, p, unit, result in runs:
        rec = {"unit": unit, "exit": None, "accesses": {}, "reps": record["runs"][-1]["reps"]}
        if result is not None:
            rc, out, err = result()
            rec["exit"] = rc
            for line in out.splitlines():
                m = RT_LINE_RE.match(line.strip())
                if m:
                    rec["accesses"][m.group("id")] = {
                        k: int(m.group(k)) for k in ("stale", "fresh", "other", "total")}
            if rc != 0:
                rec["error"] = (err.strip() or out.strip())[-2000:]
        r, outs = judge(seed, p, rec)
        rows += r
        for o in outs:
            counts[o] = counts.get(o, 0) + 1
        scenarios[str(seed)] = rec
        log("  seed %-6s rc=%s %s" % (seed, rec["exit"], " ".join(
            "%s=%s" % (x[1], x[5]) for x in rows if x[0] == seed)))
        write_record(record, path)  # after each program: a run cut short keeps what it measured
    return rows, counts


def new_record(args, gpu, path, log):
    """The record to fill: a new one, or (--merge) the stored one at path;
    None after an error message."""
    record = {"kind": "generated programs (runtime/gen/gpu_sample.py)", "gpu": gpu[0],
              "driver": gpu[1], "size": args.size, "runs": [], "scenarios": {}}
    if args.python:
        record["python"] = True
        record["kind"] = "generated programs, PyTorch rendering (runtime/gen/gpu_sample.py --python)"
    if args.merge and os.path.exists(path):
        try:
            record = merged_record(path, args.size)
        except (OSError, ValueError, KeyError, TypeError) as e:
            print("gpu_sample.py: error: cannot merge into %s: %s" % (path, e), file=sys.stderr)
            return None
    record["runs"].append({
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "seeds": args.seeds, "sample": args.sample, "reps": args.reps})
    os.makedirs(args.results_dir, exist_ok=True)
    return record


def finish(record, path, rows, counts, failed, log):
    record["counts"] = recount(record)
    write_record(record, path)
    report(rows, counts, log)
    log("== all scenarios in %s: %s" % (path, ", ".join(
        "%s: %d" % kv for kv in sorted(record["counts"].items()))))
    log("== wrote %s" % path)
    bad = counts.get("CONTRADICTS", 0) + counts.get("run-failed", 0) + failed
    return 1 if bad else 0


def run_python(args, progs, log):
    """--python: the PyTorch rendering of progs, run with --python-bin."""
    units = write_modules(progs, args.batch, os.path.join(args.build_dir, "torch"))
    if args.compile_only:
        import py_compile
        failed = []
        for path, _ in units:
            try:
                py_compile.compile(path, doraise=True)
            except py_compile.PyCompileError as e:
                failed.append(path)
                log("== does not compile: %s\n%s" % (path, e))
        log("== compile only: %d of %d modules compile" % (len(units) - len(failed), len(units)))
        return 1 if failed else 0
    gpu = detect_gpu()
    if gpu is None:
        print("gpu_sample.py: error: no GPU (nvidia-smi sees none); --compile-only checks the "
              "modules without one", file=sys.stderr)
        return 2
    path = os.path.join(args.results_dir, "gen_torch_%s.json" % slug(*gpu))
    record = new_record(args, gpu, path, log)
    if record is None:
        return 2
    env_path = os.pathsep.join([HERE, RUNTIME])
    log("== %d scenarios in %d modules; %s; GPU: %s, driver %s"
        % (len(progs), len(units), args.python_bin, gpu[0], gpu[1]))
    outputs = {}

    def result(module, part, seed):
        # One process runs every scenario of a module (torch's start-up
        # costs seconds); each scenario's records carry its seed's prefix.
        if module not in outputs:
            outputs[module] = run(["env", "PYTHONPATH=" + env_path, args.python_bin, module,
                                   "-s", "all", "-n", str(args.reps)],
                                  timeout=args.timeout * len(part))
        rc, out, err = outputs[module]
        mine = [line for line in out.splitlines()
                if line.strip().startswith("RT access=s%s_" % seed)]
        failed = "GEN failed=%s" % seed in out
        return (1 if failed or rc != 0 else 0), "\n".join(mine), err if failed or rc else ""

    runs = [(p["seed"], p, os.path.basename(module),
             (lambda m=module, part=part, seed=p["seed"]: result(m, part, seed)))
            for module, part in units for p in part]
    rows, counts = measure(record, path, runs, log)
    return finish(record, path, rows, counts, 0, log)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Run a sample of generated programs on the GPU and compare each marked "
                    "access with the ordering model (runtime/gen/README.md).")
    ap.add_argument("--seeds", default="0:100", help="A:B or A-B (default 0:100)")
    ap.add_argument("--sample", type=int, default=None,
                    help="run only this many seeds, spread over --seeds")
    ap.add_argument("--size", type=int, default=G.DEFAULT_SIZE)
    ap.add_argument("--reps", type=int, default=5, help="runs per scenario (default 5)")
    ap.add_argument("--batch", type=int, default=50, help="scenarios per program")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2, help="parallel nvcc")
    ap.add_argument("--nvcc", help="nvcc (default: $NVCC, PATH, /usr/local/cuda/bin/nvcc)")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--compile-only", action="store_true",
                    help="build with nvcc -c and stop (no GPU needed)")
    ap.add_argument("--build-dir", default=os.path.join(RUNTIME, "build", "gen"))
    ap.add_argument("--results-dir", default=os.path.join(RUNTIME, "results"))
    ap.add_argument("--timeout", type=int, default=300, help="seconds per scenario run")
    ap.add_argument("--rescore", metavar="JSON",
                    help="judge a stored measurement again with the current model (no GPU, no "
                         "build); with -o, write the re-judged file there")
    ap.add_argument("-o", "--output", help="with --rescore: where to write")
    ap.add_argument("--python", action="store_true",
                    help="the PyTorch rendering (render_torch.py), run with --python-bin")
    ap.add_argument("--python-bin", default=os.environ.get("CARS_PYTHON", "python3"),
                    help="with --python: the interpreter whose torch runs them (default "
                         "$CARS_PYTHON or python3)")
    ap.add_argument("--merge", action="store_true",
                    help="keep the scenarios already in this GPU's results file and add (or "
                         "replace) the ones measured now; each scenario keeps its own reps")
    args = ap.parse_args(argv)

    def log(m):
        print(m, flush=True)

    if args.rescore:
        try:
            return rescore(args.rescore, args.output, log)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            print("gpu_sample.py: error: cannot rescore %s: %s" % (args.rescore, e),
                  file=sys.stderr)
            return 2

    try:
        seeds = sample(G.parse_seeds(args.seeds), args.sample)
        if args.reps < 1 or args.batch < 1:
            raise ValueError("--reps and --batch must be at least 1")
        progs = [G.generate(s, args.size) for s in seeds]
        if args.python:
            progs = [render_torch.to_torch(p) for p in progs]
    except ValueError as e:
        print("gpu_sample.py: error: %s" % e, file=sys.stderr)
        return 2
    if args.python:
        return run_python(args, progs, log)
    nvcc = find_nvcc(args.nvcc)
    if not nvcc:
        print("gpu_sample.py: error: nvcc not found (pass --nvcc or set NVCC)", file=sys.stderr)
        return 2
    gpu = None if args.compile_only else detect_gpu()
    if not args.compile_only and gpu is None:
        print("gpu_sample.py: error: no GPU (nvidia-smi sees none); --compile-only builds "
              "without one", file=sys.stderr)
        return 2
    import agree  # runtime/agree.py: the corpus's own build (flags, cache)
    cuda_path = agree.cuda_root_of(nvcc)
    units = write_units(progs, args.batch, os.path.join(args.build_dir, "src"))
    log("== %d scenarios in %d programs; nvcc %s; %s"
        % (len(progs), len(units), nvcc, "compile only" if args.compile_only else
           "GPU: %s, driver %s" % gpu))
    built = agree.build([c for c, _ in units], nvcc, args.build_dir, not args.compile_only,
                        args.jobs, args.arch, cuda_path=cuda_path)
    failed = [c.name for c, _ in units if not built[c.name][0]]
    for name in failed:
        log("== build failed: %s\n%s" % (name, built[name][1][-3000:]))
    if args.compile_only:
        log("== compile only: %d of %d programs built%s"
            % (len(units) - len(failed), len(units), "" if not failed else "; FAILED: " +
               ", ".join(failed)))
        return 1 if failed else 0

    path = os.path.join(args.results_dir, "gen_%s.json" % slug(*gpu))
    record = new_record(args, gpu, path, log)
    if record is None:
        return 2
    runs = [(p["seed"], p, case.name,
             (lambda exe=built[case.name][1], seed=p["seed"]: run(
                 [exe, "-s", str(seed), "-n", str(args.reps)], timeout=args.timeout))
             if built[case.name][0] else None) for case, part in units for p in part]
    rows, counts = measure(record, path, runs, log)
    return finish(record, path, rows, counts, len(failed), log)


if __name__ == "__main__":
    sys.exit(main())
