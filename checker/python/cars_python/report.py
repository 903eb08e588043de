"""Findings as clang-tidy prints them, suppressions, and the command line
of the Python front end:

    python3 -m cars_python [--warnings-as-errors] [--quiet] FILE.py|DIR ...

Output: `file:line:col: warning: <message> [cuda-async-read-before-sync]`,
the source line and a caret, then the notes (`file:line:col: note: ...`),
as clang-tidy does for the C++ check, with the file's absolute path, as
clang-tidy prints a source file given on its command line (relative or
absolute; with `--` or a CMake compile database); under
--warnings-as-errors, `error: <message> [cuda-async-read-before-sync,
-warnings-as-errors]` and "N warnings treated as errors", as clang-tidy's
--warnings-as-errors prints them. A function the analysis budget stopped
is a `remark:` line (the C++ check's text), so that silence never means
"not analysed".
Suppressions: `# NOLINT`,
`# NOLINT(cuda-async-read-before-sync)`, `# NOLINTNEXTLINE(...)` (the
next line), and flake8's `# noqa` / `# noqa: CAR001` on the finding's line.
Exit status: 0 (findings are warnings, as clang-tidy's), 1 with findings
under --warnings-as-errors, 2 when a file could not be read or parsed
(one `error:` line each, `[cuda-async-read-before-sync-python-syntax]` for
a syntax error; the other files are still checked).
"""

import argparse
import gc
import io
import os
import re
import sys
import tokenize

from . import CHECK, FLAKE8_CODE, SYNTAX_RULE, analysis
from .project import Project, read_source

NOLINT_RE = re.compile(r"#.*\bNOLINT(NEXTLINE)?\b(\(([^)]*)\))?")
NOQA_RE = re.compile(r"#.*\bnoqa\b(?::\s*([A-Z0-9, ]+))?", re.I)


def _applies(checks):
    if checks is None:
        return True
    return any(c.strip() in (CHECK, "*", "cuda-*") for c in checks.split(","))


def suppressed_lines(source):
    """Lines on which a finding is suppressed, from the source's comments."""
    out = set()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return out
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        line = tok.start[0]
        m = NOLINT_RE.search(tok.string)
        if m and _applies(m.group(3) if m.group(2) else None):
            out.add(line + 1 if m.group(1) else line)
        m = NOQA_RE.search(tok.string)
        if m and (m.group(1) is None or FLAKE8_CODE in m.group(1).upper().replace(" ", "").split(",")):
            out.add(line)
    return out


def unsuppressed(findings, source):
    if not findings:
        return findings  # nothing to suppress: the source is not tokenized
    lines = suppressed_lines(source)
    return [f for f in findings if f.line not in lines]


def shown_path(path):
    """A file as a finding's line names it: absolute, as clang-tidy prints a
    source file named on its command line (the working directory joined to
    a relative one; normalized, as a CMake compile database spells it)."""
    return os.path.abspath(path)


# --warnings-as-errors: clang-tidy's severity word and label for a finding
# of a check it names.
AS_WARNING = ("warning", CHECK)
AS_ERROR = ("error", CHECK + ",-warnings-as-errors")


def format_finding(f, filename, source_lines, severity=AS_WARNING):
    """The finding's lines; filename (and the other files notes point
    into) as shown_path gives them."""
    out = ["%s:%d:%d: %s: %s [%s]" % (shown_path(filename), f.line, f.col, severity[0], f.message,
                                       severity[1])]
    if 0 < f.line <= len(source_lines):
        text = source_lines[f.line - 1].rstrip("\n")
        out.append("%5d | %s" % (f.line, text))
        width = max(1, (f.end_col or f.col + 1) - f.col)
        out.append("      | %s^%s" % (" " * (f.col - 1), "~" * (width - 1)))
    files = getattr(f, "note_files", None) or [None] * len(f.notes)
    for (line, col, text), other in zip(f.notes, files):
        lines = source_lines if other is None else other_lines(other)
        out.append("%s:%d:%d: note: %s" % (shown_path(other or filename), line, col, text))
        if 0 < line <= len(lines):
            out.append("%5d | %s" % (line, lines[line - 1].rstrip("\n")))
            out.append("      | %s^" % (" " * (col - 1)))
    return "\n".join(out)


_OTHER_LINES = {}


def other_lines(path):
    """The lines of another file of the project that a note points into
    (a helper's body); none if it cannot be read now."""
    if path not in _OTHER_LINES:
        try:
            _OTHER_LINES[path] = read_source(path).splitlines()
        except (OSError, ValueError, LookupError):
            _OTHER_LINES[path] = []
    return _OTHER_LINES[path]


# What check_file raises for a file it cannot read or analyse (besides
# SyntaxError), and the one line that says so.
READ_ERRORS = (OSError, ValueError, LookupError, RecursionError)


def read_error(e):
    if isinstance(e, RecursionError):
        return "cannot analyse: expressions nested too deeply"
    return "cannot read: %s" % e


def remark(name):
    """The text for a function the analysis budget stopped (the C++
    check's)."""
    return ("'%s' is not analysed: its analysis needs more work than the check's budget "
            "allows, so its accesses are not checked" % name)


def check_file(path, project=None):
    """(findings, source text) of one file, with the other files of the
    run (a project.Project) when given; raises OSError, SyntaxError,
    ValueError (a NUL byte) or UnicodeDecodeError."""
    from . import check_source
    if os.path.exists(path) and not os.path.isfile(path):
        raise OSError("not a regular file")  # a FIFO or a device would block
    source = read_source(path)
    return check_source(source, path, project), source


def expand(paths):
    """Files as given; a directory stands for its .py files, recursively
    (hidden directories left out), in sorted order."""
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        for d, dirs, files in os.walk(path):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(d, f)


def check_files(paths):
    """Check the files as one project (calls between them are followed):
    (path, findings, source text, None) for each, or (path, None, None,
    the SyntaxError or READ_ERRORS exception) where it cannot be read or
    parsed. The command line and the gate (tools/cars_tooling.py) both
    use it, so both get the run-wide collector handling below."""
    project = Project(paths, analysis.build_module)
    try:
        for i, path in enumerate(paths):
            collect_garbage(i)
            try:
                findings, source = check_file(path, project)
            except (SyntaxError,) + READ_ERRORS as e:
                yield path, None, None, e
                continue
            yield path, findings, source, None
    finally:
        gc.unfreeze()


def run_files(paths, severity=AS_WARNING):
    """Check the files as one project, printing findings and errors as they
    come: (exit status so far, number of findings)."""
    status, total = 0, 0
    for path, findings, source, error in check_files(paths):
        if isinstance(error, SyntaxError):
            print("%s:%s:%s: error: %s [%s]" % (shown_path(path), error.lineno or 1, error.offset or 1,
                                                 error.msg, SYNTAX_RULE), flush=True)
            status = 2
            continue
        if error is not None:
            print("%s: error: %s" % (shown_path(path), read_error(error)), flush=True)
            status = 2
            continue
        lines = source.splitlines()
        for f in findings:
            print(format_finding(f, path, lines, severity), flush=True)
        for line, name in findings.not_analysed:
            print("%s:%d:1: remark: %s [%s]" % (shown_path(path), line, remark(name), CHECK),
                  flush=True)
        total += len(findings)
    return status, total


# Python's cycle collector, left alone, passes over every object alive at
# times, and a run keeps many (the ASTs of the modules the project keeps):
# about half of a run's time on large projects. After each file what is
# alive is frozen (left out of later passes); the analysis leaves little
# in cycles (cfg.CFG.release), which every COLLECT_EVERY files reclaims.
COLLECT_EVERY = 1000


def collect_garbage(i):
    """Before the i-th file of a run (0-based)."""
    if i and i % COLLECT_EVERY == 0:
        gc.unfreeze()
        gc.collect()
    gc.freeze()


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="cuda-async-read-before-sync (Python)",
        description="The check on PyTorch Python files: host uses of an asynchronous "
                    "device-to-host copy's destination before a covering synchronization.")
    ap.add_argument("files", nargs="+", metavar="FILE.py",
                    help="files, or directories (their .py files, recursively)")
    ap.add_argument("--warnings-as-errors", action="store_true",
                    help="exit 1 when there is a finding")
    ap.add_argument("--quiet", action="store_true", help="no summary line on stderr")
    ap.add_argument("--max-block-visits", type=int, metavar="N",
                    help="the analysis budget per function (default %d block visits); a "
                         "function past it gets a remark instead of findings" % analysis.MAX_VISITS)
    ns = ap.parse_args(argv)
    if ns.max_block_visits is not None:
        if ns.max_block_visits < 1:
            ap.error("--max-block-visits must be at least 1")
        analysis.MAX_VISITS = ns.max_block_visits
    from . import _deep
    severity = AS_ERROR if ns.warnings_as_errors else AS_WARNING
    status, total = _deep(run_files, list(expand(ns.files)), severity)  # one large stack for the run
    plural = "" if total == 1 else "s"
    if not ns.quiet and total:
        print("%d warning%s generated." % (total, plural), file=sys.stderr)
        if ns.warnings_as_errors:
            print("%d warning%s treated as error%s" % (total, plural, plural), file=sys.stderr)
    if status == 0 and total and ns.warnings_as_errors:
        status = 1
    return status
