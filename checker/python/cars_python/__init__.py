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


def _deep(fn, *args):
    """fn(*args) on a thread with a large stack and recursion limit: the
    analysis recurses along the AST, and valid code nests deeply (an elif
    chain of 500 branches, a sum of 1000 terms). RecursionError beyond."""
    import sys
    import threading
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
        t = threading.Thread(target=run)
        t.start()
        t.join()
    finally:
        threading.stack_size(size)
    if error:
        raise error[0]
    return result[0]


def check_source(source, filename="<string>", project=None):
    """Findings of one module's source text: an analysis.Result, a list of
    analysis.Finding (line, col 1-based, message, notes [(line, col,
    text)]), suppressions applied, whose not_analysed lists the functions
    the analysis budget stopped. With a project.Project of the run's files
    (filename one of them), calls into its other modules are followed.
    Raises SyntaxError on code that does not parse."""
    import ast
    from . import analysis, report
    found = _deep(lambda: analysis.analyse(ast.parse(source, filename=filename), source,
                                           project, filename if project is not None else None))
    result = analysis.Result(report.unsuppressed(found, source))
    result.not_analysed = found.not_analysed
    return result
