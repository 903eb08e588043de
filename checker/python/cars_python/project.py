"""The files a run is given, read as one project (issue 22's project-wide
analysis, its first step): which module an import names, so that a call of
another module's function (`import rt_torch as rt; rt.produce(b)`, `from
.utils import fetch; fetch(x)`) is looked through like a call of the
module's own, with the copies and writes it issues known to the caller.

A module is named by its path relative to the files' common directory, or
the directory above the outermost package there (`pkg/sub/mod.py` ->
`pkg.sub.mod`, `pkg/__init__.py` -> `pkg`). An import
resolves to the module of that name, relative imports against the
importer's package; one that names no such module resolves to the one
module whose name ends with it (`import rt_torch` of a script that put its
directory on sys.path), and to none where that is not unique. Modules are
parsed when first imported and kept; copies, writes and the analysis
budget are shared by all of them.

copiers() finds which bodies of a module call into another module's code
that may issue a copy (a function, a class's methods), so that only those
are analysed.

May call: model, module, producers (uses_streams) (and analysis, to build a
module's tree as analyse does).
"""

import ast
import io
import os
import re
import tokenize

from . import model
from .module import MAX_COST, on_self_or_super
from .producers import uses_streams
from .state import OverBudget

# How many parsed modules a run keeps between files (end_file).
KEEP_MODULES = 128
# copy_(src, True), to(device, dtype, True), to(other, True): non_blocking
# given by position (the other spelling of a copy says non_blocking).
_POSITIONAL_COPY = re.compile(r"(?:copy_|\.to)\(.*,\s*True\b")
# A copy the host waits for (`.item()`, `.cpu()`, `h.copy_(d)`): the
# producer diagnostic checks it in a module that names streams.
_BLOCKING_COPY = re.compile(r"\.(?:item|tolist|cpu|to|copy_)\(")


def may_hold_copy(text):
    """Whether a module's text can hold an asynchronous copy at all: a
    `non_blocking`, or one given by position."""
    return "non_blocking" in text or bool(_POSITIONAL_COPY.search(text))


def may_hold_blocking_copy(text):
    """Whether a module's text names streams and can hold a blocking copy
    to the host: one the producer diagnostic checks."""
    return uses_streams(text) and bool(_BLOCKING_COPY.search(text))


_WORD = re.compile(r"[A-Za-z_]\w*")
# An import statement's text: `import a.b as c`, `from .x import f, g`, a
# parenthesized list over several lines (a backslash continuation or an
# import after `;` is missed: such a module is taken to reach no copy).
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+(?:\([^)]*\)|[^\n]*)", re.M)


def module_name(path, root):
    rel = os.path.relpath(os.path.abspath(path), root)
    parts = rel[:-3].split(os.sep) if rel.endswith(".py") else rel.split(os.sep)
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(p for p in parts if p and p != ".")


def read_source(path):
    """The text of a Python file, decoded as Python does (its coding line);
    raises OSError, ValueError or UnicodeDecodeError."""
    with open(path, "rb") as f:
        data = f.read()
    return data.decode(tokenize.detect_encoding(io.BytesIO(data).readline)[0])


class Project:
    """The modules of a run, by name; parsed on first use."""

    def __init__(self, paths, build):
        """paths: the .py files of the run; build(tree, source) -> a
        module.Module of a parsed tree (analysis prepares the tree)."""
        files = [p for p in paths if p.endswith(".py") and os.path.isfile(p)]
        dirs = [os.path.dirname(os.path.abspath(p)) for p in files]
        root = os.path.commonpath(dirs) if dirs else os.getcwd()
        while os.path.isfile(os.path.join(root, "__init__.py")) and os.path.dirname(root) != root:
            root = os.path.dirname(root)  # above the outermost package: its name counts
        self.root = root
        self.paths = {}  # module name -> its file, as the run was given it
        for p in files:
            self.paths.setdefault(module_name(p, self.root), p)
        self.build = build
        self.modules = {}     # name -> Module, or None where it does not parse
        self.copies = {}      # shared by every module: copy id -> Copy
        self.writes = {}      # write id -> producers.Write
        self.owner = {}       # id(FunctionDef: module-level or a method) -> its Module
        self.cost = 0
        self.tails = {}       # an import's name -> the one module whose name ends with it
        self.used = []        # module names, the one used last at the end
        self.copy_text = {}   # module name -> whether its text can hold a copy
        self._copy_names = None  # the last parts of the names of those that can

    def spend(self, amount):
        self.cost += amount
        if self.cost > MAX_COST:
            raise OverBudget()

    def touch(self, name):
        if self.used and self.used[-1] == name:
            return
        if name in self.used:
            self.used.remove(name)
        self.used.append(name)

    def adopt(self, name, m, path=None):
        """Make m (a module of this run, named name) one of the project's."""
        self.touch(name)
        m.project, m.name, m.path = self, name, path or self.paths.get(name)
        m.copies, m.writes = self.copies, self.writes
        self.modules[name] = m
        for fn in self.defined(m):  # what Module.imported and class_ref can lead to
            self.owner[id(fn)] = m

    @staticmethod
    def defined(m):
        """The module-level functions and the methods of m."""
        yield from m.functions.values()
        for methods in m.classes.values():
            yield from methods.values()

    def end_file(self):
        """After one file's analysis: what only it needed goes (copies,
        writes, looked-through runs), and the modules kept are the
        KEEP_MODULES used last, so that a large project costs what its
        files' imports cost, not all of it at once."""
        self.copies.clear()
        self.writes.clear()
        live = [n for n in self.used if self.modules.get(n) is not None]
        for name in live[:-KEEP_MODULES]:
            m = self.modules.pop(name)
            m.release()
            for fn in self.defined(m):
                self.owner.pop(id(fn), None)
        self.used = [n for n in self.used if n in self.modules][-KEEP_MODULES:]
        for m in self.modules.values():
            if m is not None:
                m.helper_runs.clear()

    def built(self, path):
        """Whether the module of the run's file path is built (parsed)."""
        return self.modules.get(module_name(path, self.root)) is not None

    def module(self, name):
        """The Module named name, parsed now if need be; None if the run has
        no such file or it does not parse."""
        if name in self.modules:
            self.touch(name)
            return self.modules[name]
        path = self.paths.get(name)
        m = None
        if path is not None:
            try:
                source = read_source(path)
                m = self.build(ast.parse(source, filename=path), source)
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
                m = None
        if m is None:
            self.modules[name] = None
        else:
            self.adopt(name, m)
        return m

    def may_copy(self, name):
        """Whether module name's text can hold a copy at all (a
        `non_blocking`, or `copy_(src, True)`): read, not parsed, so that deciding
        which functions call another module's copies costs no parse of the
        modules that cannot."""
        if name not in self.copy_text:
            path = self.paths.get(name)
            try:
                text = read_source(path) if path else ""
            except (OSError, ValueError, LookupError):
                text = ""
            self.copy_text[name] = may_hold_copy(text)
        return self.copy_text[name]

    def may_reach_copy(self, source):
        """Whether a module with this text can issue a copy or call code of
        the project that can: its text holds one (may_copy's test), or
        imports a module of the run whose text does (an import of module
        `pkg.io` spells `io`). A module that cannot is not analysed at all
        (check_source): no finding can be in it."""
        return may_hold_copy(source) or self.imports_copying(source)

    def imports_copying(self, source):
        """Whether a module's import statements name a module of the run
        whose text can hold a copy (by the last part of its name)."""
        if self._copy_names is None:
            self._copy_names = {n.rsplit(".", 1)[-1] for n in self.paths if self.may_copy(n)}
        if not self._copy_names:
            return False
        for m in _IMPORT.finditer(source):
            if not self._copy_names.isdisjoint(_WORD.findall(m.group(0))):
                return True
        return False

    def resolve_name(self, importer, dotted, level=0):
        """The name of the module that `import dotted` (level dots before
        it) of module `importer` names, or None."""
        if level:
            base = importer.split(".")
            if not self.paths.get(importer, "").endswith("__init__.py"):
                base = base[:-1]  # a module's package
            base = base[:len(base) - (level - 1)] if level > 1 else base
            name = ".".join(base + ([dotted] if dotted else []))
            return name if name in self.paths else None
        if dotted in self.paths:
            return dotted
        if dotted not in self.tails:
            tail = [n for n in self.paths if n.endswith("." + dotted)]
            self.tails[dotted] = tail[0] if len(tail) == 1 else None
        return self.tails[dotted]


def copiers(m):
    """The ids of m's bodies (the module's and each function's, with the
    functions around a nested one) that call a function of another module
    of the project that may issue a copy (m.copying covers the module's
    own), construct a class of another module with a method that may, or
    call such a method inherited from a base in another module; from the
    module's calls (module.Index)."""
    out = set()
    if m.project is None or not m.import_table() or not m.project.imports_copying(m.source):
        return out

    refs, method_calls = [], []  # classes of other modules constructed here; (attr, owners)
    foreign_bases = {cls: any(m.class_ref(b, copying=True) for b in bases)
                     for cls, bases in m.bases.items()}

    def copying(ref):
        if ref is None or ref[0] is m or not any(
                id(fn) in ref[0].copying for fn in ref[0].classes[ref[1]].values()):
            return False
        refs.append(ref)
        return True

    for node, owners, cls in m.calls:
        f, fn = node.func, None
        if isinstance(f, ast.Name) and f.id in m.import_table():
            fn = m.imported(f.id, copying=True)
            if fn is None and copying(m.class_ref(f.id, copying=True)):
                out.update(owners)  # Snapshot()
        elif (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
              and f.value.id in m.import_table()):
            fn = m.imported(f.value.id, f.attr, copying=True)
            if fn is None and copying(m.class_ref(model.dotted(f), copying=True)):
                out.update(owners)  # snaps.Snapshot()
        elif cls is not None and isinstance(f, ast.Attribute) and on_self_or_super(f) \
                and foreign_bases.get(cls):
            fn = m.method(cls, f.attr)  # self.capture() of a base in another module
        elif isinstance(f, ast.Attribute):
            method_calls.append((f.attr, owners))  # maybe snap.capture() of a Snapshot
        if fn is not None and id(fn) in m.module_of(fn).copying:
            out.update(owners)
    # A method of such a class called on any object (`self.snap.capture(t)`
    # of a `self.snap = Snapshot()`): by name, as Module._relevance does.
    for attr, owners in method_calls:
        if any(id(fn) in r[0].copying for r in refs for fn in [r[0].method(r[1], attr)] if fn):
            out.update(owners)
    return out
