"""Shared code of the cuda-async-read-before-sync commands (tools/).

Used by the launcher, the hook and the CI gate (compile databases are
cars_compdb.py's, incremental summaries cars_summaries.py's):

* where the plugin is and which clang-tidy it was built for (a plugin only
  loads into the clang-tidy of the LLVM major version it was compiled
  against, so the pairing is recorded at build time in a toolchain file next
  to the plugin, with the commit built; without that file, the major is read
  from the plugin's ELF file), and where the Python front end is;
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
import struct
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


def _plugin_at(path):
    """Where a path the user gives may hold the plugin: it is the plugin,
    a directory holding it, or an install prefix (PREFIX/lib/<pkg>/)."""
    if not os.path.isdir(path):
        return [path]
    return [os.path.join(path, PLUGIN_NAME),
            os.path.join(path, "lib", PKG_DIR, PLUGIN_NAME)]


def _beside(commands_dir):
    """Where the plugin is relative to a directory of the commands: the
    installed layout (<prefix>/bin/<command>, this module and the plugin in
    <prefix>/lib/cuda-async-read-before-sync/), or a source checkout's
    tools/ built with scripts/setup.sh (build/checker/)."""
    return [os.path.join(commands_dir, PLUGIN_NAME),
            os.path.join(commands_dir, "..", "lib", PKG_DIR, PLUGIN_NAME),
            os.path.join(commands_dir, "..", "build", "checker", PLUGIN_NAME)]


def plugin_candidates():
    """Where the plugin is looked for, first match wins."""
    if os.environ.get("CARS_PLUGIN"):
        return [os.path.normpath(c) for c in _plugin_at(os.environ["CARS_PLUGIN"])]
    cands = []
    if os.environ.get("CARS_BUILD_DIR"):
        cands.append(os.path.join(os.environ["CARS_BUILD_DIR"], "checker", PLUGIN_NAME))
    cands += _beside(_here())
    # The commands installed on PATH (`cmake --install build --prefix P` with
    # P/bin on PATH): what pre-commit's clone of this repository, which has
    # no build of its own, runs against, as does the .deb (/usr/lib) below.
    for d in os.environ.get("PATH", "").split(os.pathsep):
        launcher = os.path.join(d or ".", "cuda-async-read-before-sync")
        if os.path.isfile(launcher) and os.access(launcher, os.X_OK):
            cands += _beside(os.path.dirname(os.path.abspath(launcher)))
            cands += _beside(os.path.dirname(os.path.realpath(launcher)))
    for prefix in (os.path.expanduser("~/.local"), "/usr/local", "/usr"):
        cands.append(os.path.join(prefix, "lib", PKG_DIR, PLUGIN_NAME))
    out = []
    for c in map(os.path.normpath, cands):
        if c not in out:
            out.append(c)
    return out


def _in_precommit_cache(path):
    cache = os.environ.get("PRE_COMMIT_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "pre-commit")
    return os.path.realpath(path).startswith(os.path.realpath(cache) + os.sep)


def find_plugin():
    cands = plugin_candidates()
    for c in cands:
        if os.path.isfile(c):
            return c
    looked = "looked in: %s" % ", ".join(cands)
    if os.environ.get("CARS_PLUGIN"):
        raise ToolError("cannot find %s at CARS_PLUGIN=%s (%s): set it to the plugin, "
                        "the directory holding it or its install prefix"
                        % (PLUGIN_NAME, os.environ["CARS_PLUGIN"], looked))
    if _in_precommit_cache(_here()):
        # Run from pre-commit's clone of this repository: building there is
        # no fix (pre-commit may replace it); the plugin is installed.
        raise ToolError(
            "cannot find %s (%s): pre-commit runs this hook from its own clone, "
            "which has no build; install the plugin of the hook's rev (the .deb, "
            "or `cmake --install build --prefix PREFIX` of a build of this "
            "repository, with PREFIX/bin on PATH), or give the hook `args: "
            "[--plugin=PREFIX]` in .pre-commit-config.yaml, or set CARS_PLUGIN "
            "(the plugin, or its install prefix)" % (PLUGIN_NAME, looked))
    raise ToolError(
        "cannot find %s (%s); build it (bash scripts/setup.sh), install it "
        "(the .deb, or `cmake --install build --prefix PREFIX` with PREFIX/bin "
        "on PATH), or set CARS_PLUGIN (the plugin, or its install prefix)"
        % (PLUGIN_NAME, looked))


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


TOOLCHAIN_KEYS = (
    'a JSON object with "llvm_major" (the LLVM major version the plugin was '
    'compiled against, e.g. 22) and "clang_tidy" (the clang-tidy of that '
    'major, e.g. "/usr/lib/llvm-22/bin/clang-tidy"); optional: '
    '"run_clang_tidy" (for the gate), "version", "commit"')


def plugin_toolchain(plugin):
    """{'llvm_major': int, 'clang_tidy': path, 'run_clang_tidy': path,
    'version': str, 'commit': str} recorded next to the plugin when it was
    built; None when there is no such file."""
    path = os.path.join(os.path.dirname(plugin), TOOLCHAIN_NAME)
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            tc = json.load(f)
        tc["llvm_major"] = int(tc["llvm_major"])
        return tc
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ToolError("cannot read %s (%s): it records the LLVM version the "
                        "plugin was built for, %s; rebuild or reinstall, or "
                        "remove it to have the version read from the plugin"
                        % (path, e, TOOLCHAIN_KEYS))


def elf_llvm_major(path):
    """(LLVM major, where it was read) from a shared object with the
    standard library: a DT_NEEDED libLLVM/libclang-cpp of a version (a
    plugin linked against the LLVM dylib), else the clang version in its
    .comment section (the compiler that built it, which this project's
    build takes from the same LLVM); (None, None) when neither says."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        if data[:4] != b"\x7fELF" or data[4] != 2:  # ELF64 only
            return None, None
        e = "<" if data[5] == 1 else ">"
        shoff = struct.unpack_from(e + "Q", data, 0x28)[0]
        shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x3A)
        secs = [struct.unpack_from(e + "IIQQQQI", data, shoff + k * shentsize)
                for k in range(shnum)]

        def cstr(off):
            return data[off:data.index(b"\0", off)].decode("latin-1")

        for name, typ, _, _, off, size, link in secs:
            if typ != 6:  # SHT_DYNAMIC: (tag, value) pairs; DT_NEEDED is 1
                continue
            for k in range(off, off + size, 16):
                tag, val = struct.unpack_from(e + "qQ", data, k)
                if tag == 0:
                    break
                lib = cstr(secs[link][4] + val) if tag == 1 else ""
                m = re.match(r"lib(?:LLVM|clang-cpp)(?:-(\d+))?\.so(?:\.(\d+))?", lib)
                if m and (m.group(1) or m.group(2)):
                    return int(m.group(1) or m.group(2)), "its DT_NEEDED " + lib
        names = secs[shstrndx][4]
        for name, typ, _, _, off, size, link in secs:
            if cstr(names + name) == ".comment":
                m = re.search(rb"clang version (\d+)\.", data[off:off + size])
                if m:
                    return int(m.group(1)), "its .comment section (clang version %s)" % (
                        m.group(1).decode())
    except (OSError, ValueError, IndexError, struct.error):
        pass
    return None, None


def _loads(clang_tidy, plugin):
    """Whether this clang-tidy loads the plugin and lists the check."""
    try:
        out = subprocess.run([clang_tidy, "--load=" + plugin, "--checks=-*," + CHECK,
                              "--list-checks"], capture_output=True, text=True).stdout
    except OSError:
        return False
    return CHECK in out.split()


def _clang_tidy_of(major):
    """The clang-tidy of an LLVM major version found here, or None."""
    for c in (shutil.which("clang-tidy-%d" % major),
              "/usr/lib/llvm-%d/bin/clang-tidy" % major, shutil.which("clang-tidy")):
        if c and os.access(c, os.X_OK):
            try:
                if clang_tidy_major(c) == major:
                    return c
            except ToolError:
                pass
    return None


def _infer_toolchain(plugin):
    """The toolchain of a plugin without a toolchain file: the major read
    from its ELF file, or else the first clang-tidy found that loads it."""
    major, where = elf_llvm_major(plugin)
    if major:
        return {"llvm_major": major, "inferred": "LLVM %d read from %s" % (major, where)}
    tried = []
    for c in [os.environ.get("CARS_CLANG_TIDY"), shutil.which("clang-tidy")] + [
            _clang_tidy_of(m) for m in SUPPORTED_LLVM_MAJORS]:
        if c and c not in tried and shutil.which(c):
            tried.append(c)
            if _loads(c, plugin):
                m = clang_tidy_major(c)
                return {"llvm_major": m, "clang_tidy": c,
                        "inferred": "LLVM %d: %s loads it" % (m, c)}
    raise ToolError(
        "cannot tell which LLVM %s was built for: there is no %s beside it, its "
        "ELF file names no libLLVM/libclang-cpp version and no clang version, "
        "and no clang-tidy found loads it (tried: %s). Rebuild or reinstall it, "
        "or write that file: %s"
        % (plugin, TOOLCHAIN_NAME, ", ".join(tried) or "none", TOOLCHAIN_KEYS))


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
    """(plugin, clang_tidy, toolchain) after checking that they match. The
    toolchain is the plugin's toolchain file, or without one what
    _infer_toolchain reads (then with 'inferred': how), checked by loading."""
    plugin = find_plugin()
    tc = plugin_toolchain(plugin)
    if tc is None:
        tc = _infer_toolchain(plugin)
    clang_tidy = os.environ.get("CARS_CLANG_TIDY") or tc.get("clang_tidy")
    if not clang_tidy or not shutil.which(clang_tidy):
        fallback = _clang_tidy_of(tc["llvm_major"])
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
    if "inferred" in tc and not _loads(clang_tidy, plugin):
        raise ToolError(
            "%s does not load %s (%s; there is no %s beside it): rebuild or "
            "reinstall the plugin, or write that file: %s"
            % (clang_tidy, plugin, tc["inferred"], TOOLCHAIN_NAME, TOOLCHAIN_KEYS))
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


def load_fixes_file(path):
    """A clang-tidy --export-fixes file as a mapping (MainSourceFile,
    Diagnostics); empty where clang-tidy wrote none (no diagnostics)."""
    yaml = load_yaml_module()
    try:
        with open(path) as f:
            return yaml.safe_load(f) or {}
    except FileNotFoundError:
        return {}


def _load_fixes(path):
    return load_fixes_file(path).get("Diagnostics") or []


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
    as CodeChecker's report hashes do; units is the set of the translation
    units that reported it (a diagnostic's CarsUnit key, where the gate set
    it). fixes are the fix-its, the diagnostic's own and its notes' (each
    one alternative): {description, changes: [{path, uri, uri_base,
    replacements: [{offset, length, text, char_offset, char_length,
    start: (line, col), end: (line, col)}]}]}."""
    cache, out, seen = {}, [], {}

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

    def fix(msg, description):
        changes = {}
        for r in msg.get("Replacements") or []:
            path = r.get("FilePath") or ""
            offset, length = int(r.get("Offset", 0)), int(r.get("Length", 0))
            start = _line_col(path, offset, cache) if path else (None, None)
            end = _line_col(path, offset + length, cache) if path else (None, None)
            if start[0] is None or end[0] is None:
                return None  # a fix that cannot be placed is no fix
            data = cache[path]
            char_offset = len(data[:offset].decode("utf-8", "replace"))
            char_length = len(data[offset:offset + length].decode("utf-8", "replace"))
            if path not in changes:
                uri, base = _uri(path, root)
                changes[path] = {"path": path, "uri": uri, "uri_base": base,
                                 "replacements": []}
            changes[path]["replacements"].append({
                "offset": offset, "length": length,
                "text": r.get("ReplacementText") or "",
                "char_offset": char_offset, "char_length": char_length,
                "start": start, "end": end})
        return {"description": description, "changes": list(changes.values())} \
            if changes else None

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
        fixes = [fix(d.get("DiagnosticMessage") or {}, "apply the fix-it")]
        fixes += [fix(n, n.get("Message") or "apply the fix-it") for n in d.get("Notes") or []]
        f["fixes"] = [x for x in fixes if x]
        key = (f["rule"], os.path.realpath(f["path"]) if f["path"] else "",
               f["line"], f["col"], f["message"])
        unit = d.get("CarsUnit")
        if key in seen:
            if unit:
                seen[key]["units"].add(unit)
            continue
        f["units"] = {unit} if unit else set()
        seen[key] = f
        out.append(f)
    return out


# The rule of a Python file that cannot be read or parsed
# (cars_python.SYNTAX_RULE): an error of its unit, as clang's are.
PYTHON_SYNTAX_RULE = "cuda-async-read-before-sync-python-syntax"


def is_unit_error(rule):
    """Does a finding of this rule say that its file could not be (fully)
    analysed: a clang compile error (clang-diagnostic-*) or a Python file
    that does not parse? Such findings are tool problems (SARIF
    notifications), not code-scanning alerts."""
    return rule.startswith("clang-diagnostic-") or rule == PYTHON_SYNTAX_RULE


def python_findings(paths, root):
    """The Python front end's findings in paths, as diagnostics_to_findings
    gives them (a file that cannot be read or parsed is one
    PYTHON_SYNTAX_RULE error finding, as a translation unit that does not
    compile is a clang-diagnostic-error one)."""
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
            f.update(rule=PYTHON_SYNTAX_RULE, level="error", notes=[])
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


def _sarif_fix(fix):
    """A SARIF 2.1.0 fix object of one of diagnostics_to_findings' fixes:
    per file, replacements whose deletedRegion gives both the lines and
    columns (Unicode code points, as the run's columnKind says) and
    charOffset/charLength; an insertion is an empty region."""
    changes = []
    for c in fix["changes"]:
        loc = {"uri": c["uri"]}
        if c["uri_base"]:
            loc["uriBaseId"] = c["uri_base"]
        changes.append({"artifactLocation": loc, "replacements": [
            {"deletedRegion": {"startLine": r["start"][0], "startColumn": r["start"][1],
                               "endLine": r["end"][0], "endColumn": r["end"][1],
                               "charOffset": r["char_offset"],
                               "charLength": r["char_length"]},
             "insertedContent": {"text": r["text"]}}
            for r in c["replacements"]]})
    return {"description": {"text": fix["description"]}, "artifactChanges": changes}


def findings_to_sarif(findings, root, version, llvm_major, help_uri=None,
                      failures=()):
    """A SARIF 2.1.0 log (a dict, built with the standard library alone).
    Check findings become results (level from the diagnostic, the notes as
    relatedLocations the message links to, partialFingerprints, the
    fix-its as fixes); compile
    errors (is_unit_error) and the gate's own failures (strings) become
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
        if is_unit_error(f["rule"]):
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
        fixes = [_sarif_fix(x) for x in f.get("fixes") or []]
        if fixes:
            r["fixes"] = fixes
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
