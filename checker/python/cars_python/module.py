"""What the Python front end knows of a module before the flow: the names
a function binds (Facts, flow-insensitive), the module's functions,
classes and methods, which of them may issue or order a copy
(Module._relevance), the per-function CFGs, and the analysis budget.

May call: model, cfg, state, producers (uses_streams, is_device_write).
"""

import ast
import collections

from . import model
from .cfg import build_cfg
from .producers import is_device_write, uses_streams
from .state import EMPTY, OverBudget

# The work one top-level function may cost, helpers looked through included:
# block visits weighted by the size of the state they carry.
MAX_COST = 1000000


def on_self_or_super(f):
    """self.m or super().m"""
    return isinstance(f, ast.Attribute) and (
        (isinstance(f.value, ast.Name) and f.value.id == "self")
        or (isinstance(f.value, ast.Call) and model.callee_name(f.value) == "super"))


class Facts:
    """What each name of a function was bound to, flow-insensitively: a name
    bound twice to different things is unknown."""

    def __init__(self, fn_body, parent=None):
        self.parent = parent
        self._active = set()
        self.values = {}
        self.queries = {}
        self.with_depth = {}
        self._scan(fn_body)

    def copy(self):
        """Another Facts of the same bindings, to change apart."""
        other = Facts.__new__(Facts)
        other.parent, other._active = self.parent, set()
        other.values, other.queries = dict(self.values), dict(self.queries)
        other.with_depth = dict(self.with_depth)
        return other

    def _bind(self, name, value, in_stream_with):
        if name in self.values and self.values[name] is not value:
            self.values[name] = None  # bound twice: unknown
        else:
            self.values[name] = value
        # Every binding `name = <obj>.query()` with the same obj: a query flag.
        obj = (model.dotted(value.func.value) if isinstance(value, ast.Call)
               and isinstance(value.func, ast.Attribute) and value.func.attr == "query"
               and not value.args else None)
        if name not in self.queries:
            self.queries[name] = (obj, value.func.value if obj else None)
        elif self.queries[name][0] != obj:
            self.queries[name] = (None, None)
        if in_stream_with:
            self.with_depth[name] = True

    def _scan(self, body):
        def visit(node, in_with):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                return
            if isinstance(node, (ast.With, ast.AsyncWith)):
                inner = in_with or any(model.callee_name(i.context_expr) in model.STREAM_CONTEXTS
                                       or isinstance(i.context_expr, ast.Name) for i in node.items)
                for i in node.items:
                    if i.optional_vars is not None:
                        for n in ast.walk(i.optional_vars):
                            if isinstance(n, ast.Name):
                                self._bind(n.id, None, inner)
                for s in node.body:
                    visit(s, inner)
                return
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    path = model.dotted(t)
                    if path is not None:
                        self._bind(path, node.value, in_with)
                    else:
                        for n in ast.walk(t):
                            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                                self._bind(n.id, None, in_with)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.AugAssign, ast.NamedExpr)):
                t = node.target
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        self._bind(n.id, None if not isinstance(node, ast.NamedExpr) else node.value,
                                   in_with)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    self._bind((a.asname or a.name).split(".")[0], None, in_with)
            for child in ast.iter_child_nodes(node):
                visit(child, in_with)

        for s in body:
            visit(s, False)

    def value(self, name):
        if name in self.values:
            return self.values[name], True
        if self.parent is not None:
            return self.parent.value(name)
        return None, False

    def kind(self, name):
        v, _ = self.value(name) if name else (None, False)
        if v is None or name in self._active:
            return None  # unknown, or defined through itself (a = b.cuda(); b = a.cpu())
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and model.dotted(v.func.value) == name:
            return None  # x = x.to(...): what x was before, the receiver, is not told
        self._active.add(name)
        try:
            return model.tensor_kind(v, self)
        finally:
            self._active.discard(name)

    def device(self, name):
        v, _ = self.value(name)
        if v is None or isinstance(v, ast.Name) or ("device", name) in self._active:
            return None  # unknown, or defined through itself (dev = torch.device(dev))
        self._active.add(("device", name))
        try:
            return model.device_of(v, self)
        finally:
            self._active.discard(("device", name))

    def constant(self, name):
        v, _ = self.value(name)
        return v.value if isinstance(v, ast.Constant) else None

    def stream(self, name, entry_current):
        """The stream a name is bound to (entry_current: the stream current
        where the function began, which `current_stream()` outside any
        `with` gave)."""
        if name in self._active:
            return model.Stream("any", name)
        self._active.add(name)
        try:
            return self._stream(name, entry_current)
        finally:
            self._active.discard(name)

    def _stream(self, name, entry_current):
        v, known = self.value(name)
        if v is None:
            return model.Stream("any", name)
        if isinstance(v, model.Stream):
            return v  # a parameter the call handed a stream it knows
        if model.is_new_stream(v):
            return model.Stream("new", name)
        if isinstance(v, ast.Call) and model.callee_name(v) == "torch.cuda.default_stream" and not v.args:
            return model.DEFAULT
        if (isinstance(v, ast.Call) and model.callee_name(v) == "torch.cuda.current_stream"
                and not v.args and not self.with_depth.get(name)):
            return entry_current
        if isinstance(v, ast.Name) and v.id != name:
            return self.stream(v.id, entry_current)  # t = s
        return model.Stream("any", name)

    def query_flag(self, name):
        """The event or stream node whose query() every binding of name is."""
        obj, node = self.queries.get(name, (None, None))
        return node if obj else None

    def is_stream(self, name):
        """Whether name is bound to a stream: torch.cuda.Stream(),
        current_stream(), default_stream(), or one a call handed."""
        v, _ = self.value(name)
        return isinstance(v, model.Stream) or (v is not None and (model.is_new_stream(v) or (
            isinstance(v, ast.Call) and model.callee_name(v) in (
                "torch.cuda.current_stream", "torch.cuda.default_stream"))))

    def is_event(self, name):
        v, _ = self.value(name)
        return v is not None and (model.is_new_event(v) or (
            isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
            and v.func.attr == "record_event"))


# Nodes with nothing below them that an Index records: contexts,
# operators, constants.
_LEAVES = frozenset(
    c for base in (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop)
    for c in base.__subclasses__()) | {ast.Constant}


class Index:
    """What one walk of a module's tree finds, in ast.walk's order
    (breadth-first): `imports` (Import/ImportFrom nodes), `defs` (function
    definitions, nested ones included), `calls` ((Call, owners, cls): owners
    the ids of the module and of each function definition around the call,
    cls the name of the module-level class it is in, or None) and `loads`
    ((parent, field, index or None, Name) of every Name read, for
    rewriting), `stored` (owner id -> the names assigned in it, nested
    functions included), `self_stores` (owner id -> the `self.<attr>`
    paths assigned in it) and `self_assigns` ((Assign or AnnAssign,
    owners) of those that assign one). The walk is the front end's only
    full one of a module."""

    def __init__(self, tree):
        self.imports, self.defs, self.calls, self.loads = [], [], [], []
        self.self_assigns = []
        self.stored = collections.defaultdict(set)
        self.self_stores = collections.defaultdict(set)
        Name, Call, AST = ast.Name, ast.Call, ast.AST
        defs = (ast.FunctionDef, ast.AsyncFunctionDef)
        assigns = (ast.Assign, ast.AnnAssign, ast.AugAssign)
        queue = collections.deque([(tree, (id(tree),), None)])
        while queue:
            node, owners, cls = queue.popleft()
            if isinstance(node, Call):
                self.calls.append((node, owners, cls))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                self.imports.append(node)
            elif isinstance(node, assigns):
                self._assign(node, owners)
            for field in node._fields:
                value = getattr(node, field, None)
                for i, child in (enumerate(value) if isinstance(value, list)
                                 else ((None, value),)):
                    if not isinstance(child, AST) or type(child) in _LEAVES:
                        continue
                    if isinstance(child, Name):
                        if isinstance(child.ctx, ast.Load):
                            self.loads.append((node, field, i, child))
                        elif isinstance(child.ctx, ast.Store):
                            for o in owners:
                                self.stored[o].add(child.id)
                    elif isinstance(child, defs):
                        self.defs.append(child)
                        queue.append((child, owners + (id(child),), cls))
                    elif isinstance(child, ast.ClassDef) and node is tree:
                        queue.append((child, owners, child.name))
                    else:
                        queue.append((child, owners, cls))

    def _assign(self, node, owners):
        paths = [p for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                 for p in [model.dotted(t)] if p and p.startswith("self.")]
        if not paths:
            return
        for o in owners:
            self.self_stores[o].update(paths)
        if not isinstance(node, ast.AugAssign):
            self.self_assigns.append((node, owners))


class Module:
    """The functions and classes of one module, and the copies found so far."""

    def __init__(self, tree, source, index=None):
        """index: the tree's Index, when the caller has it."""
        self.tree, self.source = tree, source
        index = index or Index(tree)
        self.import_nodes, self.defs, self.calls = index.imports, index.defs, index.calls
        self.index = index
        # (expression, owners) of what calls need in host memory (x.numpy())
        self.host_needs = [(e, owners) for c, owners, _ in self.calls
                           for e in [model.host_needing_arg(c)] if e is not None]
        self.functions = {}   # name -> FunctionDef at module level
        self.classes = {}     # class name -> {method name: FunctionDef}
        self.method_class = {}  # id(FunctionDef) -> class name
        self.bases = {}       # class name -> its bases' names
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[node.name] = node
            elif isinstance(node, ast.ClassDef):
                methods = {n.name: n for n in node.body
                           if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
                self.classes[node.name] = methods
                self.bases[node.name] = [model.dotted(b) or "?" for b in node.bases
                                         if model.dotted(b) != "object"]
                for m in methods.values():
                    self.method_class[id(m)] = node.name
        self.facts = Facts([n for n in tree.body
                            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))])
        self.copies = {}
        self.writes = {}  # write id -> producers.Write
        self.multi_stream = uses_streams(source)
        self._may_write = {}
        self.project, self.name, self.path = None, "", None  # project.Project.adopt sets them
        self._imports = None
        self._imported = {}
        self.cost = 0
        self.prepared = {}  # id(function) -> what prepare() builds, once
        self._class_facts = {}
        self._scanned = {}  # id(function) -> its Facts, before its parameters
        self.helper_runs = {}  # (id(function), entry state) -> a finished run
        self._relevance()

    def _relevance(self):
        """Which function bodies can matter, from the Index's calls: `copying`
        (may issue a copy: a candidate copy call, or a call of a copying
        function of the module), `effectful` (may also synchronize, record
        or order: any call model.may_order() names, or of an effectful
        function). Only copying bodies are analysed, and a call of a helper
        that is not effectful, given nothing pending, is not looked into.
        `blocking_copying`: the other bodies that may make a blocking copy
        to the host (`.item()`, `h.copy_(d)`: a call of one, or of a function
        that does) in a module that names streams; they are analysed for
        the producer diagnostic only."""
        # A call counts for the function it is in, and for the functions
        # around that one (a nested def is analysed with them).
        own = {id(n): [False, False, False] for n in [self.tree] + self.defs}
        calls = {key: set() for key in own}
        for node, owners, _ in self.calls:
            copying = model.maybe_copy(node)
            blocking = self.multi_stream and model.maybe_blocking_copy(node)
            effectful = copying or model.may_order(node) or self._may_be_inherited(node)
            f = node.func
            # a function by its name; a method by its name, on any object
            # (self.m(), snap.capture() of a `snap = Snapshot()`)
            name = f.id if isinstance(f, ast.Name) else (
                f.attr if isinstance(f, ast.Attribute) else None)
            for key in owners:
                own[key][0] |= copying
                own[key][1] |= effectful
                own[key][2] |= blocking
                if name:
                    calls[key].add(name)
        # Through the module's functions and methods, by name, to a fixpoint.
        by_name = {}
        for name, fn in self.functions.items():
            by_name.setdefault(name, []).append(id(fn))
        for cls, methods in self.classes.items():
            for name, fn in methods.items():
                by_name.setdefault(name, []).append(id(fn))
            if "__init__" in methods:  # Cls(...) runs Cls.__init__
                by_name.setdefault(cls, []).append(id(methods["__init__"]))
        changed = True
        while changed:
            changed = False
            for key, names in calls.items():
                flags = own[key]
                for name in names:
                    for callee in by_name.get(name, ()):
                        for k in (0, 1, 2):
                            if own[callee][k] and not flags[k]:
                                flags[k] = changed = True
        self.copying = {k for k, (c, _, _) in own.items() if c}
        self.effectful = {k for k, (_, e, _) in own.items() if e}
        self.blocking_copying = {k for k, (c, _, b) in own.items() if b and not c}

    def import_table(self):
        """name -> (module, level, imported name or None) of the module's
        imports (`import a.b as m`, `from .x import f`); scopes are not told
        apart."""
        if self._imports is None:
            t = {}
            for n in self.import_nodes:
                if isinstance(n, ast.Import):
                    for a in n.names:
                        name = a.name if a.asname else a.name.split(".")[0]
                        t[a.asname or name] = (name, 0, None)
                elif isinstance(n, ast.ImportFrom):
                    for a in n.names:
                        if a.name != "*":
                            t[a.asname or a.name] = (n.module or "", n.level, a.name)
            self._imports = t
        return self._imports

    def imported(self, name, attr=None, copying=False):
        """The function of another module of the project that `name(...)`
        (attr None) or `name.attr(...)` calls, through this module's
        imports; None where the run has no such module or function. With
        `copying`, only where that module's text can hold a copy (not
        parsed otherwise)."""
        if self.project is None:
            return None
        target = self.imported_module_name(name, attr)
        if target is None or (copying and not self.project.may_copy(target)):
            return None
        # The module is looked up each time (not its function cached): a
        # module the project dropped between files is parsed anew, and its
        # functions are the ones Project.owner knows.
        m = self.project.module(target)
        if m is None:
            return None
        return m.functions.get(attr if attr is not None else self.import_table()[name][2])

    def imported_module_name(self, name, attr):
        """The name of the project module that `name(...)` / `name.attr(...)`
        reaches through the imports, without parsing it; None if none."""
        key = (name, attr)
        if key not in self._imported:
            entry = self.import_table().get(name)
            target = None
            if entry is not None:
                dotted, level, what = entry
                if attr is not None:
                    target = dotted if what is None else ".".join(x for x in (dotted, what) if x)
                elif what is not None:
                    target = dotted
            self._imported[key] = (self.project.resolve_name(self.name, target, level)
                                   if target is not None else None)
        return self._imported[key]

    def module_of(self, fn):
        """The Module that defines fn (this one, or another of the project)."""
        if self.project is None:
            return self
        return self.project.owner.get(id(fn), self)

    def self_assigned(self, fn):
        """The attributes of self that fn (a function of this module)
        assigns (`self.mode = ...`); read only (the Index's own set)."""
        return self.index.self_stores.get(id(fn), EMPTY)

    def may_write(self, fn):
        """Whether fn may do device work that writes a tensor it is handed
        (producers.py)."""
        key = id(fn)
        if key not in self._may_write:
            self._may_write[key] = any(
                isinstance(n, ast.AugAssign)
                or (isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store))
                or (isinstance(n, ast.Call) and (any(k.arg == "out" for k in n.keywords) or (
                    isinstance(n.func, ast.Attribute) and is_device_write(n.func.attr))))
                for n in ast.walk(fn))
        return self._may_write[key]

    def _may_be_inherited(self, call):
        """super().m(...), or self.m(...) where no class of the module has m:
        a method from another module, taken as a possible sync."""
        f = call.func
        if not on_self_or_super(f):
            return False
        return isinstance(f.value, ast.Call) or not any(f.attr in ms for ms in self.classes.values())

    def class_def(self, cls):
        """The ClassDef of class cls of this module, or None."""
        for n in self.tree.body:
            if isinstance(n, ast.ClassDef) and n.name == cls:
                return n
        return None

    def class_body(self, cls):
        """The statements of the body of class cls of this module (none
        where it has no such class)."""
        cdef = self.class_def(cls)
        return cdef.body if cdef is not None else []

    def class_ref(self, name, copying=False):
        """(Module, class name) of the class a dotted name names: one of
        this module (`Local`), or of another module of the project imported
        here (`from .snap import Snapshot`, `snapmod.Snapshot`); None
        otherwise (a class outside the run, not a class). With `copying`,
        another module only where its text can hold a copy."""
        if not name:
            return None
        if name in self.classes:
            return (self, name)
        head, _, attr = name.partition(".")
        if self.project is None or "." in attr or head not in self.import_table():
            return None
        target = self.imported_module_name(head, attr or None)
        if target is None or (copying and not self.project.may_copy(target)):
            return None
        m = self.project.module(target)
        cls = attr or self.import_table()[head][2]
        return (m, cls) if m is not None and cls in m.classes else None

    def method(self, cls, name, skip_own=False, seen=None):
        """The FunctionDef that cls.name resolves to among the module's
        classes (own methods first, then the bases in order, bases in other
        modules of the project too), or None."""
        seen = seen if seen is not None else set()
        if (id(self), cls) in seen or cls not in self.classes:
            return None
        seen.add((id(self), cls))
        if not skip_own and name in self.classes[cls]:
            return self.classes[cls][name]
        for base in self.bases.get(cls, ()):
            ref = self.class_ref(base)
            found = ref[0].method(ref[1], name, False, seen) if ref is not None else None
            if found is not None:
                return found
        return None

    def resolvable(self, cls, seen=None):
        """Whether every base of cls is a class of the project's modules (or
        object, or a torch base), so that a method it lacks is one it does
        not have."""
        seen = seen if seen is not None else set()
        if (id(self), cls) in seen:
            return True
        seen.add((id(self), cls))
        for b in self.bases.get(cls, ()):
            ref = self.class_ref(b)
            if not (model.torch_base(b) or (ref is not None and ref[0].resolvable(ref[1], seen))):
                return False
        return True

    def spend(self, amount):
        if self.project is not None:
            self.project.spend(amount)  # one budget for the modules of a run
            return
        self.cost += amount
        if self.cost > MAX_COST:
            raise OverBudget()

    def class_facts(self, cls):
        """What the class's methods bind self.<attr> to (flow-insensitive:
        self.cpu_buf = torch.empty(n) in __init__ makes it pageable in
        every method)."""
        if cls not in self._class_facts:
            methods = {id(fn) for fn in self.classes.get(cls, {}).values()}
            stmts = [n for n, owners in self.index.self_assigns if not methods.isdisjoint(owners)]
            f = Facts(stmts, parent=self.facts)
            f.values = {k: v for k, v in f.values.items() if k.startswith("self.")}
            self._class_facts[cls] = f
        return self._class_facts[cls]

    def prepare(self, node, body, defaults=False, bound=(), kinds=(), enclosing=None):
        """(facts, cfg, parameter names, model.host_required_copies) of a
        function, built once. With
        `defaults`, a parameter the body never rebinds whose default is a
        constant (`device="cpu"`, `non_blocking=True`) holds it: the
        function analysed on its own, as a call that omits it runs. A run
        looked through from a call is given `bound`, (parameter, constant)
        pairs: the constants the call passes, and the constant defaults of
        the parameters it omits, and `kinds`, (parameter, tensor kind)
        pairs: where the caller's argument is known to be a GPU, pinned or
        pageable tensor, (parameter, model.Stream): a stream the caller
        knows, or (parameter, an expression): what the caller's event was
        made with; it knows nothing of its other parameters. A
        function defined in another one is given that one's Facts
        (`enclosing`): the names it does not bind are the enclosing
        function's (a closure)."""
        bound, kinds = tuple(bound), tuple(kinds)
        key = (id(node), defaults, tuple((p, type(c.value), c.value) for p, c in bound), kinds,
               id(enclosing) if enclosing is not None else None)
        if key not in self.prepared:
            params, consts = [], {}
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                positional = a.posonlyargs + a.args
                params = [p.arg for p in positional + a.kwonlyargs]
                consts = {p.arg: d for p, d in model.param_defaults(node) if isinstance(d, ast.Constant)}
                if a.vararg:
                    params.append(a.vararg.arg)
                if a.kwarg:
                    params.append(a.kwarg.arg)
            parent = self.facts
            cls = self.method_class.get(id(node))
            if cls is not None:
                parent = self.class_facts(cls)
            if id(node) not in self._scanned:
                self._scanned[id(node)] = Facts(body, parent=parent)
            facts = self._scanned[id(node)].copy()  # the parameters' values differ
            if enclosing is not None:
                facts.parent = enclosing
            given = dict(bound)
            given.update((p, model.KIND_EXPRESSIONS[k] if isinstance(k, str) else k)
                         for p, k in kinds)
            for p in params:
                rebound = p in facts.values
                facts.values[p] = None if rebound else given.get(p, consts.get(p) if defaults else None)
            host = [e for e, owners in self.host_needs if id(node) in owners]
            self.prepared[key] = (facts, build_cfg(body), params,
                                  model.host_required_copies(host, facts) if host else set())
        return self.prepared[key]

    def release(self):
        """Drop what the analysis built (runs looked through, CFGs), once
        the project lets the module go."""
        self.helper_runs.clear()
        for prepared in self.prepared.values():
            prepared[1].release()
        self.prepared.clear()

    def rebinds(self, fn, name):
        """Whether the body of function definition fn (of this module;
        nested scopes included) assigns `name`."""
        return name in self.index.stored.get(id(fn), ())

    def text(self, node):
        try:
            return ast.get_source_segment(self.source, node) or "<expression>"
        except Exception:  # positions of synthesized nodes
            return "<expression>"
