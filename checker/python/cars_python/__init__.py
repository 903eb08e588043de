"""cuda-async-read-before-sync for PyTorch Python code: the check's second
front end. It reads Python source (no torch import) and reports host uses
of the destination of an asynchronous device-to-host copy
(`t.to('cpu', non_blocking=True)`, `dst.copy_(src, non_blocking=True)`)
before a synchronization that covers it, in clang-tidy's output format.

Layout: model.py (the PyTorch API model), cfg.py (a function's control-flow
graph), state.py / module.py / analysis.py / helpers.py / producers.py /
containers.py (the flow analysis), project.py (the run's files as one
project), report.py (findings as text, suppressions, the command line),
flake8.py (the flake8 plugin). Standard
library only; Python 3.8 or newer.
"""

CHECK = "cuda-async-read-before-sync"
VERSION = "0.1.0"  # the project's version (CMakeLists.txt, tools/cars_tooling.py)
FLAKE8_CODE = "CAR001"
# The label of a file that is not valid Python (an error, as clang's
# clang-diagnostic-error is for C++; not clang's, so not its name).
SYNTAX_RULE = CHECK + "-python-syntax"

# A destination without a name (`b.to("cpu", non_blocking=True)[0]` read at
# once) is named by its expression, at most NAME_MAX characters: longer,
# its calls' arguments are elided (`x.float().to(...)`), then it is cut
# (at a `.` where one is near) and ends in "...". The C++ check's
# shortName (checker/ExprUtils.cpp) does the same.
NAME_MAX = 40


def short_name(text):
    """How a message names a buffer spelled `text`: itself, or a short form
    (NAME_MAX)."""
    import re
    text = re.sub(r"\s*\n\s*", "", text.strip())  # one line: `(b\n .to(...))` -> `(b.to(...))`
    if len(text) <= NAME_MAX:
        return text
    text = _elide_arguments(text)
    if len(text) <= NAME_MAX:
        return text
    cut = text[:NAME_MAX - 3]
    dot = cut.rfind(".")
    if dot >= NAME_MAX // 2:
        cut = cut[:dot]
    return cut + "..."


def _elide_arguments(text):
    """`f(a, b).g()[i]` -> `f(...).g()[i]`: the non-empty argument lists of
    calls (a parenthesis after a name, `)` or `]`), strings skipped."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"":
            j = _string_end(text, i)
            out.append(text[i:j])
            i = j
            continue
        if ch == "(" and out and (out[-1][-1:].isalnum() or out[-1][-1:] in "_)]>"):
            j, depth = i + 1, 1
            while j < n and depth:
                if text[j] in "'\"":
                    j = _string_end(text, j)
                    continue
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            inner = text[i + 1:j - 1] if depth == 0 else text[i + 1:]
            out.append("(...)" if inner.strip() else "()")
            i = j
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _string_end(text, i):
    """The index past the string literal that starts at text[i]."""
    quote, j = text[i], i + 1
    while j < len(text) and text[j] != quote:
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, len(text))


_DEEP_THREAD = "cars-python-analysis"


def _deep(fn, *args):
    """fn(*args) on a thread with a large stack and recursion limit: the
    analysis recurses along the AST, and valid code nests deeply (an elif
    chain of 500 branches, a sum of 1000 terms). RecursionError beyond.
    Called on such a thread already (a run of many files is one), it calls
    fn there: a fresh stack per file costs its page faults again."""
    import sys
    import threading
    if threading.current_thread().name == _DEEP_THREAD:
        return fn(*args)
    result, error = [], []

    def run():
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            result.append(fn(*args))
        except BaseException as e:  # handed to the caller's thread
            error.append(e)
        finally:
            sys.setrecursionlimit(old)

    size = threading.stack_size()
    try:
        threading.stack_size(512 * 1024 * 1024)
    except (ValueError, RuntimeError):
        pass
    try:
        t = threading.Thread(target=run, name=_DEEP_THREAD)
        t.start()
        t.join()
    finally:
        threading.stack_size(size)
    if error:
        raise error[0]
    return result[0]


def _compiles(source, filename):
    """Raises SyntaxError where source is not valid Python; its warnings
    (SyntaxWarning, DeprecationWarning) are not shown."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile(source, filename, "exec", dont_inherit=True)


def check_source(source, filename="<string>", project=None):
    """Findings of one module's source text: an analysis.Result, a list of
    analysis.Finding (line, col 1-based, message, notes [(line, col,
    text)]), suppressions applied, whose not_analysed lists the functions
    the analysis budget stopped. With a project.Project of the run's files
    (filename one of them), calls into its other modules are followed.
    Raises SyntaxError on code that does not parse (or, where the project
    tells that the module can reach no copy, that Python does not compile).
    """
    import ast
    from . import analysis, report
    from .project import may_hold_blocking_copy
    path = filename if project is not None else None
    producer_only = False
    if project is not None and not project.may_reach_copy(source) \
            and may_hold_blocking_copy(source):
        producer_only = True  # only blocking copies: the producer diagnostic's
    elif project is not None and not project.may_reach_copy(source):
        # It can issue no copy, nor call code that can: no finding can be
        # in it. Compiled, not parsed, to tell whether it is valid Python
        # (a sixth of the cost: the parse's cost is its Python objects).
        _deep(_compiles, source, filename)
        result = analysis.Result()
        result.not_analysed = []
        return result
    # A module the project already built (an import of a file checked
    # earlier) parsed: its tree is used, not parsed again.
    built = project is not None and project.built(filename)
    found = _deep(lambda: analysis.analyse(None if built else ast.parse(source, filename=filename),
                                           source, project, path, producer_only))
    result = analysis.Result(report.unsuppressed(found, source))
    result.not_analysed = found.not_analysed
    return result
