"""Shared code of the cuda-async-read-before-sync commands (tools/).

Three concerns, used by the launcher, the compile-database translator and the
CI gate:

* where the plugin is and which clang-tidy it was built for (a plugin only
  loads into the clang-tidy of the LLVM major version it was compiled
  against, so the pairing is recorded at build time in a toolchain file next
  to the plugin);
* turning nvcc entries of a compile_commands.json into clang-CUDA ones;
* turning clang-tidy's --export-fixes YAML into SARIF 2.1.0.

Only the Python standard library is imported at module level; the SARIF and
YAML code imports Debian's python3-yaml and python3-sarif-python-om lazily,
so the launcher works without them.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

# The LLVM versions the plugin is built and tested against (README).
SUPPORTED_LLVM_MAJORS = (22, 19)

CHECK = "cuda-async-read-before-sync"
PLUGIN_NAME = "CudaAsyncReadBeforeSync.so"
TOOLCHAIN_NAME = "CudaAsyncReadBeforeSync.toolchain.json"
PKG_DIR = "cuda-async-read-before-sync"
INFO_URI = "https://github.com/cuda-async-read-before-sync/cuda-async-read-before-sync"


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


def find_plugin():
    for c in plugin_candidates():
        if os.path.isfile(c):
            return c
    raise ToolError(
        "cannot find %s (looked in: %s); build it (bash scripts/setup.sh), "
        "install the package, or set CARS_PLUGIN"
        % (PLUGIN_NAME, ", ".join(plugin_candidates())))


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


# --------------------------------------------------------------------------
# nvcc compile databases
# --------------------------------------------------------------------------

# nvcc options whose value is a separate argument (unless given with '=') and
# which do not matter to a host-side analysis: dropped with their value.
_NVCC_VALUE_OPTS = {
    "-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options", "-Xlinker",
    "--linker-options", "-Xnvlink", "--nvlink-options", "-Xarchive",
    "--archive-options", "-Xcudafe", "-Xfatbin", "--fatbin-options",
    "-maxrregcount", "--maxrregcount", "-t", "--threads", "-cudart", "--cudart",
    "-cudadevrt", "--cudadevrt", "-rdc", "--relocatable-device-code", "-MF",
    "-MT", "-MQ", "-odir", "--output-directory", "-l", "--library", "-L",
    "--library-path", "-ldir", "--libdevice-directory", "-target-dir",
    "--target-directory", "--diag-suppress", "-diag-suppress", "--diag-error",
    "-diag-error", "--diag-warn", "-diag-warn", "-split-compile",
    "--split-compile", "-ftz", "--ftz", "-prec-div", "--prec-div", "-prec-sqrt",
    "--prec-sqrt", "-fmad", "--fmad", "-dopt", "--dopt", "-time", "--time",
    "-keep-dir", "--keep-dir", "-o", "--output-file", "-Xnvlink", "-m",
    "--machine", "-dlto", "-arch-ls", "--run-args", "-run-args", "-depfile",
    "--dependency-output", "-MJ", "--generate-dependencies-with-compile",
}
_NVCC_WERROR_KINDS = {"all-warnings", "cross-execution-space-call", "reorder",
                      "default-stream-launch", "missing-launch-bounds",
                      "ext-lambda-captures-this", "deprecated-declarations"}

# Option spellings that take a value: canonical name -> spellings.
_VALUED = {
    "I": ("-I", "--include-path"),
    "isystem": ("-isystem", "--system-include"),
    "iquote": ("-iquote",),
    "idirafter": ("-idirafter",),
    "D": ("-D", "--define-macro"),
    "U": ("-U", "--undefine-macro"),
    "include": ("-include", "--pre-include"),
    "std": ("-std", "--std"),
    "x": ("-x", "--x"),
    "arch": ("-arch", "--gpu-architecture"),
    "gencode": ("-gencode", "--generate-code"),
    "code": ("-code", "--gpu-code"),
    "default-stream": ("-default-stream", "--default-stream"),
    "Xcompiler": ("-Xcompiler", "--compiler-options"),
    "optf": ("-optf", "--options-file"),
}
_SPELLING = {s: name for name, spells in _VALUED.items() for s in spells}
# Spellings that also take their value glued on (-I/path, -DNAME).
_GLUED = {"-I": "I", "-D": "D", "-U": "U", "-isystem": "isystem",
          "-iquote": "iquote", "-idirafter": "idirafter"}


def is_nvcc(args):
    return bool(args) and os.path.basename(args[0]) in ("nvcc", "nvcc.exe")


def _split_valued(args, i):
    """(name, value, next_index) if args[i] is a value-taking option we use,
    else None."""
    a = args[i]
    if "=" in a and a.startswith("-"):
        head, val = a.split("=", 1)
        if head in _SPELLING:
            return _SPELLING[head], val, i + 1
    if a in _SPELLING:
        if i + 1 < len(args):
            return _SPELLING[a], args[i + 1], i + 2
        return None
    for prefix in sorted(_GLUED, key=len, reverse=True):
        if a.startswith(prefix) and len(a) > len(prefix) and not a.startswith("--"):
            return _GLUED[prefix], a[len(prefix):], i + 1
    return None


def _read_options_file(path, directory):
    full = path if os.path.isabs(path) else os.path.join(directory, path)
    try:
        with open(full) as f:
            return shlex.split(f.read())
    except OSError:
        raise ToolError(
            "nvcc options file %s is missing (the Ninja generator writes these "
            "at build time: build the project once, or configure with "
            "-DCMAKE_CUDA_USE_RESPONSE_FILE_FOR_INCLUDES=OFF)" % full)


def _expand_options_files(args, directory, depth=0):
    out, i = [], 0
    while i < len(args):
        sv = _split_valued(args, i)
        if sv and sv[0] == "optf":
            if depth > 8:
                raise ToolError("nvcc options files nest too deeply")
            out += _expand_options_files(
                _read_options_file(sv[1], directory), directory, depth + 1)
            i = sv[2]
        else:
            out.append(args[i])
            i += 1
    return out


def _archs(name, value):
    """sm_XX architectures named by -arch/-code/-gencode values."""
    if name == "gencode":
        m = re.search(r"code=\[?([^\]]*)\]?", value)
        parts = m.group(1).split(",") if m else []
        a = re.search(r"arch=(\w+)", value)
        parts.append(a.group(1) if a else "")
    else:
        parts = value.split(",")
    out = []
    for p in parts:
        m = re.fullmatch(r"(?:sm|compute|lto)_(\d+[a-z]?)", p.strip())
        if m:
            out.append("sm_" + m.group(1))
    return out


def _host_flags(tokens):
    """The preprocessor-relevant part of host-compiler flags (-Xcompiler
    values, and unknown flags nvcc forwards to the host compiler)."""
    out, i = [], 0
    while i < len(tokens):
        sv = _split_valued(tokens, i)
        if sv and sv[0] in ("I", "isystem", "iquote", "idirafter", "D", "U",
                            "include", "std"):
            out += _emit(sv[0], sv[1])
            i = sv[2]
        else:
            i += 1
    return out


def _emit(name, val):
    if name in ("I", "D", "U"):
        return ["-" + name + val]
    if name == "std":
        return ["-std=" + val]
    return ["-" + name, val]


def _has_cuda_headers(root):
    return bool(root) and os.path.isfile(os.path.join(root, "include", "cuda_runtime.h"))


def _nvcc_top(path):
    """TOP= of `nvcc -dryrun`: the toolkit root nvcc itself compiles against,
    or None where nvcc does not run or does not say."""
    try:
        p = subprocess.run([path, "-dryrun", "-x", "cu", "-E", os.devnull],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, errors="replace", timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"^#\$ TOP=(.*)$", p.stdout, re.M)
    return os.path.normpath(m.group(1).strip()) if m else None


_CUDA_ROOTS = {}


def cuda_root_of(nvcc):
    """The CUDA toolkit root (the directory whose include/ holds
    cuda_runtime.h) behind the nvcc command `nvcc`, for clang's --cuda-path.

    nvcc is often not in its toolkit's bin/: /usr/bin/nvcc may be a symlink,
    /usr/local/bin/nvcc a wrapper script (`exec /usr/local/cuda-13.0/bin/nvcc
    "$@"`). Candidates, first with the headers wins: the directory above
    nvcc's own; the same with symlinks resolved; TOP= of `nvcc -dryrun` (what
    nvcc itself uses); $CUDA_PATH; $CUDA_HOME; /usr/local/cuda. With none,
    the first candidate, so that clang's own error names a path."""
    path = nvcc if os.sep in nvcc else (shutil.which(nvcc) or "")
    if path in _CUDA_ROOTS:
        return _CUDA_ROOTS[path]
    above = os.path.dirname(os.path.dirname(path)) if path else ""
    lazy = [lambda: above,
            lambda: os.path.dirname(os.path.dirname(os.path.realpath(path))) if path else "",
            lambda: _nvcc_top(path) if path else None,
            lambda: os.environ.get("CUDA_PATH"),
            lambda: os.environ.get("CUDA_HOME"),
            lambda: "/usr/local/cuda"]
    root = next((r for r in (c() for c in lazy) if _has_cuda_headers(r)),
                above or "/usr/local/cuda")
    _CUDA_ROOTS[path] = root
    return root


def translate_nvcc(args, directory, file):
    """clang-CUDA arguments for one nvcc invocation, host side only."""
    root = cuda_root_of(args[0])
    args = _expand_options_files(list(args[1:]), directory)
    flags, archs, lang, ptds = [], [], None, False
    i = 0
    while i < len(args):
        a = args[i]
        sv = _split_valued(args, i)
        if sv:
            name, val, i = sv
            if name in ("I", "isystem", "iquote", "idirafter", "D", "U", "include", "std"):
                flags += _emit(name, val)
            elif name == "x":
                lang = {"cu": "cuda", "c++": "c++", "c": "c"}.get(val, val)
            elif name in ("arch", "gencode", "code"):
                archs += _archs(name, val)
            elif name == "default-stream":
                ptds = val == "per-thread"
            elif name == "Xcompiler":
                flags += _host_flags(val.split(","))
            continue
        if a in _NVCC_VALUE_OPTS:
            i += 2
            continue
        if a in ("-Werror", "--Werror") and i + 1 < len(args) and \
                args[i + 1].split(",")[0] in _NVCC_WERROR_KINDS:
            i += 2
            continue
        i += 1  # anything else: nvcc-only, or host flags that do not matter
    if lang is None:
        ext = os.path.splitext(file)[1].lower()
        lang = "cuda" if ext in (".cu", ".cuh") else "c" if ext == ".c" else "c++"
    out = ["clang" if lang == "c" else "clang++", "-x", lang]
    if lang == "cuda":
        arch = os.environ.get("CARS_CUDA_GPU_ARCH") or (archs[0] if archs else None)
        out += ["--cuda-host-only", "-nocudalib", "--cuda-path=" + root,
                "--no-cuda-version-check", "-Wno-unknown-cuda-version"]
        if arch:
            out.append("--cuda-gpu-arch=" + arch)
    else:
        out += ["-isystem", os.path.join(root, "include")]
    # CUDA 12.x+/13 keep CCCL (cuda/std, cub, thrust) under include/cccl,
    # which nvcc adds by itself and clang does not.
    cccl = os.path.join(root, "include", "cccl")
    if os.path.isdir(cccl):
        out += ["-isystem", cccl]
    if ptds:
        out.append("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1")
    out += flags
    out += ["-c", file]
    return out


def translate_entry(entry):
    if "arguments" in entry:
        args = list(entry["arguments"])
    else:
        args = shlex.split(entry.get("command", ""))
    # Compiler launchers (ccache nvcc ...).
    while args and os.path.basename(args[0]) in ("ccache", "sccache") and len(args) > 1:
        args = args[1:]
    if not is_nvcc(args):
        return entry, False
    new = {"directory": entry["directory"], "file": entry["file"],
           "arguments": translate_nvcc(args, entry["directory"], entry["file"])}
    if "output" in entry:
        new["output"] = entry["output"]
    return new, True


def database_path(p):
    """compile_commands.json named by a -p value (a build dir or the file)."""
    if os.path.isdir(p):
        return os.path.join(p, "compile_commands.json")
    return p


def translate_database(src, out_dir):
    """Writes out_dir/compile_commands.json; returns the number of nvcc
    entries translated."""
    try:
        with open(src) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError("cannot read compile database %s: %s" % (src, e))
    result, n = [], 0
    for e in entries:
        new, changed = translate_entry(e)
        result.append(new)
        n += changed
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compile_commands.json"), "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    return n


# --------------------------------------------------------------------------
# SARIF
# --------------------------------------------------------------------------

def _load_fixes(path):
    import yaml  # python3-yaml
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


def _uri(path, root):
    path = os.path.abspath(path)
    rel = os.path.relpath(path, root)
    if rel.startswith(".."):
        return "file://" + path, None
    return rel.replace(os.sep, "/"), "%SRCROOT%"


def diagnostics_to_findings(diags, root):
    """Flattens export-fixes diagnostics into dicts with resolved positions:
    {rule, level, message, path, uri, uri_base, line, col, notes: [...]}"""
    cache, out = {}, []

    def where(msg):
        path = msg.get("FilePath") or ""
        line, col = _line_col(path, int(msg.get("FileOffset", 0)), cache) if path else (None, None)
        uri, base = _uri(path, root) if path else (None, None)
        return {"message": msg.get("Message", ""), "path": path, "uri": uri,
                "uri_base": base, "line": line, "col": col}

    for d in diags:
        f = where(d.get("DiagnosticMessage") or {})
        f["rule"] = d.get("DiagnosticName", "")
        f["level"] = "error" if d.get("Level") == "Error" else "warning"
        f["notes"] = [where(n) for n in d.get("Notes") or []]
        out.append(f)
    return out


def findings_to_sarif(findings, root, version, llvm_major):
    """A SARIF 2.1.0 log (a dict) built with Debian's python3-sarif-python-om
    (Microsoft's generated object model, the classes bandit uses) and
    serialized by python3-jschema-to-python."""
    import sarif_om as om
    from jschema_to_python.to_json import to_json

    def location(f):
        region = om.Region(start_line=f["line"], start_column=f["col"]) if f["line"] else None
        art = om.ArtifactLocation(uri=f["uri"], uri_base_id=f["uri_base"])
        return om.Location(physical_location=om.PhysicalLocation(
            artifact_location=art, region=region))

    results, notifications, rule_ids = [], [], []
    for f in findings:
        if f["rule"].startswith("clang-diagnostic-"):
            # The translation unit could not be (fully) analysed: a tool
            # problem, not a code-scanning alert.
            notifications.append(om.Notification(
                message=om.Message(text=f["message"]), level="error",
                locations=[location(f)] if f["uri"] else None,
                descriptor=om.ReportingDescriptorReference(id=f["rule"])))
            continue
        if f["rule"] not in rule_ids:
            rule_ids.append(f["rule"])
        related = []
        for k, n in enumerate(f["notes"]):
            if not n["uri"]:
                continue
            loc = location(n)
            loc.id = k + 1
            loc.message = om.Message(text=n["message"])
            related.append(loc)
        results.append(om.Result(
            rule_id=f["rule"], rule_index=rule_ids.index(f["rule"]),
            level=f["level"], message=om.Message(text=f["message"]),
            locations=[location(f)], related_locations=related or None))

    rules = []
    for rid in rule_ids:
        desc = ("Host code reads or writes the destination of an asynchronous "
                "device-to-host CUDA copy before a synchronization that covers it."
                if rid == CHECK else "clang-tidy check %s" % rid)
        rules.append(om.ReportingDescriptor(
            id=rid, name=rid, short_description=om.MultiformatMessageString(text=desc),
            help_uri=INFO_URI + "/blob/main/docs/integration.md" if rid == CHECK else None))
    driver = om.ToolComponent(
        name="cuda-async-read-before-sync", version=version,
        information_uri=INFO_URI, rules=rules,
        properties=om.PropertyBag(tags=["clang-tidy-%d" % llvm_major]))
    run = om.Run(
        tool=om.Tool(driver=driver), results=results,
        column_kind="unicodeCodePoints",
        original_uri_base_ids={"%SRCROOT%": om.ArtifactLocation(
            uri="file://" + root.rstrip("/") + "/")},
        invocations=[om.Invocation(
            execution_successful=not notifications,
            tool_execution_notifications=notifications or None)])
    log = om.SarifLog(
        version="2.1.0", runs=[run],
        schema_uri="https://json.schemastore.org/sarif-2.1.0.json")
    return json.loads(to_json(log))


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
    return "::%s %s::%s" % (f["level"], ",".join(props), esc_data(msg))


def main_guard(fn):
    try:
        sys.exit(fn())
    except ToolError as e:
        prog = os.path.basename(sys.argv[0])
        print("%s: error: %s" % (prog, e), file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
