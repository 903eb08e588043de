"""The flow analysis of the Python front end: forward, flow-sensitive, over
each function's CFG (cfg.py), with the PyTorch model of model.py.

State at a program point (State):
  names   path ('temp', 'self.buf') -> the copies whose destination it names
  live    the copies not yet known to be complete (may: union at joins)
  events  event path -> (copies an event recorded on every path covers,
          the stream it was recorded on) (must: intersection at joins)
  cur     the current stream, a stack (`with torch.cuda.stream(s):`)
  misses  copy -> the last call that looked like a sync and did not cover
          it, for the note

A use of a path or expression whose copies are live is a finding (read,
written, or passed to a function); the copy is then left out of `live` on
that path, so that one copy gives one finding per path. Functions and
methods of the module (`f(x)`, `self.m(x)`) are looked through at the call,
with the caller's state, up to HELPER_DEPTH calls deep; a finding inside
one on a copy the caller issued is reported at the call. The fixpoint is
bounded (sets of copies of one module); a function that still has not
converged after MAX_VISITS block visits is not reported on, and analyse()
says so (Result.not_analysed), so that no warning never silently means "not
analysed".

Standard library only; never raises on valid syntax.
"""

import ast

from . import model
from .cfg import build_cfg

HELPER_DEPTH = 3
MAX_VISITS = 20000
EMPTY = frozenset()


class Copy:
    __slots__ = ("id", "node", "name", "stream", "line", "col")

    def __init__(self, node, name, stream):
        self.id = id(node)
        self.node, self.name, self.stream = node, name, stream
        self.line, self.col = node.lineno, node.col_offset + 1


class Finding:
    def __init__(self, node, message, notes):
        self.line, self.col = node.lineno, node.col_offset + 1
        self.end_col = (node.end_col_offset + 1
                        if getattr(node, "end_lineno", None) == node.lineno else None)
        self.message, self.notes = message, notes

    def key(self):
        return (self.line, self.col, self.message)


class State:
    __slots__ = ("names", "live", "events", "cur", "misses")

    def __init__(self, names=None, live=EMPTY, events=None, cur=(model.CURRENT,), misses=None):
        self.names = names or {}
        self.live = live
        self.events = events or {}
        self.cur = cur
        self.misses = misses or {}

    def copy(self):
        return State(dict(self.names), self.live, dict(self.events), self.cur, dict(self.misses))

    def current(self):
        return self.cur[-1]

    def key(self):
        return (frozenset(self.names.items()), self.live, frozenset(self.events.items()), self.cur)

    def join(self, other):
        names = dict(self.names)
        for k, v in other.names.items():
            names[k] = names.get(k, EMPTY) | v
        events = {}
        for k, (cov, s) in self.events.items():
            if k in other.events:
                ocov, os_ = other.events[k]
                events[k] = (cov & ocov, s if s == os_ else model.Stream("any"))
        misses = dict(other.misses)
        misses.update(self.misses)
        return State(names, self.live | other.live, events, self.cur, misses)


class Facts:
    """What each name of a function was bound to, flow-insensitively: a name
    bound twice to different things is unknown."""

    def __init__(self, fn_body, parent=None):
        self.parent = parent
        self._active = set()
        self.values = {}
        self.with_depth = {}
        self._scan(fn_body)

    def _bind(self, name, value, in_stream_with):
        if name in self.values and self.values[name] is not value:
            self.values[name] = None  # bound twice: unknown
        else:
            self.values[name] = value
        if in_stream_with:
            self.with_depth[name] = True

    def _scan(self, body):
        def visit(node, in_with):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                return
            if isinstance(node, (ast.With, ast.AsyncWith)):
                inner = in_with or any(model.callee_name(i.context_expr) == "torch.cuda.stream"
                                       for i in node.items)
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
        self._active.add(name)
        try:
            return model.tensor_kind(v, self)
        finally:
            self._active.discard(name)

    def device(self, name):
        v, _ = self.value(name)
        return model.device_of(v, self) if v is not None and not isinstance(v, ast.Name) else None

    def constant(self, name):
        v, _ = self.value(name)
        return v.value if isinstance(v, ast.Constant) else None

    def stream(self, name, current):
        v, known = self.value(name)
        if v is None:
            return model.Stream("any", name)
        if model.is_new_stream(v):
            return model.Stream("new", name)
        if isinstance(v, ast.Call) and model.callee_name(v) == "torch.cuda.default_stream" and not v.args:
            return model.DEFAULT
        if (isinstance(v, ast.Call) and model.callee_name(v) == "torch.cuda.current_stream"
                and not v.args and not self.with_depth.get(name)):
            return model.CURRENT
        return model.Stream("any", name)

    def is_event(self, name):
        v, _ = self.value(name)
        return v is not None and (model.is_new_event(v) or (
            isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
            and v.func.attr == "record_event"))


class Module:
    """The functions and classes of one module, and the copies found so far."""

    def __init__(self, tree, source):
        self.tree, self.source = tree, source
        self.functions = {}   # name -> FunctionDef at module level
        self.classes = {}     # class name -> {method name: FunctionDef}
        self.method_class = {}  # id(FunctionDef) -> class name
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[node.name] = node
            elif isinstance(node, ast.ClassDef):
                methods = {n.name: n for n in node.body
                           if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
                self.classes[node.name] = methods
                for m in methods.values():
                    self.method_class[id(m)] = node.name
        self.facts = Facts([n for n in tree.body
                            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))])
        self.copies = {}
        self.prepared = {}  # id(function) -> (facts, cfg, params): built once
        self.helper_runs = {}  # (id(function), entry state) -> a finished run
        self._relevance()

    def _relevance(self):
        """Which function bodies can matter, found in one walk: `copying`
        (may issue a copy: a candidate copy call, or a call of a copying
        function of the module), `effectful` (may also synchronize, record
        or order: any call model.may_order() names, or of an effectful
        function). Only copying bodies are analysed, and a call of a helper
        that is not effectful, given nothing pending, is not looked into."""
        own, calls = {}, {}
        bodies = [(self.tree, self.tree.body)] + [
            (n, n.body) for n in ast.walk(self.tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for node, body in bodies:
            copying = effectful = False
            called = set()
            for stmt in body:
                for n in ast.walk(stmt):
                    if not isinstance(n, ast.Call):
                        continue
                    if model.maybe_copy(n):
                        copying = effectful = True
                    elif model.may_order(n):
                        effectful = True
                    f = n.func
                    if isinstance(f, ast.Name):
                        called.add(f.id)
                    elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                            and f.value.id == "self":
                        called.add(f.attr)
            own[id(node)] = [copying, effectful]
            calls[id(node)] = called
        # Through the module's functions and methods, by name, to a fixpoint.
        by_name = {}
        for name, fn in self.functions.items():
            by_name.setdefault(name, []).append(id(fn))
        for methods in self.classes.values():
            for name, fn in methods.items():
                by_name.setdefault(name, []).append(id(fn))
        changed = True
        while changed:
            changed = False
            for key, names in calls.items():
                flags = own[key]
                for name in names:
                    for callee in by_name.get(name, ()):
                        for k in (0, 1):
                            if own[callee][k] and not flags[k]:
                                flags[k] = changed = True
        self.copying = {k for k, (c, _) in own.items() if c}
        self.effectful = {k for k, (_, e) in own.items() if e}

    def prepare(self, node, body):
        key = id(node)
        if key not in self.prepared:
            params = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                params = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
                if a.vararg:
                    params.append(a.vararg.arg)
                if a.kwarg:
                    params.append(a.kwarg.arg)
            facts = Facts(body, parent=self.facts)
            for p in params:
                facts.values[p] = None
            self.prepared[key] = (facts, build_cfg(body), params)
        return self.prepared[key]

    def text(self, node):
        try:
            return ast.get_source_segment(self.source, node) or "<expression>"
        except Exception:  # positions of synthesized nodes
            return "<expression>"


class Function:
    """The analysis of one function body with a given entry state."""

    def __init__(self, module, node, body, depth=0, stack=()):
        self.m, self.node, self.depth = module, node, depth
        self.stack = stack + (id(node),)
        self.cls = module.method_class.get(id(node))
        self.facts, self.cfg, self.params = module.prepare(node, body)
        self.findings = []
        self.returned = EMPTY
        self.report = True
        self.exit_state = None

    # -- the fixpoint ------------------------------------------------------

    def run(self, entry):
        order = self.cfg.reverse_post_order()
        index = {b.id: k for k, b in enumerate(order)}
        ins = {self.cfg.entry.id: entry}
        work = [self.cfg.entry]
        visits = 0
        self.report = False
        while work:
            work.sort(key=lambda b: index.get(b.id, 0))
            block = work.pop(0)
            visits += 1
            if visits > MAX_VISITS:
                return None
            out = self.transfer_block(block, ins[block.id].copy())
            for e in block.succs:
                st = self.assume(e.assume, out.copy()) if e.assume else out
                old = ins.get(e.target.id)
                new = st if old is None else old.join(st)
                if old is None or new.key() != old.key():
                    ins[e.target.id] = new
                    if e.target not in work:
                        work.append(e.target)
        # The reporting pass, over the converged states.
        self.report = True
        exit_state = None
        for block in order:
            if block.id in ins:
                out = self.transfer_block(block, ins[block.id].copy())
                if block is self.cfg.exit:
                    exit_state = out
        return exit_state

    def transfer_block(self, block, st):
        for kind, node in block.elements:
            if kind == "stmt":
                self.stmt(node, st)
            elif kind == "test":
                self.consume(self.ev(node, st), node, st)
            elif kind == "iter":
                self.consume(self.ev(node.iter, st), node.iter, st)
            elif kind == "bind":
                self.kill_target(node.target, st)
            elif kind == "enter":
                ctx = node.context_expr
                self.ev(ctx, st)
                if model.callee_name(ctx) == "torch.cuda.stream" and ctx.args:
                    st.cur = st.cur + (model.stream_of(ctx.args[0], self.facts, st.current()),)
                else:
                    st.cur = st.cur + (st.current(),)
                if node.optional_vars is not None:
                    self.kill_target(node.optional_vars, st)
            elif kind == "exit":
                if len(st.cur) > 1:
                    st.cur = st.cur[:-1]
            elif kind == "def":
                name = getattr(node, "name", None)
                if name:
                    st.names.pop(name, None)
        return st

    def assume(self, assume, st):
        """On an edge taken when `expr` was `truth`: a true query() means
        the event (or stream) is complete."""
        expr, truth = assume
        while isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            expr, truth = expr.operand, not truth
        if (truth and isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)
                and expr.func.attr == "query" and not expr.args):
            self.sync_object(expr.func.value, st, expr)
        return st

    # -- statements --------------------------------------------------------

    def stmt(self, s, st):
        if isinstance(s, (ast.Assign, ast.AnnAssign)):
            if s.value is None:
                return
            v = self.ev(s.value, st)
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            for t in targets:
                self.assign(t, s.value, v, st)
        elif isinstance(s, ast.AugAssign):
            v = self.ev(s.value, st)
            self.consume(v, s.value, st)
            tv = self.ev_target(s.target, st)
            self.access(tv, s.target, st, "written")
        elif isinstance(s, ast.Expr):
            v = self.ev(s.value, st)
            if isinstance(s.value, (ast.Yield, ast.YieldFrom, ast.Await)):
                return
            # A bare expression statement: `temp` alone reads nothing.
            del v
        elif isinstance(s, ast.Return):
            if s.value is not None:
                self.returned = self.returned | self.ev(s.value, st)
        elif isinstance(s, ast.Delete):
            for t in s.targets:
                self.kill_target(t, st)
        else:
            for child in ast.iter_child_nodes(s):
                if isinstance(child, ast.expr):
                    self.consume(self.ev(child, st), child, st)

    def assign(self, target, value_node, v, st):
        path = model.dotted(target)
        if (path is not None and isinstance(value_node, ast.Call)
                and isinstance(value_node.func, ast.Attribute)
                and value_node.func.attr == "record_event" and not value_node.args):
            # e = stream.record_event(): a new event, recorded on that stream
            self.record(path, model.stream_of(value_node.func.value, self.facts, st.current()), st)
        if isinstance(value_node, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp,
                                   ast.DictComp, ast.SetComp)):
            v = EMPTY  # a container holds it: not followed (its len() or truth is no read)
        if path is not None and (isinstance(target, ast.Name) or path.startswith("self.")):
            if v:
                st.names[path] = v
                for cid in v:
                    c = self.m.copies.get(cid)
                    if c is not None and c.name is None:
                        c.name = path
            else:
                st.names.pop(path, None)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value_node, (ast.Tuple, ast.List)) and len(value_node.elts) == len(target.elts):
                for t, e in zip(target.elts, value_node.elts):
                    self.assign(t, e, self.ev(e, st), st)
            else:
                self.kill_target(target, st)
            return
        if isinstance(target, ast.Subscript):
            base = self.ev(target.value, st)
            self.consume(self.ev(target.slice, st), target.slice, st)
            slice_copy = self.is_tensor_store(target, st)
            self.access(base, target, st, "written")
            if v and slice_copy:
                self.access(v, value_node, st, "read")
            return
        if isinstance(target, ast.Attribute):
            self.ev(target.value, st)  # storing into an object: the value escapes
            return
        if isinstance(target, ast.Starred):
            self.kill_target(target.value, st)

    def is_tensor_store(self, target, st):
        """`a[:] = v`, `a[i:j] = v`, `a[..., k] = v`, or a known tensor `a`:
        the data of v is copied (a read). `d[k] = v` into a dict or list
        stores a reference."""
        sl = target.slice
        parts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        if any(isinstance(p, ast.Slice) or (isinstance(p, ast.Constant) and p.value is Ellipsis)
               for p in parts):
            return True
        return model.tensor_kind(target.value, self.facts) is not None

    def kill_target(self, t, st):
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                st.names.pop(n.id, None)
        path = model.dotted(t)
        if path:
            st.names.pop(path, None)

    def ev_target(self, t, st):
        path = model.dotted(t)
        if path is not None:
            return st.names.get(path, EMPTY)
        if isinstance(t, ast.Subscript):
            self.consume(self.ev(t.slice, st), t.slice, st)
            return self.ev_target(t.value, st)
        return EMPTY

    # -- expressions: each returns the copies its value aliases ------------

    def ev(self, node, st):
        if node is None:
            return EMPTY
        path = model.dotted(node)
        if path is not None and path in st.names:
            return st.names[path]
        if isinstance(node, ast.Name):
            return EMPTY
        if isinstance(node, ast.Attribute):
            v = self.ev(node.value, st)
            if node.attr in model.VIEW_METHODS:
                return v
            return EMPTY  # metadata, or an attribute the check does not read
        if isinstance(node, ast.Subscript):
            v = self.ev(node.value, st)
            self.consume(self.ev(node.slice, st), node.slice, st)
            return v
        if isinstance(node, ast.Call):
            return self.call(node, st)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            out = EMPTY
            for e in node.elts:
                out |= self.ev(e, st)
            return out
        if isinstance(node, ast.Dict):
            out = EMPTY
            for k, v in zip(node.keys, node.values):
                if k is not None:
                    self.consume(self.ev(k, st), k, st)
                out |= self.ev(v, st)
            return out
        if isinstance(node, ast.Starred):
            return self.ev(node.value, st)
        if isinstance(node, ast.IfExp):
            self.consume(self.ev(node.test, st), node.test, st)
            return self.ev(node.body, st) | self.ev(node.orelse, st)
        if isinstance(node, ast.NamedExpr):
            v = self.ev(node.value, st)
            self.assign(node.target, node.value, v, st)
            return v
        if isinstance(node, ast.Compare):
            operands = [node.left] + node.comparators
            identity = all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops)
            for o in operands:
                v = self.ev(o, st)
                if not identity:
                    self.consume(v, o, st)
            return EMPTY
        if isinstance(node, (ast.Lambda,)):
            return EMPTY  # run later, if at all
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
            self.ev(node.value, st)
            return EMPTY
        # Operators, comprehensions, f-strings, ...: the operands are read.
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.consume(self.ev(child, st), child, st)
            elif isinstance(child, ast.comprehension):
                self.consume(self.ev(child.iter, st), child.iter, st)
                for cond in child.ifs:
                    self.consume(self.ev(cond, st), cond, st)
        return EMPTY

    def call(self, node, st):
        func = node.func
        copy = model.async_copy(node, self.facts)
        attr = func.attr if isinstance(func, ast.Attribute) else None
        name = model.callee_name(node) or ""
        result = EMPTY
        obj_v = EMPTY
        if attr is not None and model.dotted(func) not in st.names:
            obj_v = self.ev(func.value, st)
        # The arguments, and whether this call reads them.
        helper = self.helper_of(node)
        arg_vals = [(a, self.ev(a, st)) for a in node.args]
        kw_vals = [(k.value, self.ev(k.value, st)) for k in node.keywords]
        reads_args = True
        if name in model.NOT_READING_BUILTINS or helper is not None:
            reads_args = False
        if attr in model.STORING_METHODS or model.is_constructor(name, self.m.classes):
            # lst.append(t), Record(view=t): stored, not read; the check
            # does not follow tensors into containers and objects
            reads_args = False
        if attr is not None and (attr in model.META_METHODS or attr == "record_stream"):
            reads_args = False
        dst_kind = model.tensor_kind(func.value, self.facts) if attr == "copy_" else None
        if attr == "copy_" and (dst_kind == "gpu" or (
                dst_kind is None and model.is_true(model.kwarg(node, "non_blocking"), self.facts))):
            # into the GPU, or a non_blocking copy_ into a tensor not known
            # to be on the CPU (from a pinned tensor, the spelling of a copy
            # to the GPU): ordered on the stream, not a host read. The seed's
            # blocking `a.copy_(b.to("cpu", non_blocking=True))` reads.
            reads_args = False
        if attr in ("to", "cuda") and copy is None:
            reads_args = False
        if reads_args:
            what = "passed to '%s'" % (attr or name.rsplit(".", 1)[-1] or "a function")
            for a, v in arg_vals + kw_vals:
                self.access(v, a, st, what)
        # The object of a method call.
        if attr is not None and obj_v and attr not in model.STORING_METHODS:
            if attr in model.META_METHODS:
                pass
            elif attr in model.VIEW_METHODS:
                result = obj_v
            elif attr == "cuda" or (attr == "to" and copy is None
                                    and model.to_device(node, self.facts) != "cpu"):
                pass  # to the GPU: ordered on the stream, not a host read
            elif attr == "copy_" or (attr.endswith("_") and not attr.startswith("_")):
                self.access(obj_v, func.value, st, "written")
            elif copy is not None:
                self.access(obj_v, func.value, st, "read")
            else:
                self.access(obj_v, func.value, st, "read")
        # What the call does.
        if copy is not None:
            how, what = copy
            c = Copy(node, None, st.current())
            if how == "into":
                c.name = model.dotted(what) or self.m.text(what)
            self.m.copies[c.id] = c
            st.live = st.live | {c.id}
            st.misses.pop(c.id, None)
            if how == "into":
                path = model.dotted(what)
                if path is not None and (isinstance(what, ast.Name) or path.startswith("self.")):
                    st.names[path] = frozenset([c.id])
                return EMPTY
            return frozenset([c.id])
        if helper is not None:
            return self.inline(helper, node, arg_vals, kw_vals, st)
        self.effects(node, name, attr, st)
        return result

    def effects(self, node, name, attr, st):
        """A call's effect on the copies: a synchronization, an event
        record, a call that looks like one and is not."""
        if model.is_device_sync(node):
            st.live = EMPTY
            return
        if attr == "synchronize" and not node.args:
            self.sync_object(node.func.value, st, node)
            return
        if attr == "record" and isinstance(node.func.value, (ast.Name, ast.Attribute)):
            stream = (model.stream_of(node.args[0], self.facts, st.current()) if node.args
                      else st.current())
            self.record(model.dotted(node.func.value), stream, st)
            return
        if attr == "record_event" and node.args:
            ev_path = model.dotted(node.args[0])
            if ev_path:
                self.record(ev_path, model.stream_of(node.func.value, self.facts, st.current()), st)
            return
        if attr in model.NOT_SYNCS:
            for cid in st.live:
                st.misses[cid] = (node, model.NOT_SYNCS[attr])
            return
        if attr in model.BLOCKING_READS and not node.args:
            kind = model.tensor_kind(node.func.value, self.facts)
            if kind not in ("pinned", "pageable") and not self.ev_quiet(node.func.value, st):
                self.sync_stream(st.current(), st, node)  # a read of a GPU tensor blocks
            return
        if name in model.CONVERTING_BUILTINS and node.args and all(
                model.tensor_kind(a, self.facts) == "gpu" for a in node.args[:1]):
            self.sync_stream(st.current(), st, node)
            return
        if name and model.sync_like_name(name) and not name.startswith("torch."):
            st.live = EMPTY  # a project's own synchronize(): taken as one

    def ev_quiet(self, node, st):
        path = model.dotted(node)
        return st.names.get(path, EMPTY) if path else EMPTY

    def sync_object(self, obj, st, node):
        """obj.synchronize() or a true obj.query(): an event or a stream."""
        path = model.dotted(obj)
        if path and (path in st.events or self.facts.is_event(path)):
            covered, _ = st.events.get(path, (EMPTY, None))
            for cid in st.live - covered:
                c = self.m.copies.get(cid)
                if path not in st.events:
                    st.misses[cid] = (node, "event '%s' is synchronized here, but it is not recorded "
                                            "after the copy on every path to this point" % path)
                elif c is not None:
                    st.misses[cid] = (node, "event '%s' was recorded before the copy, or on another "
                                            "stream, so synchronizing it does not wait for the copy" % path)
            st.live = st.live - covered
            return
        stream = model.stream_of(obj, self.facts, st.current())
        if stream.kind == "any" and path and "event" in path.lower():
            st.live = EMPTY  # an event the check cannot follow: any copy
            return
        self.sync_stream(stream, st, node)

    def sync_stream(self, stream, st, node):
        keep = set()
        for cid in st.live:
            c = self.m.copies.get(cid)
            if c is not None and model.known_different(stream, c.stream):
                keep.add(cid)
                st.misses[cid] = (node, "this synchronizes %s, not %s, the copy's stream"
                                  % (stream.describe(), c.stream.describe()))
        st.live = frozenset(keep)

    def record(self, path, stream, st):
        if not path:
            return
        covered = frozenset(cid for cid in st.live
                            if cid in self.m.copies
                            and not model.known_different(stream, self.m.copies[cid].stream))
        st.events[path] = (covered, stream)

    # -- helpers -----------------------------------------------------------

    def helper_of(self, node):
        """The module's function or this class's method a call runs, or None."""
        if self.depth >= HELPER_DEPTH:
            return None
        f = node.func
        target = None
        if isinstance(f, ast.Name) and f.id in self.m.functions and self.facts.values.get(f.id, 0) == 0:
            target = self.m.functions[f.id]
        elif (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self"
              and self.cls is not None):
            target = self.m.classes.get(self.cls, {}).get(f.attr)
        if target is None or id(target) in self.stack:
            return None
        return target

    def inline(self, fn, node, arg_vals, kw_vals, st):
        if id(fn) not in self.m.effectful and not any(v for _, v in arg_vals + kw_vals) and not (
                isinstance(node.func, ast.Attribute)
                and any(k.startswith("self.") for k in st.names)):
            return EMPTY  # it cannot issue, cover or read a copy
        params = list(self.m.prepare(fn, fn.body)[2])
        entry = State(live=st.live, cur=(st.current(),))
        is_method = isinstance(node.func, ast.Attribute)
        if is_method and params:
            params = params[1:]
        passed = {}
        for p, (a, v) in zip(params, arg_vals):
            if v:
                entry.names[p] = v
                passed[p] = a
        for k, (a, v) in zip(node.keywords, kw_vals):
            if k.arg and v:
                entry.names[k.arg] = v
                passed[k.arg] = a
        if is_method:
            for k, v in st.names.items():
                if k.startswith("self."):
                    entry.names[k] = v
            entry.events = {k: v for k, v in st.events.items() if k.startswith("self.")}
        entry.misses = dict(st.misses)
        key = (id(fn), self.depth, entry.key())
        callee = self.m.helper_runs.get(key)
        if callee is None:
            callee = Function(self.m, fn, fn.body, self.depth + 1, self.stack)
            callee.exit_state = callee.run(entry)
            self.m.helper_runs[key] = callee
        out = callee.exit_state
        callee_name = fn.name
        mine = st.live
        for f in callee.findings:
            cid = getattr(f, "copy_id", None)
            if cid in mine:
                verb = {"read": "reads it", "written": "writes it"}.get(
                    f.how, f.how.replace("passed to", "passes it to"))
                self.report_at(passed.get(f.path, node), cid, st,
                               "passed to '%s'" % callee_name if f.path in passed
                               else "used by '%s'" % callee_name,
                               extra_note=(f.line, f.col, "'%s' %s here" % (callee_name, verb)))
        if out is None:
            return EMPTY
        # Copies the callee issued into its own locals and did not return are
        # its own business: it reports them itself.
        st.live = (out.live & (mine | callee.returned | self.self_copies(out))) - self.reported_in(callee)
        st.misses.update(out.misses)
        if is_method:
            for k in [k for k in st.names if k.startswith("self.")]:
                del st.names[k]
            for k, v in out.names.items():
                if k.startswith("self."):
                    st.names[k] = v
            for k in [k for k in st.events if k.startswith("self.")]:
                del st.events[k]
            for k, v in out.events.items():
                if k.startswith("self."):
                    st.events[k] = v
        return callee.returned

    def self_copies(self, out):
        s = EMPTY
        for k, v in out.names.items():
            if k.startswith("self."):
                s |= v
        return s

    def reported_in(self, callee):
        return frozenset(getattr(f, "copy_id", None) for f in callee.findings)

    # -- findings ----------------------------------------------------------

    def consume(self, v, node, st):
        self.access(v, node, st, "read")

    def access(self, v, node, st, how):
        if not v:
            return
        hit = v & st.live
        if not hit:
            return
        for cid in sorted(hit, key=lambda c: (self.m.copies[c].line, self.m.copies[c].col)
                          if c in self.m.copies else (0, 0)):
            self.report_at(node, cid, st, how)
            break
        st.live = st.live - hit

    def report_at(self, node, cid, st, how, extra_note=None):
        st.live = st.live - {cid}
        if not self.report:
            return
        c = self.m.copies.get(cid)
        if c is None:
            return
        path = model.dotted(node)
        shown = path or c.name or self.m.text(node)
        if shown is None or (not path and isinstance(node, ast.Call) and c.node is node):
            shown = self.m.text(node)
        into = c.name or self.m.text(c.node)
        msg = ("'%s' is %s before the asynchronous device-to-host copy into it is known to be complete"
               % (shown, how))
        notes = [(c.line, c.col, "asynchronous device-to-host copy into '%s' on %s is issued here"
                  % (into, c.stream.describe()))]
        if extra_note:
            notes.append(extra_note)
        miss = st.misses.get(cid)
        if miss is not None:
            mnode, text = miss
            notes.append((mnode.lineno, mnode.col_offset + 1, text))
        f = Finding(node, msg, notes)
        f.copy_id, f.path, f.how = cid, path, how
        self.findings.append(f)


class Result(list):
    """The findings of a module, sorted by position; not_analysed lists the
    (line, name) of functions the budget stopped."""
    not_analysed = ()


def analyse(tree, source):
    """Findings of a parsed module (a Result)."""
    m = Module(tree, source)
    found = {}
    stopped = []
    bodies = [(tree, [n for n in tree.body])]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bodies.append((node, node.body))
    for node, body in bodies:
        if id(node) not in m.copying:
            continue  # no copy can be issued in it
        fn = Function(m, node, body)
        if fn.run(State()) is None and fn.report is False:
            stopped.append((getattr(node, "lineno", 1), getattr(node, "name", "<module>")))
        for f in fn.findings:
            found.setdefault(f.key(), f)
    result = Result(sorted(found.values(), key=lambda f: (f.line, f.col)))
    result.not_analysed = stopped
    return result
