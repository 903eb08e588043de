"""Calls of the module's own functions and methods, looked through at the
call with the caller's state (a mixin of analysis.Function): which function
a call runs, and the inlined run whose copies, events, producer writes and
findings come back to the caller.

May call: model, state, module (and analysis.Function, through self).
"""

import ast
import copy

from . import model
from .module import on_self_or_super
from .producers import tensor_root
from .state import EMPTY, Info, State

HELPER_DEPTH = 3


class HelperCalls:

    def target_of(self, node):
        """The function of the module a call runs: a module-level function,
        one defined in this function, a method of this class through self,
        super(), cls or type(self), or ClassName.method(...); else None."""
        f = node.func
        if isinstance(f, ast.Name):
            local = self.local_defs().get(f.id)
            if local is not None:
                return local
            if self.facts.values.get(f.id, 0) != 0:
                return None  # bound in this function: not the module's
            if f.id in self.m.functions:
                return self.m.functions[f.id]
            return self.m.imported(f.id)  # from .utils import fetch
        if not isinstance(f, ast.Attribute):
            return None
        if (isinstance(f.value, ast.Name) and f.value.id not in self.m.classes
                and f.value.id not in ("self", "cls") and self.facts.values.get(f.value.id, 0) == 0):
            other = self.m.imported(f.value.id, f.attr)  # import rt_torch as rt; rt.produce(b)
            if other is not None:
                return other
        if self.cls is not None and self.on_self_or_super(f):
            return self.m.method(self.cls, f.attr, skip_own=not isinstance(f.value, ast.Name))
        if self.cls is not None and (
                (isinstance(f.value, ast.Name) and f.value.id == "cls")
                or (isinstance(f.value, ast.Call) and model.callee_name(f.value) == "type")):
            return self.m.method(self.cls, f.attr)
        if isinstance(f.value, ast.Name) and f.value.id in self.m.classes:
            return self.m.method(f.value.id, f.attr)
        ref = self.instance_class(f.value)
        return ref[0].method(ref[1], f.attr) if ref is not None else None

    def instance_class(self, obj):
        """(Module, class) of the object an expression holds, where it is
        bound once to a construction of a class of the project (`snap =
        Snapshot()`, `self.snap = snaps.Snapshot()` in __init__), or is a
        parameter the body never rebinds, annotated with one (`snap:
        Snapshot`, `snap: "Snapshot"`); else None."""
        return self.instance_class_of(self.canonical(model.dotted(obj)))

    def instance_class_of(self, path):
        """instance_class of the object a path (`snap`, `self.snap`) names."""
        if not path or path == "self" or "." in path and not path.startswith("self."):
            return None
        v, known = self.facts.value(path)
        if isinstance(v, ast.Call):
            return self.m.class_ref(model.dotted(v.func))
        if v is None and path in self.params:
            ann = self.annotation(path)
            if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                return self.m.class_ref(ann.value)
            return self.m.class_ref(model.dotted(ann)) if ann is not None else None
        return None

    def member_constant(self, expr):
        """The constant `obj.attr` holds, for an object this function built
        with no arguments from a class of the project whose body gives the
        attribute a constant (`@dataclass class Cfg: non_blocking: bool =
        False`, `cfg = Cfg()`) and whose methods never assign it; else
        None."""
        if not isinstance(expr, ast.Attribute):
            return None
        path = self.canonical(model.dotted(expr.value))
        v, _ = self.facts.value(path) if path else (None, False)
        if not isinstance(v, ast.Call) or v.args or v.keywords:
            return None
        ref = self.m.class_ref(model.dotted(v.func))
        if ref is None:
            return None
        mod, cls = ref
        if mod.class_facts(cls).values.get("self." + expr.attr, 0) != 0:
            return None  # a method assigns it
        for n in mod.class_body(cls):
            target = n.targets[0] if isinstance(n, ast.Assign) and len(n.targets) == 1 else (
                n.target if isinstance(n, ast.AnnAssign) else None)
            if isinstance(target, ast.Name) and target.id == expr.attr:
                return n.value if isinstance(n.value, ast.Constant) else None
        return None

    def canonical(self, path):
        """The name an alias stands for: `s2 = s` (each bound once) makes
        `s2` stand for `s`, so that `s2.wait()` covers what `s.capture(t)`
        left in `s.host`."""
        for _ in range(8):
            v, _ = self.facts.value(path) if path else (None, False)
            if not isinstance(v, ast.Name) or v.id == path:
                return path
            path = v.id
        return path

    def annotation(self, name):
        """The annotation of parameter `name` of this function, if it is
        never rebound in the body; else None."""
        node = self.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        a = node.args
        for p in a.posonlyargs + a.args + a.kwonlyargs:
            if p.arg == name and p.annotation is not None:
                return None if self.m.rebinds(node, name) else p.annotation
        return None

    def local_defs(self):
        """The functions defined in this function's own body, in its
        branches and loops too (not in nested functions or classes); a name
        defined twice is left out (built once)."""
        if self._local_defs is None:
            body = getattr(self.node, "body", None)
            found, twice = {}, set()

            def visit(stmts):
                for n in stmts:
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        if n.name in found:
                            twice.add(n.name)
                        found[n.name] = n
                    elif not isinstance(n, (ast.ClassDef, ast.Lambda)):
                        for k in ("body", "orelse", "finalbody", "handlers"):
                            inner = getattr(n, k, None)
                            if isinstance(inner, list):
                                visit(inner)
            if isinstance(body, list) and self.node is not self.m.tree:
                visit(body)
            self._local_defs = {k: v for k, v in found.items() if k not in twice}
        return self._local_defs

    def helper_of(self, target):
        """The function a call runs (target_of), if it is to be looked
        through: not recursive, within the depth; else None."""
        if target is None or id(target) in self.stack or self.depth >= HELPER_DEPTH:
            return None
        return target

    @staticmethod
    def drops_first(fn, node):
        """Whether a call passes fn's first parameter implicitly (self or
        cls of a method called on an object, not a staticmethod, not
        ClassName.method(self, ...))."""
        decorators = {model.dotted(d) for d in getattr(fn, "decorator_list", [])}
        if "staticmethod" in decorators or not isinstance(node.func, ast.Attribute):
            return False
        obj = node.func.value
        return not (isinstance(obj, ast.Name) and obj.id[:1].isupper() and "classmethod" not in decorators)

    on_self_or_super = staticmethod(on_self_or_super)

    def unseen_method(self, node):
        """A method called on self or super() that the module does not
        define for this class (inherited from a class of another module)."""
        f = node.func
        if self.cls is None or not self.on_self_or_super(f):
            return False
        return self.m.method(self.cls, f.attr, skip_own=not isinstance(f.value, ast.Name)) is None \
            and not self.m.resolvable(self.cls)

    def anonymous_writes(self, entry):
        """Writes in flight (producers.py) that a callee's entry state
        names by no parameter or field (no path of entry.wnames holds
        them): the callee cannot copy their tensors, and what it does to
        them (a sync, a record, a wait_stream) depends on their events and
        streams alone (their literals are the caller's names, which the
        caller restores on return). Each group of equal events and streams
        is replaced in entry.live by one stand-in, so that calls with
        different such writes in flight share a run; returns {stand-in:
        [the write ids]}."""
        named = set().union(*entry.wnames.values()) if entry.wnames else set()
        groups = {}
        for c in [c for c in entry.live if c not in named and c in self.m.writes]:
            info = entry.live.pop(c)
            k = ("writes", info.events, info.streams)
            groups.setdefault(k, []).append(c)
            entry.live[k] = Info(info.events, info.streams, EMPTY)
        return groups

    def inline(self, fn, node, arg_vals, kw_vals, st):
        self.m.spend(1 + len(st.live) + len(st.names))
        fm = self.m.module_of(fn)  # this module, or another of the project
        # a method (not a function of another module called as rt.produce(b))
        is_method = isinstance(node.func, ast.Attribute) and id(fn) in fm.method_class
        # The callee's self is the caller's self, or the object it is
        # called on (`snap.capture(t)`: the callee's self.host is snap.host).
        into, back, pre = self.receiver_renames(node, is_method)
        # A function defined in this one sees this one's names (a closure):
        # the copies and writes they name go in and come back.
        free = self.free_names(fn) if fm is self.m and not is_method else frozenset()
        if not free and id(fn) not in fm.effectful and not any(v for _, v in arg_vals + kw_vals) and not (
                isinstance(node.func, ast.Attribute)
                and any(k.startswith(pre) for k in st.names)) and not (
                    self.multi_stream and fm.may_write(fn)) and not self.hands_fields(node, st):
            return EMPTY  # it cannot issue, cover or read a copy, nor write a tensor
        # The parameters positional arguments fill (not the keyword-only
        # ones, nor *args, which soaks up the rest).
        params = [p.arg for p in fn.args.posonlyargs + fn.args.args]
        entry = State(live={c: info.replace(events=frozenset(into(e) for e in info.events))
                            for c, info in st.live.items()},
                      cur=(st.current(),), recorded=frozenset(into(e) for e in st.recorded))
        if is_method and self.drops_first(fn, node) and params:
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
        # the fields of an object handed over (`p.x` is the caller's `h.x`)
        passed.update(self.pass_fields(
            list(zip(params, node.args)) + [(k.arg, k.value) for k in node.keywords], entry, st))
        # Events and writes in flight on the arguments: the callee's
        # parameters name them (renames: (argument path, parameter);
        # wpassed: parameter -> the caller's tensor path).
        renames, wpassed = [], {}
        for p, a in list(zip(params, node.args)) + [(k.arg, k.value) for k in node.keywords]:
            if not p:
                continue
            ap = model.dotted(a)
            if ap:
                renames.append((ap, p))
                for c, info in entry.live.items():
                    if ap in info.events:
                        entry.live[c] = info.replace(events=info.events | {p})
            root = tensor_root(a)
            if root and not isinstance(a, ast.Starred):
                wpassed[p] = root
                if root in st.wnames:
                    entry.wnames[p] = st.wnames[root]
        if is_method:
            for table, mine_ in ((st.names, entry.names), (st.wnames, entry.wnames),
                                 (st.elems, entry.elems)):
                for k, v in table.items():
                    if k.startswith(pre):
                        mine_[into(k)] = v
        for table, mine_ in ((st.names, entry.names), (st.wnames, entry.wnames),
                             (st.elems, entry.elems)):
            for k, v in table.items():
                if k.split(".")[0] in free:
                    mine_[k] = v
        entry.misses = dict(st.misses)
        anon = self.anonymous_writes(entry)
        bound = self.bound_constants(fn, node, params, st)
        kinds = self.handed_kinds(params, node, st)
        key = (id(fn), self.depth, entry.key(), self.multi_stream,
               tuple((p, type(c.value), c.value) for p, c in bound), kinds,
               id(self.facts) if free else None)
        callee = fm.helper_runs.get(key)
        if callee is None:
            callee = type(self)(fm, fn, fn.body, self.depth + 1, self.stack, bound, kinds,
                                enclosing=self.facts if free else None)
            callee.multi_stream = self.multi_stream  # writes matter where the caller names streams
            callee.exit_state = callee.run(entry)
            fm.helper_runs[key] = callee
        out = callee.exit_state
        callee_name = fn.name
        mine = set(st.live)
        for f in callee.findings:
            cid = getattr(f, "copy_id", None)
            if cid in mine:
                verb = {"read": "reads it", "written": "writes it"}.get(
                    f.how, f.how.replace("passed to", "passes it to"))
                holder = (f.path or "").split(".")[0]  # p.a: the object p is handed
                self.report_at(passed.get(f.path, passed.get(holder, node)), cid, st,
                               "passed to '%s'" % callee_name if holder in passed
                               else "used by '%s'" % callee_name,
                               extra_note=(f.line, f.col, "'%s' %s here" % (callee_name, verb),
                                           self.elsewhere(fm.path)))
            wid = getattr(f, "write_id", None)
            own = (cid in fm.copies and cid not in mine) if cid is not None else (
                wid is not None and wid not in mine)
            if own and (bound or kinds or free) and fm is self.m:
                # a finding on the callee's own copy (or write) that only the
                # call's constants, what it hands, or the enclosing
                # function's names (a closure) make
                self.bound_finding(f, node, bound, kinds)
            if wid in mine and wid in self.m.writes and f.copy_node is not None:
                # the callee copies what the caller's work writes
                arg = wpassed.get(f.copy_src)
                self.report_producer(f.copy_node, self.m.writes[wid], f.copy_stream, st,
                                     arg or f.copy_src, at=node, extra_note=(
                                         f.line, f.col, "'%s' copies it to the host here"
                                         % callee_name, self.elsewhere(fm.path)),
                                     copy_file=f.copy_file)
        if out is None:
            return EMPTY
        # Writes the callee did on the caller's tensors (its parameters, self).
        new_writes = {}
        for k, v in out.wnames.items():
            dest = wpassed.get(k) or (back(k) if is_method and k.startswith("self.") else None)
            if dest is not None:
                new_writes[dest] = new_writes.get(dest, EMPTY) | v
        # Copies the callee issued into its own locals and did not return are
        # its own business: it reports them itself.
        returned = callee.returned
        if callee.returned_fields:
            self.obj_fields[id(node)] = dict(callee.returned_fields)  # return Batch(...)
            for v in callee.returned_fields.values():
                returned |= v
        stored = self.fields_back(renames, out)  # b.y = t.to(...) on a parameter b
        for ap, p in renames:
            # a copy into a parameter itself (`h.copy_(d, non_blocking=True)`,
            # h never rebound): into the caller's tensor
            if p != "self" and out is not None and out.names.get(p) and not fm.rebinds(fn, p):
                stored[ap] = out.names[p]
        for v in stored.values():
            returned |= v
        closure = {}  # what the callee left in this function's names
        for table, theirs in ((st.names, out.names), (st.elems, out.elems),
                              (st.wnames, out.wnames)):
            closure[id(table)] = {k: v for k, v in theirs.items() if k.split(".")[0] in free}
            if table is not st.wnames:
                for v in closure[id(table)].values():
                    returned |= v
        keep = (mine | returned | self.self_copies(out)) - self.reported_in(callee)
        assigned = fm.self_assigned(fn) if is_method else EMPTY
        assigned_here = frozenset(back(k) for k in assigned)
        for v in list(new_writes.values()) + list(closure[id(st.wnames)].values()):
            keep |= v  # writes on the caller's tensors, through parameters or a closure
        out_live = out.live
        if anon:  # each write the group's stand-in stood for, as it ended
            out_live = {c: info for c, info in out.live.items() if c not in anon}
            for k, writes in anon.items():
                if k in out.live:
                    out_live.update((w, out.live[k]) for w in writes)
        live = {}
        for c, info in out_live.items():
            if c not in keep:
                continue
            # Back in the caller's names: its events (parameters renamed to
            # the arguments, the callee's locals dropped) and literals.
            events = frozenset(back(e) for e in info.events if e.startswith("self.")) | frozenset(
                e for e in info.events if c in st.live and e in st.live[c].events)
            for ap, p in renames:
                if p in info.events:
                    events |= {ap}
            # Literals: the caller's, but what the callee knows of self's
            # attributes it may assign (self.sync_point = "before") replaces
            # what the caller knew of them.
            base = st.live.get(c)
            conds = base.conds if base is not None else frozenset(st.conds.items())
            conds = frozenset(x for x in conds if x[0] not in assigned_here) | frozenset(
                (back(n), lit) for n, lit in info.conds if n in assigned)
            live[c] = Info(events, info.streams, conds)
        st.live = live
        for k in assigned:
            st.conds.pop(back(k), None)
            if k in out.conds:
                st.conds[back(k)] = out.conds[k]
        st.recorded = st.recorded | frozenset(back(e) for e in out.recorded if e.startswith("self."))
        st.misses.update((k, v) for k, v in out.misses.items() if k not in anon)
        if is_method:
            for table, theirs in ((st.names, out.names), (st.elems, out.elems)):
                for k in [k for k in table if k.startswith(pre)]:
                    del table[k]
                for k, v in theirs.items():
                    if k.startswith("self."):
                        table[back(k)] = v
        for dest, v in new_writes.items():
            st.wnames[dest] = frozenset(w for w in st.wnames.get(dest, EMPTY) | v if w in live)
        st.names.update(stored)
        for table in (st.names, st.elems, st.wnames):
            for k in [k for k in table if k.split(".")[0] in free]:
                del table[k]
            table.update((k, frozenset(c for c in v if c in live))
                         for k, v in closure[id(table)].items())
        return callee.returned

    def handed_kinds(self, params, node, st):
        """(parameter, what) for the arguments of a call the caller knows:
        a tensor's kind ("gpu", "pinned", "pageable"), the stream it names
        (a model.Stream: one this function created, its current or the
        default stream; the callee's copies and writes on the parameter are
        on it), or the expression an event was made with (the parameter is
        an event: a sync of it covers only what a record covered)."""
        out = []
        for p, a in list(zip(params, node.args)) + [(k.arg, k.value) for k in node.keywords]:
            if not p or isinstance(a, ast.Starred):
                continue
            kind = model.tensor_kind(a, self.facts)
            if kind in model.KIND_EXPRESSIONS:
                out.append((p, kind))
                continue
            if isinstance(a, ast.Name) and self.facts.is_event(a.id):
                out.append((p, self.facts.value(a.id)[0]))  # the event it was made as
                continue
            if isinstance(a, ast.Name) and not self.facts.is_stream(a.id):
                continue
            stream = model.stream_of(a, self.facts, st)
            if stream.kind in ("new", "current", "default"):
                out.append((p, stream))
        return tuple(out)

    def free_names(self, fn):
        """The names a function defined in this one's body uses from it (not
        its parameters, nor what it binds, unless `nonlocal`): empty for
        any other function."""
        if fn not in self.local_defs().values():
            return frozenset()
        a = fn.args
        params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
        params |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        nonlocal_ = {n for s in ast.walk(fn) if isinstance(s, ast.Nonlocal) for n in s.names}
        stored = set(self.m.index.stored.get(id(fn), ())) - nonlocal_
        used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
        return frozenset(used - params - stored)

    def receiver_renames(self, node, is_method):
        """(into, back, prefix) for a method call: into() renames the
        caller's paths on the receiver to the callee's (`snap.host` ->
        `self.host`), back() the callee's to the caller's; prefix is the
        caller's (`self.` on self or super(), `snap.` on an object)."""
        recv = self.canonical(model.dotted(node.func.value)) if is_method else None
        if recv is None or recv in ("self", "cls") or not is_method or recv[:1].isupper():
            # on self, super(), cls, type(self), or a class (`Base.m(self, t)`)
            return (lambda p: p), (lambda p: p), "self."
        pre = recv + "."

        # The caller's own self is out of the callee's reach: kept apart.
        def into(p):
            return "self." + p[len(pre):] if p.startswith(pre) else (
                "^" + p if p.startswith("self.") else p)

        def back(p):
            return pre + p[5:] if p.startswith("self.") else (p[1:] if p.startswith("^self.") else p)
        return into, back, pre

    def bound_constants(self, fn, node, params, st):
        """(parameter, constant) pairs a call fixes: a constant argument
        (written, or a name the caller knows the constant of on this path),
        and the constant default of a parameter the call omits (when it
        passes no `*args` / `**kw`, which could supply it)."""
        def constant(a):
            if isinstance(a, ast.Constant):
                return a
            path = model.dotted(a)
            lit = st.conds.get(path) if path else None
            if lit is not None and lit[0] == "is":
                return ast.Constant(lit[1])
            v, _ = self.facts.value(path) if path else (None, False)
            return v if isinstance(v, ast.Constant) else None

        out, passed = [], set()
        for p, a in zip(params, node.args):
            if isinstance(a, ast.Starred):
                return tuple(out)  # positions past it are unknown
            passed.add(p)
            c = constant(a)
            if c is not None:
                out.append((p, c))
        for k in node.keywords:
            if k.arg is not None:
                passed.add(k.arg)
                c = constant(k.value)
                if c is not None:
                    out.append((k.arg, c))
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return tuple(out)
        out += [(p.arg, d) for p, d in model.param_defaults(fn)
                if p.arg not in passed and isinstance(d, ast.Constant)]
        return tuple(out)

    def bound_finding(self, f, node, bound, kinds=()):
        """A finding of the callee on a copy of its own that the constants
        the call passes make (`fetch(x, "cpu")` into `y = x.to(dev,
        non_blocking=True); y.sum()`), or the kinds of the tensors it hands
        (a pinned `h` into `h.copy_(d, non_blocking=True); h[0].item()`), or
        the enclosing function's names a nested def uses: reported where it
        is, in this module, with a note at the call naming them."""
        what = {"gpu": "a GPU tensor", "pinned": "a pinned tensor", "pageable": "a pageable tensor"}
        shown = ", ".join((["'%s' = %r" % (p, c.value) for p, c in bound] + [
            "'%s' %s" % (p, what[k]) for p, k in kinds if isinstance(k, str)])[:3])
        f_name = model.callee_name(node) or "the function"
        g = copy.copy(f)
        g.notes = list(f.notes) + [(node.lineno, node.col_offset + 1,
                                    "'%s' is called here%s" % (f_name, " with " + shown
                                                               if shown else ""))]
        g.note_files = list(f.note_files) + [None]
        self.findings.append(g)

    def self_copies(self, out):
        """The copies the callee left named by self's attributes, directly
        or as elements of a container."""
        s = EMPTY
        for table in (out.names, out.elems):
            for k, v in table.items():
                if k.startswith("self."):
                    s |= v
        return s

    def reported_in(self, callee):
        return frozenset(getattr(f, "copy_id", None) for f in callee.findings)
