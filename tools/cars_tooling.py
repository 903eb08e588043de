"""Shared code of the cuda-async-read-before-sync commands (tools/).

Used by the launcher, the hook and the CI gate (compile databases are
cars_compdb.py's, incremental summaries cars_summaries.py's):

* where the plugin is and which clang-tidy it was built for (a plugin only
  loads into the clang-tidy of the LLVM major version it was compiled
  against, so the pairing is recorded at build time in a toolchain file next
  to the plugin), and where the Python front end is;
* what a pull request changed (git), for the gate;
* turning clang-tidy's --export-fixes YAML, and the Python front end's
  findings, into SARIF 2.1.0 and GitHub annotations.

Only the Python standard library is used, but for reading clang-tidy's
exported diagnostics (YAML), which imports PyYAML lazily (load_yaml_module:
under an interpreter without it, the command re-runs under Debian's
/usr/bin/python3, or says in one line what to install). The SARIF log is
plain JSON.
"""

import json
import os
import re
import shutil
import subprocess
import sys

# The LLVM versions the plugin is built and tested against (README).
SUPPORTED_LLVM_MAJORS = (22, 19)

# The version of these commands; CMakeLists.txt's project() version must be
# the same (test/integration/launcher.test checks), and the plugin's build
# records its own in the toolchain file (plugin_toolchain: "version").
VERSION = "0.1.0"
CHECK = "cuda-async-read-before-sync"
PLUGIN_NAME = "CudaAsyncReadBeforeSync.so"
TOOLCHAIN_NAME = "CudaAsyncReadBeforeSync.toolchain.json"
PKG_DIR = "cuda-async-read-before-sync"


class ToolError(Exception):
    """A problem to report in one line on stderr (exit status 1)."""


# --------------------------------------------------------------------------
# Plugin and clang-tidy
# --------------------------------------------------------------------------

def _here():
    return os.path.dirname(os.path.realpath(__file__))


def plugin_candidates():
    """Where the plugin is looked for, first match wins."""
    here = _here()
    cands = []
    if os.environ.get("CARS_PLUGIN"):
        return [os.environ["CARS_PLUGIN"]]
    if os.environ.get("CARS_BUILD_DIR"):
        cands.append(os.path.join(os.environ["CARS_BUILD_DIR"], "checker", PLUGIN_NAME))
    # Installed layout: <prefix>/bin/<command>, this module and the plugin in
    # <prefix>/lib/cuda-async-read-before-sync/.
    cands.append(os.path.join(here, PLUGIN_NAME))
    cands.append(os.path.join(here, "..", "lib", PKG_DIR, PLUGIN_NAME))
    # Source checkout built with scripts/setup.sh.
    cands.append(os.path.join(here, "..", "build", "checker", PLUGIN_NAME))
    # System install (the .deb): what a pre-commit clone of this repository,
    # which has no build of its own, runs against.
    cands.append(os.path.join("/usr/lib", PKG_DIR, PLUGIN_NAME))
    cands.append(os.path.join("/usr/local/lib", PKG_DIR, PLUGIN_NAME))
    return [os.path.normpath(c) for c in cands]


def _in_precommit_cache(path):
    cache = os.environ.get("PRE_COMMIT_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "pre-commit")
    return os.path.realpath(path).startswith(os.path.realpath(cache) + os.sep)


def find_plugin():
    for c in plugin_candidates():
        if os.path.isfile(c):
            return c
    if _in_precommit_cache(_here()):
        # Run from pre-commit's clone of this repository: building there is
        # no fix (pre-commit may replace it); the plugin is installed.
        raise ToolError(
            "cannot find %s: pre-commit runs this hook from its own clone, "
            "which has no build; install the plugin (the .deb, or cmake "
            "--install of a build of this repository at the hook's rev) or "
            "set CARS_PLUGIN to it" % PLUGIN_NAME)
    raise ToolError(
        "cannot find %s (looked in: %s); build it (bash scripts/setup.sh), "
        "install the package, or set CARS_PLUGIN"
        % (PLUGIN_NAME, ", ".join(plugin_candidates())))


def python_front_end():
    """The Python front end's `report` module (checker/python/cars_python in
    a source checkout, lib/cuda-async-read-before-sync/cars_python when
    installed): the check on .py files, which needs neither the plugin nor
    clang-tidy."""
    for cand in (os.path.join(_here(), "..", "checker", "python"), _here()):
        if os.path.isfile(os.path.join(cand, "cars_python", "report.py")):
            if cand not in sys.path:
                sys.path.insert(0, cand)
            break
    try:
        from cars_python import report
    except ImportError as e:
        raise ToolError("cannot load the Python front end (cars_python): %s" % e)
    return report


def split_python_files(args):
    """(the .py files among args' sources, the other arguments). Sources
    are the arguments before `--` that are not options."""
    end = args.index("--") if "--" in args else len(args)
    py = [a for a in args[:end] if a.endswith(".py") and not a.startswith("-")]
    rest = [a for k, a in enumerate(args) if k >= end or a not in py]
    return py, rest


def plugin_toolchain(plugin):
    """{'llvm_major': int, 'clang_tidy': path, 'run_clang_tidy': path} recorded
    next to the plugin when it was built."""
    path = os.path.join(os.path.dirname(plugin), TOOLCHAIN_NAME)
    try:
        with open(path) as f:
            tc = json.load(f)
        tc["llvm_major"] = int(tc["llvm_major"])
        return tc
    except (OSError, ValueError, KeyError) as e:
        raise ToolError("cannot read %s (%s): it records the LLVM version the "
                        "plugin was built for; rebuild or reinstall" % (path, e))


def clang_tidy_major(clang_tidy):
    try:
        out = subprocess.run([clang_tidy, "--version"], capture_output=True,
                             text=True, check=False).stdout
    except OSError as e:
        raise ToolError("cannot run %s: %s" % (clang_tidy, e))
    m = re.search(r"LLVM version (\d+)", out)
    if not m:
        raise ToolError("cannot tell the LLVM version of %s" % clang_tidy)
    return int(m.group(1))


def resolve_toolchain():
    """(plugin, clang_tidy, toolchain) after checking that they match."""
    plugin = find_plugin()
    tc = plugin_toolchain(plugin)
    clang_tidy = os.environ.get("CARS_CLANG_TIDY") or tc.get("clang_tidy")
    if not clang_tidy or not shutil.which(clang_tidy):
        fallback = shutil.which("clang-tidy-%d" % tc["llvm_major"])
        if not fallback:
            raise ToolError(
                "clang-tidy %d not found (%s): the plugin was built for LLVM %d; "
                "install clang-tidy-%d or set CARS_CLANG_TIDY"
                % (tc["llvm_major"], clang_tidy, tc["llvm_major"], tc["llvm_major"]))
        clang_tidy = fallback
    major = clang_tidy_major(clang_tidy)
    if major != tc["llvm_major"]:
        raise ToolError(
            "%s is clang-tidy %d, but %s was built for LLVM %d: a clang-tidy "
            "plugin only loads into the clang-tidy of the LLVM major version it "
            "was compiled against. Use clang-tidy-%d (unset CARS_CLANG_TIDY)%s"
            % (clang_tidy, major, plugin, tc["llvm_major"], tc["llvm_major"],
               ", or build the plugin for LLVM %d (CARS_LLVM_MAJOR=%d bash "
               "scripts/setup.sh)" % (major, major)
               if major in SUPPORTED_LLVM_MAJORS else
               "; LLVM %d is not supported (supported: %s)"
               % (major, ", ".join(map(str, SUPPORTED_LLVM_MAJORS)))))
    return plugin, clang_tidy, tc


SOURCE_EXTENSIONS = (".cu", ".cc", ".cpp", ".cxx", ".c++", ".c", ".hip")
HEADER_EXTENSIONS = (".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc", ".tcc", ".ipp")


def changed_lines(root, ref):
    """{absolute path: set of 1-based lines} added or changed since the merge
    base of ref and HEAD (`git diff --unified=0 ref...HEAD`: what a pull
    request changes; deleted files are left out). Raises ToolError when git
    cannot answer (not a repository, an unknown ref, a shallow clone without
    the merge base)."""
    cmd = ["git", "-C", root, "diff", "--unified=0", "--no-color", "--no-ext-diff",
           "--diff-filter=d", "--no-renames", ref + "...HEAD"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    except OSError as e:
        raise ToolError("cannot run git: %s" % e)
    if p.returncode != 0:
        raise ToolError("git diff %s...HEAD failed: %s (in a shallow clone, fetch the base: "
                        "actions/checkout with fetch-depth: 0)"
                        % (ref, (p.stderr.strip().splitlines() or ["?"])[-1]))
    out, current = {}, None
    for line in p.stdout.splitlines():
        if line.startswith("+++ "):
            name = line[4:]
            current = None if name == "/dev/null" else os.path.realpath(
                os.path.join(root, name[2:] if name.startswith("b/") else name))
            if current:
                out.setdefault(current, set())
        elif line.startswith("@@") and current:
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            if m:
                start, count = int(m.group(1)), int(m.group(2) or 1)
                out[current].update(range(start, start + count))
    return out


def changed_scope(changed, database):
    """What --changed-since analyses: (the translation units to run, as
    run-clang-tidy file regexes, or None for all of them; the changed files
    a finding must be in). A changed header may add a finding to any
    translation unit that includes it, and which ones do is known only
    after parsing, so a changed header means every translation unit."""
    try:
        with open(database) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError("cannot read compile database %s: %s" % (database, e))
    units = {}  # real path -> the path as run-clang-tidy spells it
    for e in entries:
        path = os.path.normpath(os.path.join(e.get("directory", "."), e.get("file", "")))
        units[os.path.realpath(path)] = path
    relevant = {p for p in changed if p in units or p.lower().endswith(
        SOURCE_EXTENSIONS + HEADER_EXTENSIONS)}
    if any(p not in units for p in relevant):
        return None, relevant
    return ["^" + re.escape(units[p]) + "$" for p in sorted(relevant)], relevant


# --------------------------------------------------------------------------
# SARIF
# --------------------------------------------------------------------------

def load_yaml_module():
    """PyYAML, for clang-tidy's --export-fixes files. Under an interpreter
    that lacks it (pyenv, a venv, conda on a CI runner) the command re-runs
    itself under Debian's /usr/bin/python3 when that has it; else one line
    says what to install."""
    try:
        import yaml  # python3-yaml
        return yaml
    except ImportError:
        pass
    debian = "/usr/bin/python3"
    if (os.path.realpath(sys.executable) != os.path.realpath(debian)
            and os.access(debian, os.X_OK)
            and not os.environ.get("CARS_REEXEC")
            and subprocess.call([debian, "-c", "import yaml"],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL) == 0):
        os.environ["CARS_REEXEC"] = "1"
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(debian, [debian, os.path.abspath(sys.argv[0])] + sys.argv[1:])
    raise ToolError("%s has no PyYAML module (needed to read clang-tidy's "
                    "exported diagnostics): install python3-yaml (Debian) or "
                    "'pip install pyyaml', or run with /usr/bin/python3"
                    % sys.executable)


def _load_fixes(path):
    yaml = load_yaml_module()
    try:
        with open(path) as f:
            data = yaml.safe_load(f) or {}
    except FileNotFoundError:
        return []
    return data.get("Diagnostics") or []


def _line_col(path, offset, cache):
    """1-based line and column (in Unicode code points) of a byte offset."""
    if path not in cache:
        try:
            with open(path, "rb") as f:
                cache[path] = f.read()
        except OSError:
            cache[path] = None
    data = cache[path]
    if data is None:
        return None, None
    before = data[:offset]
    line = before.count(b"\n") + 1
    start = before.rfind(b"\n") + 1
    col = len(before[start:].decode("utf-8", "replace")) + 1
    return line, col


def _line_text(path, line, cache):
    data = cache.get(path)
    if not data or not line:
        return ""
    lines = data.split(b"\n")
    return lines[line - 1].decode("utf-8", "replace") if line <= len(lines) else ""


def _uri(path, root):
    path = os.path.abspath(path)
    rel = os.path.relpath(path, root)
    if rel.startswith(".."):
        return "file://" + path, None
    return rel.replace(os.sep, "/"), "%SRCROOT%"


def diagnostics_to_findings(diags, root):
    """Flattens export-fixes diagnostics into dicts with resolved positions:
    {rule, level, message, path, uri, uri_base, line, col, end_col, text,
    notes: [...]}; level is "error" (a compile error), "warning" or
    "note" (a remark). end_col (exclusive) is that of the diagnostic's first
    range when it ends on the same line; text is the source line. A finding
    reported once per translation unit that includes its header is kept
    once: findings are deduplicated by (rule, file, line, column, message),
    as CodeChecker's report hashes do."""
    cache, out, seen = {}, [], set()

    def where(msg):
        path = msg.get("FilePath") or ""
        offset = int(msg.get("FileOffset", 0))
        line, col = _line_col(path, offset, cache) if path else (None, None)
        uri, base = _uri(path, root) if path else (None, None)
        end_col = None
        for r in msg.get("Ranges") or []:
            if r.get("FilePath") == path and int(r.get("FileOffset", -1)) == offset:
                eline, ecol = _line_col(path, offset + int(r.get("Length", 0)), cache)
                if eline == line and ecol and ecol > col:
                    end_col = ecol
                break
        return {"message": msg.get("Message", ""), "path": path, "uri": uri,
                "uri_base": base, "line": line, "col": col, "end_col": end_col,
                "text": _line_text(path, line, cache)}

    for d in diags:
        f = where(d.get("DiagnosticMessage") or {})
        f["rule"] = d.get("DiagnosticName", "")
        # The diagnostic's own level: -warnings-as-errors makes the gate
        # fail, it does not make the finding an error.
        # A remark (a function the check gave up on, past its budget) is a
        # SARIF note and a GitHub notice: seen, never a failing finding.
        f["level"] = ("error" if f["rule"].startswith("clang-diagnostic-")
                      and d.get("Level") == "Error" else
                      "note" if d.get("Level") == "Remark" else "warning")
        f["notes"] = [where(n) for n in d.get("Notes") or []]
        key = (f["rule"], os.path.realpath(f["path"]) if f["path"] else "",
               f["line"], f["col"], f["message"])
        if key in seen:
            continue
        seen.add(key)
        out.append(f)
    return out


def python_findings(paths, root):
    """The Python front end's findings in paths, as diagnostics_to_findings
    gives them (a file that cannot be read or parsed is one
    clang-diagnostic-error finding, as a translation unit that does not
    compile is)."""
    report = python_front_end()
    out = []

    def where(path, line, col, end_col, message, lines):
        uri, base = _uri(path, root)
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return {"message": message, "path": path, "uri": uri, "uri_base": base,
                "line": line, "col": col, "end_col": end_col, "text": text}

    for path, findings, source, e in report.check_files(list(paths)):
        if e is not None:
            f = (where(path, e.lineno or 1, e.offset or 1, None, e.msg, [])
                 if isinstance(e, SyntaxError) else where(path, 1, 1, None, report.read_error(e), []))
            f.update(rule="clang-diagnostic-error", level="error", notes=[])
            out.append(f)
            continue
        lines = source.splitlines()
        for line, name in findings.not_analysed:
            print("%s:%d:1: remark: %s" % (path, line, report.remark(name)), file=sys.stderr)
        for pf in findings:
            f = where(path, pf.line, pf.col, pf.end_col, pf.message, lines)
            files = getattr(pf, "note_files", None) or [None] * len(pf.notes)
            f.update(rule=CHECK, level="warning",
                     notes=[where(other, l, c, None, t, report.other_lines(other)) if other
                            else where(path, l, c, None, t, lines)
                            for (l, c, t), other in zip(pf.notes, files)])
            out.append(f)
    return out


def python_files(root, changed=None):
    """The repository's tracked .py files (git ls-files), or the changed
    ones; absolute paths."""
    if changed is not None:
        return sorted(p for p in changed if p.endswith(".py") and os.path.isfile(p))
    try:
        p = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", "*.py"],
                           capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise ToolError("cannot list the repository's Python files (git ls-files): %s" % e)
    return [os.path.join(root, f) for f in p.stdout.decode().split("\0") if f]


RULE_TEXT = (
    "Host code reads or writes the destination of an asynchronous "
    "device-to-host copy (cudaMemcpyAsync and its relatives, the driver API, "
    "HIP, libtorch's to(kCPU, non_blocking) and copy_) before a "
    "synchronization that covers the copy, or a device-to-host copy reads "
    "its source before the work on another stream that writes it has "
    "finished. Either way the host sees stale data, intermittently.")
RULE_HELP_TEXT = (
    RULE_TEXT + " Fix: synchronize the copy's stream (cudaStreamSynchronize, "
    "stream.synchronize()), an event recorded after the copy, or the device "
    "before the access; for the second diagnostic, record an event on the "
    "producing stream after the write and make the copy's stream wait for it "
    "(cudaStreamWaitEvent, CUDAEvent::block, wait_stream). The notes show the "
    "copy and the synchronization that does not cover it.")
RULE_HELP_MARKDOWN = """**cuda-async-read-before-sync** finds host code that touches the destination of an asynchronous device-to-host copy before a synchronization that covers the copy:

```cpp
cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
use(h[0]);                 // warning: read before the copy is complete
cudaStreamSynchronize(s);
```

and device-to-host copies issued on a stream that nothing made wait for the work writing their source on another stream.

**Fix:** synchronize the copy's stream, an event recorded after the copy, or the device before the access (`cudaStreamSynchronize(s);`, `stream.synchronize();`, `torch::cuda::synchronize();`). For a copy that reads its source too early, record an event on the producing stream after the write and wait for it on the copy's stream (`cudaEventRecord` + `cudaStreamWaitEvent`; libtorch `CUDAEvent::record` + `block`; Python `wait_stream`).

The related locations show the copy and the synchronization that does not cover it."""


def _note_label(message):
    """A short name for a note, for the result message's links."""
    m = message.lower()
    if m.startswith("nothing makes"):
        return "missing order"
    if m.startswith("insert "):
        return "fix"
    if m.startswith("this call leaves"):
        return "copy"
    if m.startswith("this ") or m.startswith("the call"):
        return "synchronization"
    if " is written on " in m:
        return "write"
    if "copy" in m:
        return "copy"
    return "note"


def _fingerprint(f, occurrence):
    """Stable across runs and line moves: the rule, the file, the message and
    the finding's source line (whitespace-normalised), plus which of several
    identical ones it is; no line number."""
    import hashlib
    text = " ".join((f.get("text") or "").split())
    key = "\0".join([f["rule"], f["uri"] or "", f["message"], text,
                     str(occurrence)])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def findings_to_sarif(findings, root, version, llvm_major, help_uri=None,
                      failures=()):
    """A SARIF 2.1.0 log (a dict, built with the standard library alone).
    Check findings become results (level from the diagnostic, the notes as
    relatedLocations the message links to, partialFingerprints); compile
    errors (clang-diagnostic-*) and the gate's own failures (strings) become
    tool execution notifications, and executionSuccessful is false."""

    def location(f, with_end=True):
        loc = {"physicalLocation": {"artifactLocation": {"uri": f["uri"]}}}
        if f["uri_base"]:
            loc["physicalLocation"]["artifactLocation"]["uriBaseId"] = f["uri_base"]
        if f["line"]:
            region = {"startLine": f["line"], "startColumn": f["col"]}
            if with_end and f.get("end_col"):
                region["endColumn"] = f["end_col"]
            loc["physicalLocation"]["region"] = region
        return loc

    results, notifications, rule_ids, counts = [], [], [], {}
    for text in failures:
        notifications.append({"level": "error", "message": {"text": text}})
    for f in findings:
        if f["rule"].startswith("clang-diagnostic-"):
            # The translation unit could not be (fully) analysed: a tool
            # problem, not a code-scanning alert.
            n = {"level": "error", "message": {"text": f["message"]},
                 "descriptor": {"id": f["rule"]}}
            if f["uri"]:
                n["locations"] = [location(f)]
            notifications.append(n)
            continue
        if f["rule"] not in rule_ids:
            rule_ids.append(f["rule"])
        related, links = [], []
        for n in f["notes"]:
            if not n["uri"]:
                continue
            loc = location(n)
            loc["id"] = len(related) + 1
            loc["message"] = {"text": n["message"]}
            related.append(loc)
            links.append("[%s](%d)" % (_note_label(n["message"]), loc["id"]))
        message = f["message"]
        if links:
            message += " (see " + ", ".join(links) + ")"
        base = (f["rule"], f["uri"], f["message"], " ".join(f["text"].split()))
        occurrence = counts.get(base, 0)
        counts[base] = occurrence + 1
        r = {"ruleId": f["rule"], "ruleIndex": rule_ids.index(f["rule"]),
             "level": f["level"], "message": {"text": message},
             "locations": [location(f)],
             "partialFingerprints": {
                 "cudaAsyncReadBeforeSync/v1": _fingerprint(f, occurrence)}}
        if related:
            r["relatedLocations"] = related
        results.append(r)

    rules = []
    for rid in rule_ids:
        rule = {"id": rid, "name": rid,
                "defaultConfiguration": {"level": "warning"}}
        if rid == CHECK:
            rule["shortDescription"] = {
                "text": "Host access to the destination of an asynchronous "
                        "device-to-host copy before it is known to be complete"}
            rule["fullDescription"] = {"text": RULE_TEXT}
            rule["help"] = {"text": RULE_HELP_TEXT, "markdown": RULE_HELP_MARKDOWN}
            if help_uri:
                rule["helpUri"] = help_uri
        else:
            rule["shortDescription"] = {"text": "clang-tidy check %s" % rid}
        rules.append(rule)
    driver = {"name": "cuda-async-read-before-sync", "version": version,
              "rules": rules, "properties": {"tags": ["clang-tidy-%d" % llvm_major]}}
    if help_uri:
        driver["informationUri"] = help_uri
    invocation = {"executionSuccessful": not notifications}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    run = {"tool": {"driver": driver}, "results": results,
           "columnKind": "unicodeCodePoints",
           "originalUriBaseIds": {"%SRCROOT%": {
               "uri": "file://" + root.rstrip("/") + "/"}},
           "invocations": [invocation]}
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0", "runs": [run]}


def github_annotation(f):
    """A GitHub Actions workflow command for one finding."""
    def esc_data(s):
        return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    def esc_prop(s):
        return esc_data(s).replace(":", "%3A").replace(",", "%2C")

    path = f["uri"] if f["uri_base"] else f["path"]
    props = ["file=" + esc_prop(path)]
    if f["line"]:
        props += ["line=%d" % f["line"], "col=%d" % f["col"]]
    props.append("title=" + esc_prop(f["rule"]))
    msg = f["message"]
    for n in f["notes"]:
        if n["line"]:
            msg += "\n%s:%d:%d: note: %s" % (os.path.basename(n["path"]), n["line"],
                                              n["col"], n["message"])
    level = "notice" if f["level"] == "note" else f["level"]
    return "::%s %s::%s" % (level, ",".join(props), esc_data(msg))


def main_guard(fn):
    try:
        sys.exit(fn())
    except ToolError as e:
        prog = os.path.basename(sys.argv[0])
        print("%s: error: %s" % (prog, e), file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
