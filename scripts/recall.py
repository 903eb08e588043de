#!/usr/bin/env python3
"""Measure cuda-async-read-before-sync's recall on a corpus of real bug fixes.

Reads a fixes file (scripts/recall-fixes.json: commit ids, paths and flags,
no project code). For each entry it extracts, with `git archive` from the
repository's mirror, the whole tree at the fix's parent (BEFORE) and at the
fix (AFTER), and the trees of the entry's dependencies (rmm, raft, CCCL, ...
at the commits the entry names), into a work folder (reused when present).
It then builds the clang command line for the entry's translation unit (a
racy header is compiled through a .cu/.cpp of the same tree that includes
and instantiates it), runs clang-tidy with only this check on both trees
(`-header-filter=.*`, so findings in the racy header are shown), and
reports per entry:

  parse         clean, or the number of clang `error:` lines (first one kept)
  at-line       BEFORE has a warning of the check at racy.file:racy.line
  in-function   BEFORE has a warning inside the racy function
  after-silent  AFTER has no warning inside that function

The racy function's line range is found in each file by the function's name
(racy.function, or the entry's `function_regex` for the header line): the
first `{` after a matching header is brace-matched to its `}` (comments and
literals skipped); in BEFORE the range must contain racy.line, in AFTER the
match nearest that line is taken. When no range is found, a window of
--window lines (default 40) either side of racy.line is used instead, and
the entry says so ("range": "window").

Python entries (`"language": "python"`, scripts/recall-fixes-python.json)
name `files` instead of a translation unit: those files are written at the
parent and at the fix (`git show`), the Python front end
(checker/python, `python3 -m cars_python --quiet`) runs on them together,
and the racy function's range is the `def` of racy.function's last name
to the next line indented no deeper; no plugin or clang-tidy is needed.

An entry may name `summary_units`: other translation units of the same
tree (a path, or {"file", "lang"}), compiled with the entry's flags. They
and the entry's own unit first go through the launcher's first phase
(tools/cars_summaries.py's refresh over a compile database of those units,
one per tree), and the entry's unit is then checked with the summaries
imported, as a user of the launcher on the whole project would see it: a
race whose producer, stream or sync is in another unit.

Placeholders in the fixes file's paths and flags: {root} the tree being
checked, {dep:NAME} the root of dependency NAME, {cuda} --cuda-path, {gen}
a folder holding the entry's `generated` files (stub headers a CMake
configure would write). `cccl` names the CCCL include folders that replace
<cuda>/include/cccl (default: the toolkit's).

Usage:

  scripts/recall.py [--fixes FILE] [--mirrors DIR] [--work DIR]
      [--plugin P] [--clang-tidy P] [--cuda-path P] [--only ID ...]
      [--config YAML] [--jobs N] [--timeout S] [--window N] [--out FILE.json]

Base flags: CUDA files get `-x cuda --cuda-path=<cuda> --cuda-host-only
-nocudalib --cuda-gpu-arch=sm_90 -isystem <cccl>` and an `-include` of
nvcc's host min()/max() overloads (real-code.py's header); HIP files
`-x hip --offload-host-only -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64` (Debian's
libamdhip64-dev headers in /usr/include/hip); C++ files `-x c++ -isystem
<cuda>/include -isystem <cccl>`. Every file gets `-isystem` of a folder with
GCC's omp.h when clang has none.

Exit status: 0 when every entry ran (misses and parse errors included), 2 on
a usage error (bad fixes file, missing mirror, tool or plugin). Only the
Python 3 standard library is used.
"""

import argparse
import concurrent.futures
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

CHECK = "cuda-async-read-before-sync"
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
import cars_summaries  # noqa: E402  (the launcher's first phase)
# Each entry's summaries are cached beside its own compile database.
os.environ.pop("CARS_SUMMARY_CACHE", None)

def _real_code():
    """scripts/real-code.py as a module: its diagnostic pattern and nvcc
    shims (the host min()/max() header, a folder with GCC's omp.h) are the
    ones this runner uses too."""
    spec = importlib.util.spec_from_file_location(
        "real_code", os.path.join(HERE, "real-code.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REAL_CODE = _real_code()
DIAG = REAL_CODE.DIAG


class Usage(Exception):
    pass


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          **kw)


def mirror_gitdir(mirrors, repo):
    """The git directory of repo's mirror: MIRRORS/OWNER+NAME/repo, a bare
    repository, or its .git where the snapshot holds a work tree's."""
    root = os.path.join(mirrors, repo.replace("/", "+"), "repo")
    dotgit = os.path.join(root, ".git")
    return dotgit if os.path.isdir(dotgit) else root


def extract(mirrors, work, repo, commit, prefix=""):
    """The tree of repo at commit, extracted once into work (under the
    folder `prefix` of the returned root, when given)."""
    gitdir = mirror_gitdir(mirrors, repo)
    if not os.path.isdir(gitdir):
        raise Usage("no mirror for %s at %s" % (repo, gitdir))
    dest = os.path.join(work, "trees", "%s@%s%s" % (
        repo.replace("/", "+"), commit[:12], "-" + prefix if prefix else ""))
    if os.path.isfile(os.path.join(dest, ".recall-complete")):
        return dest
    tmp = dest + ".part"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, prefix))
    arc = subprocess.Popen(["git", "--git-dir=" + gitdir, "archive", commit],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    tar = subprocess.run(["tar", "-x", "-C", os.path.join(tmp, prefix)],
                         stdin=arc.stdout,
                         stderr=subprocess.PIPE)
    arc.stdout.close()
    err = arc.stderr.read().decode(errors="replace")
    if arc.wait() != 0 or tar.returncode != 0:
        # a partial mirror lacks some (large) blobs: write what it has
        missing = extract_blobs(gitdir, commit, os.path.join(tmp, prefix))
        if missing is None:
            shutil.rmtree(tmp, ignore_errors=True)
            raise Usage("git archive %s %s failed: %s" % (
                repo, commit, err.strip().splitlines()[0][:200]))
        write(os.path.join(tmp, ".recall-missing-blobs"),
              "".join(p + "\n" for p in missing))
    open(os.path.join(tmp, ".recall-complete"), "w").close()
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)
    return dest


def extract_blobs(gitdir, commit, dest):
    """Each readable blob of commit into dest; the paths of missing ones
    (None when the commit itself cannot be read)."""
    ls = sh(["git", "--git-dir=" + gitdir, "ls-tree", "-r", "-z", commit])
    if ls.returncode != 0:
        return None
    items = []
    for rec in ls.stdout.split(b"\0"):
        if rec:
            meta, path = rec.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob" and mode != b"120000":
                items.append((sha, path.decode("utf-8", "replace")))
    cat = subprocess.Popen(["git", "--git-dir=" + gitdir, "cat-file",
                            "--batch"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    feeder = threading.Thread(target=lambda: (cat.stdin.write(
        b"".join(sha + b"\n" for sha, _ in items)), cat.stdin.close()))
    feeder.start()
    missing = []
    for sha, path in items:
        head = cat.stdout.readline().split()
        if len(head) < 3 or head[1] != b"blob":
            missing.append(path)
            continue
        data = cat.stdout.read(int(head[2]))
        cat.stdout.read(1)
        out = os.path.join(dest, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(data)
    feeder.join()
    cat.wait()
    return missing


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def command(e, root, deps, args, gen):
    def sub(s):
        s = s.replace("{root}", root).replace("{cuda}", args.cuda_path)
        s = s.replace("{gen}", gen)
        for name, path in deps.items():
            s = s.replace("{dep:%s}" % name, path)
        return s

    def place(p):
        p = sub(p)
        return p if os.path.isabs(p) else os.path.join(root, p)
    tu = place(e["tu"])
    lang = e.get("lang") or ("cuda" if tu.endswith((".cu", ".cuh")) else
                             "c++")
    cccl = [place(p) for p in e.get("cccl", ["{cuda}/include/cccl"])]
    if lang == "cuda":
        flags = ["-x", "cuda", "--cuda-path=" + args.cuda_path,
                 "--cuda-host-only", "-nocudalib", "--cuda-gpu-arch=sm_90"]
        for d in cccl:
            flags += ["-isystem", d]
        flags += ["-include", args.minmax]
    elif lang == "hip":
        flags = ["-x", "hip", "--offload-host-only", "-nogpulib",
                 "-D__AMDGCN_WAVEFRONT_SIZE=64"]
    else:
        flags = ["-x", "c++", "-isystem",
                 os.path.join(args.cuda_path, "include")]
        for d in cccl:
            flags += ["-isystem", d]
    if args.omp:
        flags += ["-isystem", args.omp]
    if e.get("std"):
        flags.append("-std=" + e["std"])
    for d in e.get("include", []):
        flags.append("-I" + place(d))
    for d in e.get("isystem", []):
        flags += ["-isystem", place(d)]
    flags += ["-D" + d for d in e.get("defines", [])]
    flags += [sub(a) for a in e.get("extra_args", [])]
    cmd = [args.clang_tidy, "--load=" + args.plugin, "-checks=-*," + CHECK,
           "--extra-arg=-ferror-limit=0",  # all errors, and the whole TU
           "-header-filter=.*", "--quiet"]
    # always a -config: the trees' own .clang-tidy files are not read
    cmd.append("-config=" + (args.config or "{}"))
    return cmd + [tu, "--"] + flags


def summaries(e, root, deps, args, gen, side):
    """The environment importing the summaries of the entry's
    summary_units and its own unit (the launcher's first phase over a
    compile database of them), or None when it names none."""
    units = e.get("summary_units")
    if not units:
        return None
    db_dir = os.path.join(args.work, "summaries", e["id"], side)
    os.makedirs(db_dir, exist_ok=True)
    database = []
    for u in [e["tu"]] + units:
        u = u if isinstance(u, dict) else {"file": u}
        cmd = command(dict(e, tu=u["file"], lang=u.get("lang", e.get("lang"))),
                      root, deps, args, gen)
        path = os.path.join(root, u["file"])
        database.append({"directory": root, "file": path,
                         "arguments": ["clang++"] + cmd[cmd.index("--") + 1:]
                         + [path]})
    write(os.path.join(db_dir, "compile_commands.json"), json.dumps(database, indent=1))
    units_dir = cars_summaries.refresh(os.path.join(db_dir, "compile_commands.json"),
                                       db_dir, args.clang_tidy, args.plugin, jobs=1)
    return cars_summaries.import_env(units_dir)


def run_tidy(cmd, root, timeout, env=None):
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, env=env,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    text = out.decode("utf-8", "replace") + "\n" + err.decode("utf-8",
                                                               "replace")
    warnings, errors, bare, remarks = [], [], [], []
    for line in text.splitlines():
        m = DIAG.match(line)
        if not m:
            if line.startswith(("error: ", "fatal error: ")):
                bare.append(line)
            continue
        path = os.path.normpath(os.path.join(root, m.group("path")))
        rel = os.path.relpath(path, root) if path.startswith(root + os.sep) \
            else path
        if m.group("sev") == "remark" and CHECK in (m.group("checks") or ""):
            remarks.append("%s:%s: %s" % (rel, m.group("line"),
                                           m.group("msg")))
        elif m.group("sev") == "warning" and CHECK in (m.group("checks")
                                                       or ""):
            warnings.append({"file": rel, "line": int(m.group("line")),
                             "message": m.group("msg")})
        elif m.group("sev") in ("error", "fatal error"):
            errors.append("%s:%s: %s" % (rel, m.group("line"),
                                          m.group("msg").strip()))
    errors += bare
    crashed = proc.returncode < 0 or "Stack dump:" in text
    return {"warnings": sorted({(w["file"], w["line"], w["message"]): w
                                for w in warnings}.values(),
                               key=lambda w: (w["file"], w["line"],
                                              w["message"])),
            "errors": len(errors), "first_errors": errors[:3],
            "remarks": sorted(set(remarks)),
            "timeout": timed_out, "crash": crashed}


def strip_code(text):
    """The text with comments and string/char literals blanked (lines kept)."""
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'
                  r"'(?:\\.|[^'\\\n])*'",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text,
                  flags=re.S)


def function_ranges(path, e):
    """(start, end) line ranges of every definition matching the function."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = strip_code(f.read())
    except OSError:
        return []
    rx = e.get("function_regex")
    if not rx:
        name = e["racy"]["function"].split(" (")[0]
        name = re.sub(r"<[^<>]*>", "", name).split("::")[-1].strip()
        rx = r"\b%s\s*\(" % re.escape(name) if not name.startswith(
            ("TEST", "operator")) else re.escape(name)
    out = []
    for m in re.finditer(rx, text):
        i = m.end()
        # the body: the first '{' before any ';' (a declaration) at depth 0
        depth, j = 0, i
        while j < len(text):
            c = text[j]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == ";" and depth <= 0:
                j = -1
                break
            elif c == "{" and depth <= 0:
                break
            j += 1
        if j < 0 or j >= len(text):
            continue
        depth, k = 0, j
        while k < len(text):
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            if depth == 0:
                break
            k += 1
        line = lambda pos: text.count("\n", 0, pos) + 1
        out.append((line(m.start()), line(k)))
    return sorted(set(out))


def pick_range(path, e, contain, window, find=None):
    """The racy function's range in the file at path (find: how to find
    the definitions, function_ranges by default), or a window of lines."""
    line = e["racy"]["line"]
    ranges = (find or function_ranges)(path, e)
    inside = [r for r in ranges if r[0] <= line <= r[1]]
    if inside:
        return min(inside, key=lambda r: r[1] - r[0]), "function"
    if ranges and not contain:
        return min(ranges, key=lambda r: abs(r[0] - line)), "function"
    return (max(1, line - window), line + window), "window"


# System header folders the entries need (named by an entry's "isystem", or
# included from a dependency's tree: rmm's logger includes spdlog), with the
# Debian package that has them. Missing, a unit stops parsing at the
# #include (a fatal error) and its race reads as a miss.
SYSTEM_HEADERS = {"/usr/include/eigen3": "libeigen3-dev",
                  "/usr/include/spdlog": "libspdlog-dev"}


def missing_folders(folders):
    return sorted(d for d in folders if not os.path.isdir(d))


def verdicts(rec):
    """An entry's verdicts from its before and after runs (each with its
    warnings in the racy function, and errors, timeout and crash)."""
    b, a, line = rec["before"], rec["after"], rec["racy"]["line"]
    rec["parse_clean"] = not (b["errors"] or b["timeout"] or b["crash"])
    rec["after_parse_clean"] = not (a["errors"] or a["timeout"] or a["crash"])
    rec["before_at_line"] = any(w["line"] == line for w in b["in_function"])
    rec["before_in_function"] = bool(b["in_function"])
    rec["after_silent"] = not a["in_function"]


def run_entry(e, args):
    rec = {"id": e["id"], "kind": e["kind"], "repo": e["repo"],
           "tu": e["tu"], "racy": e["racy"]}
    missing = missing_folders(d for d in e.get("isystem", []) if d.startswith("/"))
    if missing:
        # Without them the unit stops parsing where the race is: an error,
        # not a miss.
        rec["error"] = "missing %s (Debian: apt-get install %s)" % (
            ", ".join(missing), " ".join(SYSTEM_HEADERS.get(d, "?") for d in missing))
        return rec
    try:
        deps = {n: extract(args.mirrors, args.work, d["repo"], d["commit"],
                           d.get("prefix", ""))
                for n, d in sorted(e.get("deps", {}).items())}
        trees = {"before": extract(args.mirrors, args.work, e["repo"],
                                   e["parent"]),
                 "after": extract(args.mirrors, args.work, e["repo"],
                                  e["fix"])}
    except Usage as ex:
        rec["error"] = str(ex)
        return rec
    gen = os.path.join(args.work, "gen", e["id"])
    for rel, text in sorted(e.get("generated", {}).items()):
        write(os.path.join(gen, rel), text)
    racy = e["racy"]
    for side, root in sorted(trees.items()):
        cmd = command(e, root, deps, args, gen)
        try:
            env = summaries(e, root, deps, args, gen, side)
        except (cars_summaries.SummaryError, OSError) as ex:
            rec["error"] = "summaries of %s: %s" % (side, ex)
            return rec
        res = run_tidy(cmd, root, args.timeout, env)
        res["summary_units"] = len(e.get("summary_units", []))
        (lo, hi), how = pick_range(os.path.join(root, racy["file"]), e,
                                   side == "before", args.window)
        res["range"] = [lo, hi]
        res["range_kind"] = how
        res["in_function"] = [w for w in res["warnings"]
                              if w["file"] == racy["file"]
                              and lo <= w["line"] <= hi]
        rec[side] = res
    verdicts(rec)
    rec["command"] = [os.path.relpath(c, trees["before"])
                      if c.startswith(trees["before"]) else c
                      for c in command(e, trees["before"], deps, args, gen)]
    return rec


def is_python(e):
    return e.get("language") == "python"


def python_ranges(path, e):
    """(start, end) line ranges of each `def NAME` (NAME: racy.function's
    last dotted part) in a Python file: to the last line before the next
    non-blank line indented no deeper than the `def`."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return []
    name = e["racy"]["function"].split(".")[-1]
    head = re.compile(r"^(\s*)(?:async\s+)?def\s+%s\s*\(" % re.escape(name))
    out = []
    for i, text in enumerate(lines):
        m = head.match(text)
        if not m:
            continue
        indent, end = len(m.group(1)), i + 1
        for j in range(i + 1, len(lines)):
            t = lines[j]
            if t.strip() and not t.lstrip().startswith("#") and \
                    len(t) - len(t.lstrip()) <= indent and not t.lstrip().startswith(")"):
                break
            if t.strip():
                end = j + 1
        out.append((i + 1, end))
    return out


def run_python_entry(e, args):
    """A Python entry: its files at the parent and the fix, the front end on
    them together."""
    rec = {"id": e["id"], "kind": e["kind"], "repo": e["repo"],
           "files": e["files"], "racy": e["racy"]}
    gitdir = mirror_gitdir(args.mirrors, e["repo"])
    racy = e["racy"]
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "checker", "python"))
    for side, commit in (("before", e["parent"]), ("after", e["fix"])):
        root = os.path.join(args.work, "py", e["id"], side)
        for rel in e["files"]:
            show = sh(["git", "--git-dir=" + gitdir, "show", "%s:%s" % (commit, rel)])
            if show.returncode != 0:
                rec["error"] = "git show %s:%s failed" % (commit[:12], rel)
                return rec
            write(os.path.join(root, rel), show.stdout.decode("utf-8", "replace"))
        run = sh([sys.executable, "-m", "cars_python", "--quiet"] + e["files"],
                 cwd=root, env=env, timeout=args.timeout)
        out = run.stdout.decode("utf-8", "replace")
        warnings = []
        for line in out.splitlines():
            m = re.match(r"^(.*?):(\d+):(\d+): warning: (.*)$", line)
            if m:
                warnings.append({"file": os.path.relpath(os.path.join(root, m.group(1)), root),
                                 "line": int(m.group(2)), "col": int(m.group(3)),
                                 "message": m.group(4)})
        (lo, hi), how = pick_range(os.path.join(root, racy["file"]), e,
                                   side == "before", args.window, python_ranges)
        rec[side] = {"warnings": warnings, "range": [lo, hi], "range_kind": how,
                     "crash": "Traceback" in run.stderr.decode("utf-8", "replace"),
                     "errors": 0, "timeout": False,
                     "in_function": [w for w in warnings if w["file"] == racy["file"]
                                     and lo <= w["line"] <= hi]}
    verdicts(rec)
    return rec


def load_fixes(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as ex:
        raise Usage("cannot read %s: %s" % (path, ex.strerror))
    except ValueError as ex:
        raise Usage("%s is not valid JSON: %s" % (path, ex))
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise Usage("%s: no 'entries' list" % path)
    for e in entries:
        need = ("id", "repo", "fix", "parent", "kind", "racy") + (
            ("files",) if is_python(e) else ("tu",))
        miss = [k for k in need if k not in e]
        if miss:
            raise Usage("%s: entry %s lacks %s" % (path, e.get("id", "?"),
                                                    ", ".join(miss)))
    return entries


def yn(v):
    return "-" if v is None else ("yes" if v else "no")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fixes", default=os.path.join(HERE, "recall-fixes.json"))
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--work", help="scratch/cache folder (default: a "
                    "temporary folder, removed afterwards)")
    ap.add_argument("--plugin", default=os.path.join(
        HERE, "..", "build", "checker", "CudaAsyncReadBeforeSync.so"))
    ap.add_argument("--clang-tidy", default=shutil.which("clang-tidy-22") or
                    "/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--only", nargs="+", metavar="ID")
    ap.add_argument("--config", help="a clang-tidy -config= string")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--window", type=int, default=40)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    try:
        entries = load_fixes(args.fixes)
        if args.only:
            unknown = set(args.only) - {e["id"] for e in entries}
            if unknown:
                raise Usage("unknown id(s): " + ", ".join(sorted(unknown)))
            entries = [e for e in entries if e["id"] in args.only]
        if not os.path.isdir(args.mirrors):
            raise Usage("no mirrors folder at " + args.mirrors)
        for e in entries:
            for repo in [e["repo"]] + [d["repo"] for d in
                                       e.get("deps", {}).values()]:
                if not os.path.isdir(mirror_gitdir(args.mirrors, repo)):
                    raise Usage("no mirror of %s under %s" % (repo,
                                                              args.mirrors))
        cpp = any(not is_python(e) for e in entries)
        if cpp and not (os.path.isfile(args.clang_tidy) or
                        shutil.which(args.clang_tidy)):
            raise Usage("clang-tidy not found: " + args.clang_tidy)
        if cpp and not os.path.isfile(args.plugin):
            raise Usage("plugin not found: " + args.plugin)
        if shutil.which("git") is None or shutil.which("tar") is None:
            raise Usage("git and tar are needed")
    except Usage as ex:
        print("recall.py: " + str(ex), file=sys.stderr)
        return 2
    missing = missing_folders(SYSTEM_HEADERS)
    if missing:
        print("recall.py: warning: %s missing: units that include them stop parsing there "
              "and their races read as misses (Debian: apt-get install %s)"
              % (", ".join(missing), " ".join(SYSTEM_HEADERS[d] for d in missing)),
              file=sys.stderr)
    args.plugin = os.path.abspath(args.plugin)
    temp = args.work is None
    args.work = os.path.abspath(args.work or tempfile.mkdtemp(
        prefix="cars-recall-"))
    if cpp:
        args.minmax = REAL_CODE.nvcc_host_minmax_header()
        args.omp = REAL_CODE.omp_include_dir(args.clang_tidy)
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
            results = list(ex.map(lambda e: run_python_entry(e, args)
                                  if is_python(e) else run_entry(e, args),
                                  entries))
    finally:
        if temp:
            shutil.rmtree(args.work, ignore_errors=True)
    rows = [("id", "kind", "parse", "before-at-line", "before-in-function",
             "after-silent")]
    for r in results:
        if "error" in r:
            rows.append((r["id"], r["kind"], "ERROR: " + r["error"][:60], "-", "-",
                         "-"))
            continue
        b = r["before"]
        parse = "clean" if r["parse_clean"] else (
            "timeout" if b["timeout"] else "crash" if b["crash"]
            else "%d errors" % b["errors"])
        rows.append((r["id"], r["kind"], parse, yn(r["before_at_line"]),
                     yn(r["before_in_function"]), yn(r["after_silent"])))
    widths = [max(len(row[i]) for row in rows) for i in range(6)]
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
    ok = [r for r in results if "error" not in r]
    n = len(ok)
    summary = {"entries": len(results), "ran": n,
               "parse_clean": sum(r["parse_clean"] for r in ok),
               "before_at_line": sum(r["before_at_line"] for r in ok),
               "before_in_function": sum(r["before_in_function"] for r in ok),
               "after_silent": sum(r["after_silent"] for r in ok),
               "config": args.config}
    print("recall: %(before_at_line)d/%(ran)d at the racy line, "
          "%(before_in_function)d/%(ran)d in the racy function; "
          "%(parse_clean)d/%(ran)d parse clean; %(after_silent)d/%(ran)d "
          "silent after the fix" % summary)
    if args.out:
        text = json.dumps({"summary": summary, "results": results},
                          indent=1, sort_keys=True)
        # no machine-specific paths: the work folder is written <work>
        write(args.out, text.replace(args.work, "<work>") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
