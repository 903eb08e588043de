"""The check run on generated programs, many scenarios per translation unit.

Holds: the clang-tidy command (the flags of runtime/corpus.py's checker run
on a case: %cuda_real_flags plus -std=c++17 -I runtime), the plugin lookup,
the Python front end's command (for the programs' PyTorch rendering), one
run over a batch of programs with its warnings mapped to the marked
accesses and copies of each scenario, and the bisection that pins a crash
or a time-out on the scenarios that cause it.
May call: render.py, render_torch.py, runtime/corpus.py (warning patterns,
run, the clang-tidy lookup), clang-tidy, checker/python (cars_python).
Python 3 standard library only.
"""

import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = os.path.dirname(HERE)
REPO = os.path.dirname(RUNTIME)
sys.path.insert(0, RUNTIME)
import corpus  # noqa: E402  (runtime/corpus.py: the patterns agree.py matches)
import render  # noqa: E402

CHECK = corpus.CHECK_NAME
ANY_WARNING_RE = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<sev>warning|remark|error|note): (?P<msg>.*)$")
QUOTED_RE = re.compile(r"'([A-Za-z_][A-Za-z0-9_]*)'")
# The C++ check names "the legacy / per-thread default stream"; the Python
# front end "the current / default stream", which in a generated PyTorch
# program is the legacy default stream (render_torch.py).
STREAM_RE = re.compile(r"copy of '[^']+' on (?:stream '(?P<name>[A-Za-z_][A-Za-z0-9_]*)'|"
                       r"the (?P<default>legacy|per-thread|current|default) (?:default )?stream)")


def message_keys(msg):
    """What a warning names, as render.py's line keys: the buffer, and for a
    producer warning "<buffer> <stream>"."""
    q = QUOTED_RE.search(msg)
    if not q:
        return set()
    keys = {q.group(1)}
    m = STREAM_RE.search(msg)
    if m:
        st = m.group("default") or m.group("name")
        st = {"s0": "legacy", "spt": "per-thread", "current": "legacy", "default": "legacy"}.get(
            st, st)
        keys.add("%s %s" % (q.group(1), st))
    return keys
CRASH_RE = re.compile(r"Stack dump:|PLEASE submit a bug report|Segmentation fault|Aborted|"
                      r"Traceback \(most recent call last\)")


def default_plugin():
    return os.environ.get("CARS_PLUGIN") or os.path.join(
        REPO, "build", "checker", "CudaAsyncReadBeforeSync.so")


def check_tools(plugin, clang_tidy):
    """(clang_tidy path, None) or (None, a message saying what is missing)."""
    tidy = corpus.find_clang_tidy(clang_tidy)
    if tidy is None:
        return None, ("no clang-tidy 22 found (looked at %s, /usr/lib/llvm-22/bin/clang-tidy, "
                      "clang-tidy-22 on PATH); pass --clang-tidy" % (clang_tidy or "$CLANG_TIDY"))
    if not os.path.isfile(plugin):
        return None, ("the plugin %s does not exist: build it (cmake --build build) or pass "
                      "--plugin" % plugin)
    return tidy, None


def command(path, plugin, clang_tidy, cuda_path="/usr/local/cuda", strict=False):
    cmd = [clang_tidy, "--quiet", "--load=" + plugin, "-checks=-*," + CHECK]
    if strict:
        cmd.append("-config={CheckOptions: {%s.StrictMode: true}}" % CHECK)
    return cmd + [path, "--", "-x", "cuda", "--cuda-path=" + cuda_path, "--cuda-host-only",
                  "-nocudalib", "--cuda-gpu-arch=sm_90", "-isystem",
                  os.path.join(cuda_path, "include", "cccl"), "-Wno-unknown-cuda-version",
                  "-std=c++17", "-I" + RUNTIME]


class Result:
    """What the check said about one scenario.
    status: "ok", "crash", "timeout", "compile-error"
    access: {id: [messages]}   access warnings on lines marking that access
    producer: {id: [messages]} producer warnings on lines marking that copy
    unmarked: [(line text, message)] warnings on lines marking neither
    remarks: [message]         e.g. a function past the analysis budget
    shadowed: {id}             accesses (copies) inside a helper or lambda
                               whose buffer the check reported at the call
                               for another touch of it (one warning per
                               buffer and line): not compared"""

    def __init__(self, status="ok", log=""):
        self.status = status
        self.log = log
        self.access = {}
        self.producer = {}
        self.unmarked = []
        self.remarks = []
        self.shadowed = set()


def python_command(path):
    """The check's Python front end (checker/python) on one file, with this
    interpreter (the front end needs the standard library only)."""
    return ["env", "PYTHONPATH=" + os.path.join(REPO, "checker", "python"), sys.executable,
            "-m", "cars_python", "--quiet", path]


def run_unit(progs, tags, workdir, name, plugin, clang_tidy, strict=False, timeout=300,
             cuda_path="/usr/local/cuda", python=False):
    """Runs the check once on a unit of progs (python: their PyTorch
    rendering, render_torch.py, through the Python front end); returns
    (rc status, {tag: Result})."""
    if python:
        import render_torch
        unit = render_torch.render_module(progs, tags)
        path = os.path.join(workdir, name + ".py")
        cmd = python_command(path)
    else:
        unit = render.render_unit(progs, tags)
        path = os.path.join(workdir, name + ".cu")
        cmd = command(path, plugin, clang_tidy, cuda_path, strict)
    with open(path, "w", encoding="utf-8") as f:
        f.write(unit.text)
    rc, out, err = corpus.run(cmd, timeout=timeout)
    log = "$ %s\n%s%s" % (" ".join(cmd), out, err)
    results = {t: Result(log=log) for t in unit.spans}
    if rc == 124:
        return "timeout", results, log
    if CRASH_RE.search(err) or rc < 0 or rc > 1:
        return "crash", results, log
    text_lines = unit.text.splitlines()
    errors = False
    # Each diagnostic with the notes that follow it.
    diags = []
    for line in out.splitlines() + err.splitlines():
        m = ANY_WARNING_RE.match(line)
        if not m or os.path.realpath(m.group("file")) != os.path.realpath(path):
            continue
        if m.group("sev") == "note":
            if diags:
                diags[-1][1].append((int(m.group("line")), m.group("msg")))
            continue
        diags.append((m, []))
    for m, notes in diags:
        no = int(m.group("line"))
        tag = unit.tag_of_line(no)
        sev, msg = m.group("sev"), m.group("msg")
        if sev == "error":
            errors = True
            if tag in results:
                results[tag].status = "compile-error"
            continue
        if tag not in results:
            continue
        r = results[tag]
        if sev == "remark":
            r.remarks.append(msg)
            continue
        if not msg.endswith("[%s]" % CHECK):
            r.unmarked.append((text_lines[no - 1].strip(), msg))
            continue
        full = "%s:%s:%s: warning: %s" % (m.group("file"), no, m.group("col"), msg)
        kind = ("access" if corpus.WARNING_RE.match(full) else
                "producer" if corpus.PRODUCER_WARNING_RE.match(full) else "other")
        want = {"access": "access", "producer": "copy"}.get(kind)
        hit = [(i, b) for t, k, i, b in unit.lines.get(no, []) if t == tag and k == want]
        if len(hit) > 1:
            # A helper's or lambda's call line marks all its accesses (copies).
            # The check warns once per buffer and line, with a note at the
            # touch inside the callee: that access is the one compared; the
            # callee's other accesses of the buffer are covered by the same
            # warning and left out ("same-call").
            named = [x for x in hit if x[1] in message_keys(msg)]
            named = named or [x for x in hit if x[1].split(" ")[0] in message_keys(msg)] or hit
            noted = [i for ln, _ in notes for t, k, i, b in unit.lines.get(ln, [])
                     if t == tag and k == want and any(i == x[0] for x in named)]
            first = noted[0] if noted else named[0][0]
            for i, _ in named:
                if i != first:
                    r.shadowed.add(i)
            hit = [(first, None)]
        hit = [i for i, _ in hit]
        if not hit:
            r.unmarked.append((text_lines[no - 1].strip(), msg))
            continue
        table = r.access if kind == "access" else r.producer
        for i in hit:
            table.setdefault(i, []).append(msg)
    if errors and rc != 0 and not any(r.status == "compile-error" for r in results.values()):
        return "compile-error", results, log
    return ("compile-error" if errors else "ok"), results, log


def check_programs(progs, tags, workdir, plugin, clang_tidy, strict=False, timeout=300,
                   name="unit", cuda_path="/usr/local/cuda", python=False):
    """{tag: Result} for every program, one clang-tidy run for all of them
    unless it crashes or times out: then the batch is halved until the
    scenarios that do are found (each gets that status)."""
    status, results, log = run_unit(progs, tags, workdir, name, plugin, clang_tidy, strict,
                                    timeout, cuda_path, python)
    if status in ("ok", "compile-error"):
        return results
    if len(progs) == 1:
        return {tags[0]: Result(status, log)}
    half = len(progs) // 2
    out = {}
    out.update(check_programs(progs[:half], tags[:half], workdir, plugin, clang_tidy, strict,
                              timeout, name + "a", cuda_path, python))
    out.update(check_programs(progs[half:], tags[half:], workdir, plugin, clang_tidy, strict,
                              timeout, name + "b", cuda_path, python))
    return out


def scratch_dir(base=None):
    return tempfile.mkdtemp(prefix="cars-gen-", dir=base)
