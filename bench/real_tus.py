#!/usr/bin/env python3
"""The check's cost on real translation units, against upstream baselines.

Runs clang-tidy on a fixed list of real files (from NVIDIA/cuda-samples,
facebookresearch/faiss gpu/ and ggml-org/ggml's ggml-cuda; each with the
flags scripts/real-code.py gives it) in three configurations, interleaved
(every file's three runs back to back, the order rotating per round), and
prints, per file and as median and max over the files:

  share     the check's time (clang-tidy's --store-check-profile, user +
            system) / the whole clang-tidy process's CPU time, in a run
            with only the check enabled;
  ÷ uam     the check's time / bugprone-use-after-move's, in a run with
            only use-after-move enabled (upstream's flow-sensitive
            CFG-based check, the baseline the issue set);
  mem       peak resident memory of the check's run / that of a parse-only
            run (clang-tidy with only llvm-include-order, a preprocessor
            callback that adds no matcher, since clang-tidy refuses to run
            with no check at all).

Per-file values are medians over --runs rounds. With CARS_PROFILE set in
the check's run, the plugin prints where its time went (select, facts,
effects, solver, summaries, report) and how many callables it analysed or
gave up; --phases sums those over the files.

The project snapshots are looked for under --src (default
/tmp/realcode/src: cuda-samples/, faiss/, ggml/, as scripts/real-code.py's
runs leave them; docs/real-code.md says how to fetch them). A file missing
there is skipped with a note; no file at all is exit status 2.

Usage: bench/real_tus.py [--src DIR] [--plugin PATH] [--clang-tidy PATH]
                         [--runs N] [--match REGEX] [--phases]
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tidy_run import run_tidy  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = "cuda-async-read-before-sync"
BASELINE = "bugprone-use-after-move"
PARSE_ONLY = "llvm-include-order"

# (project, recipe, extra real-code.py arguments, files relative to the
# snapshot). Picked to span the sizes and the APIs the check models: many
# streams and events (simpleMultiCopy, simpleHyperQ), thrust (radixSort),
# the largest cuda-samples TU seen (MonteCarloPi), faiss's stream-heavy
# index code and ggml's backend.
GGML_ARGS = ["--extra-arg=-I{src}/include", "--extra-arg=-I{src}/src",
             "--extra-arg=-I{src}/src/ggml-cuda", "--extra-arg=-DGGML_USE_CUDA",
             "--extra-arg=-DGGML_CUDA_USE_GRAPHS",
             "--extra-arg=-DGGML_CUDA_PEER_MAX_BATCH_SIZE=128",
             "--extra-arg=-DGGML_SCHED_MAX_COPIES=4", "--extra-arg=-std=c++17"]
FILES = [
    ("cuda-samples", "cuda-samples", [], [
        "Samples/0_Introduction/asyncAPI/asyncAPI.cu",
        "Samples/0_Introduction/simpleStreams/simpleStreams.cu",
        "Samples/0_Introduction/simpleMultiCopy/simpleMultiCopy.cu",
        "Samples/0_Introduction/simpleMultiGPU/simpleMultiGPU.cu",
        "Samples/0_Introduction/simpleHyperQ/simpleHyperQ.cu",
        "Samples/0_Introduction/simpleCallback/simpleCallback.cu",
        "Samples/0_Introduction/matrixMul/matrixMul.cu",
        "Samples/0_Introduction/UnifiedMemoryStreams/UnifiedMemoryStreams.cu",
        "Samples/0_Introduction/vectorAdd/vectorAdd.cu",
        "Samples/2_Concepts_and_Techniques/radixSortThrust/radixSortThrust.cu",
        "Samples/3_CUDA_Features/StreamPriorities/StreamPriorities.cu",
        "Samples/3_CUDA_Features/simpleCudaGraphs/simpleCudaGraphs.cu",
        "Samples/5_Domain_Specific/simpleVulkanMMAP/MonteCarloPi.cu",
    ]),
    ("faiss", "faiss", [], [
        "faiss/gpu/GpuIndexFlat.cu",
        "faiss/gpu/GpuIndexIVF.cu",
        "faiss/gpu/impl/IVFBase.cu",
        "faiss/gpu/impl/IVFPQ.cu",
        "faiss/gpu/impl/FlatIndex.cu",
        "faiss/gpu/impl/Distance.cu",
        "faiss/gpu/utils/DeviceUtils.cu",
    ]),
    ("ggml", "generic", GGML_ARGS, [
        "src/ggml-cuda/ggml-cuda.cu",
        "src/ggml-cuda/cpy.cu",
        "src/ggml-cuda/argsort.cu",
        "src/ggml-cuda/getrows.cu",
        "src/ggml-cuda/set.cu",
        "src/ggml-cuda/mean.cu",
    ]),
]

def flags_for(project_dir, recipe, extra, rel, cuda_path, clang_tidy):
    """The clang flags scripts/real-code.py gives one file (its --list)."""
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "real-code.py"),
           "--project", recipe, "--src", project_dir, "--clang-tidy",
           clang_tidy, "--cuda-path", cuda_path,
           "--match", "^" + re.escape(rel) + "$", "--list"]
    cmd += [a.format(src=project_dir) for a in extra]
    out = subprocess.run(cmd, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        if line.startswith(rel + " "):
            return shlex.split(line[len(rel) + 1:])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", default="/tmp/realcode/src")
    ap.add_argument("--plugin", default=os.path.join(
        ROOT, "build", "checker", "CudaAsyncReadBeforeSync.so"))
    ap.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--match", help="only files whose path matches this")
    ap.add_argument("--phases", action="store_true",
                    help="also sum the plugin's per-phase profile")
    a = ap.parse_args()
    if not os.path.isfile(a.plugin):
        sys.exit("real_tus: no plugin at %s (bash scripts/setup.sh builds it)"
                 % a.plugin)
    if not os.path.isfile(a.clang_tidy):
        sys.exit("real_tus: no clang-tidy at %s" % a.clang_tidy)

    tus = []
    for project, recipe, extra, files in FILES:
        pdir = os.path.join(a.src, project)
        for rel in files:
            if a.match and not re.search(a.match, project + "/" + rel):
                continue
            path = os.path.join(pdir, rel)
            if not os.path.isfile(path):
                print("real_tus: skipped (not in the snapshot): %s/%s"
                      % (project, rel), file=sys.stderr)
                continue
            flags = flags_for(pdir, recipe, extra, rel, a.cuda_path,
                              a.clang_tidy)
            if flags is None:
                print("real_tus: skipped (no flags): %s/%s" % (project, rel),
                      file=sys.stderr)
                continue
            tus.append((project + "/" + rel, path, flags))
    if not tus:
        print("real_tus: no files found under %s" % a.src, file=sys.stderr)
        return 2

    configs = [("check", CHECK), ("uam", BASELINE), ("parse", PARSE_ONLY)]
    samples = {name: {c: [] for c, _ in configs} for name, _, _ in tus}
    phases = {}
    for rnd in range(a.runs):
        for i, (name, path, flags) in enumerate(tus):
            k = (rnd + i) % len(configs)
            for cname, check in configs[k:] + configs[:k]:
                r = run_tidy(a.clang_tidy, a.plugin, check, path, flags,
                             profile=(cname == "check" and a.phases))
                if r.rc != 0:
                    print("real_tus: %s with %s exited %d" % (name, check, r.rc),
                          file=sys.stderr)
                samples[name][cname].append(r)
                if r.profile and rnd == 0:
                    phases[name] = r.profile

    def med(xs):
        return statistics.median(xs)

    rows = []
    print("%-62s %7s %7s %7s %6s %6s" % ("file", "check s", "share", "÷ uam",
                                          "MiB", "mem"))
    for name, _, _ in tus:
        s = samples[name]
        check_s = med([x.check_s for x in s["check"]])
        cpu = med([x.cpu_s for x in s["check"]])
        uam_s = med([x.check_s for x in s["uam"]])
        peak = med([x.peak_mib for x in s["check"]])
        parse_peak = med([x.peak_mib for x in s["parse"]])
        share = check_s / cpu if cpu else 0.0
        ratio = check_s / uam_s if uam_s else float("inf")
        mem = peak / parse_peak if parse_peak else 0.0
        rows.append((share, ratio, mem))
        print("%-62s %7.3f %6.1f%% %7.2f %6.0f %6.2f" % (
            name[-62:], check_s, 100 * share, ratio, peak, mem))
    for label, fn in (("median", statistics.median), ("max", max)):
        print("%-62s %7s %6.1f%% %7.2f %6s %6.2f" % (
            label, "", 100 * fn(r[0] for r in rows), fn(r[1] for r in rows),
            "", fn(r[2] for r in rows)))
    if a.phases and phases:
        keys = ["select", "facts", "effects", "solver", "summaries", "report"]
        tot = {k: sum(p.get(k, 0.0) for p in phases.values()) for k in keys}
        print("phases (s, summed over the files, first round): " +
              ", ".join("%s %.3f" % (k, tot[k]) for k in keys))
        print("callables analysed %d, given up %d, summary runs %d" % (
            sum(p.get("callables", 0) for p in phases.values()),
            sum(p.get("given_up", 0) for p in phases.values()),
            sum(p.get("summary_runs", 0) for p in phases.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
