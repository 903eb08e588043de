"""The flake8 plugin: the check's findings as flake8 errors with code
CAR001 (flake8's convention for custom lints; ruff cannot load plugins).

Registered under the `flake8.extension` entry point group as
`CAR = cars_python.flake8:Plugin` (checker/python/pyproject.toml; the
installed package carries the same entry point). flake8 applies `# noqa`
itself; `# NOLINT(cuda-async-read-before-sync)` is honoured here too. The
notes (the copy, the sync that did not cover it) are folded into the
message, since flake8 has one line per error.
"""

from . import FLAKE8_CODE, VERSION
from . import analysis, report


class Plugin:
    name = "cuda-async-read-before-sync"
    version = VERSION

    def __init__(self, tree, lines):
        # `tree` makes flake8 run it as an AST plugin; the analysis parses a
        # tree of its own (run).
        self.source = "".join(lines)

    def run(self):
        import ast
        from . import _deep
        from .project import may_hold_copy
        if not may_hold_copy(self.source):
            return  # no copy can be in it: nothing to parse
        try:
            # A tree of its own: the analysis rewrites names in the tree it is
            # given, and flake8 hands every plugin the same one (pyflakes
            # would then see `torch.nn` where the file says `nn`).
            found = _deep(lambda: analysis.analyse(ast.parse(self.source), self.source))
        except RecursionError:
            yield (1, 0, "%s not analysed: expressions nested too deeply" % FLAKE8_CODE, type(self))
            return
        for f in report.unsuppressed(found, self.source):
            files = getattr(f, "note_files", None) or [None] * len(f.notes)
            notes = "; ".join("%sline %d: %s" % ("%s " % other if other else "", line, text)
                              for (line, _, text), other in zip(f.notes, files))
            yield (f.line, f.col - 1, "%s %s (%s)" % (FLAKE8_CODE, f.message, notes), type(self))
