"""The flow analysis of the Python front end: forward, flow-sensitive, over
each function's CFG (cfg.py), with the PyTorch model of model.py; the state
it carries is state.py's, what it knows before the flow module.py's, calls
of the module's own functions helpers.py's, calls it cannot see opaque.py's,
containers containers.py's, and the producer diagnostic producers.py's.

A use of a path or expression whose copies are live is a finding (read,
written, or passed to a function); the copy is then left out of `live` on
that path, so that one copy gives one finding per path. Functions and
methods of the module (`f(x)`, `self.m(x)`, local defs, base classes of the
module) are looked through at the call, with the caller's state, up to
HELPER_DEPTH calls deep, memoized by entry state; a finding inside one on a
copy the caller issued is reported at the call. Only functions that can
issue a copy are analysed (Module._relevance). The work is bounded: a
function past MAX_VISITS block visits in one run, or MAX_COST (visits
weighted by the state's size, helpers included), is not reported on, and
analyse() says so (Result.not_analysed), so that no warning never silently
means "not analysed".

Standard library only; never raises on valid syntax (RecursionError on
expressions nested thousands deep; the caller runs it on a large stack).

May call: model, cfg, state, module, helpers, producers, syncs, containers, opaque,
project.
"""

import ast
import heapq

from . import model, short_name
from .cfg import ranged_name
from .containers import ADDING_METHODS, EXTENDING_METHODS, Containers
from .helpers import HELPER_DEPTH, HelperCalls  # noqa: F401 (HELPER_DEPTH: the docs' name)
from .module import MAX_COST, Index, Module  # noqa: F401 (MAX_COST: the docs' name)
from .objects import NOT_READING_METHODS, ObjectFields
from .opaque import OpaqueCalls
from .producers import Producers
from .project import copiers as project_copiers
from .state import EMPTY, Copy, Finding, Info, OverBudget, State, contradicts
from .syncs import Syncs

MAX_VISITS = 20000


class Function(HelperCalls, Producers, Syncs, Containers, OpaqueCalls, ObjectFields):
    """The analysis of one function body with a given entry state."""

    def __init__(self, module, node, body, depth=0, stack=(), bound=(), kinds=(),
                 enclosing=None):
        self.m, self.node, self.depth = module, node, depth
        self.stack = stack + (id(node),)
        self.cls = module.method_class.get(id(node))
        self.facts, self.cfg, self.params, self.host_required = module.prepare(
            node, body, defaults=depth == 0, bound=bound, kinds=kinds, enclosing=enclosing)
        self.findings = []
        self._local_defs = None
        self.stream_ordered = 0
        self.returned = EMPTY
        self.report = True
        self.exit_state = None
        self.comp_values = {}  # id(comprehension) -> the copies of its element
        self.obj_fields = {}  # id(call) -> {field: copies} of the object it gives
        self.returned_fields = {}  # field -> copies, of the objects returned
        self.discarded = None  # id(call) of the expression statement being run
        # Whether writes are tracked (producers.py): the module of the
        # analysed function names streams; a helper inherits it.
        self.multi_stream = module.multi_stream

    # -- the fixpoint ------------------------------------------------------

    def run(self, entry):
        order = self.cfg.reverse_post_order()
        index = {b.id: k for k, b in enumerate(order)}
        blocks = {b.id: b for b in order}
        ins = {self.cfg.entry.id: entry}
        work, queued = [(0, self.cfg.entry.id)], {self.cfg.entry.id}
        visits = 0
        self.report = False
        while work:
            _, bid = heapq.heappop(work)  # in reverse post-order
            queued.discard(bid)
            block = blocks[bid]
            visits += 1
            self.m.spend(1 + len(ins[bid].live) + len(ins[bid].names))
            if visits > MAX_VISITS:
                return None
            out = self.transfer_block(block, ins[bid].copy())
            for e in block.succs:
                st = self.assume(e.assume, out.copy()) if e.assume else out
                if st is None:
                    continue  # the branch cannot be taken with what is known here
                old = ins.get(e.target.id)
                new = st if old is None else old.join(st)
                if old is None or new.key() != old.key():
                    ins[e.target.id] = new
                    if e.target.id not in queued and e.target.id in index:
                        queued.add(e.target.id)
                        heapq.heappush(work, (index[e.target.id], e.target.id))
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
                self.blocking_test(node, st)
            elif kind == "subject":
                self.ev(node, st)
            elif kind == "iter":
                self.consume(self.ev(node.iter, st), node.iter, st)
            elif kind == "bind":
                self.kill_target(node.target, st)
                self.bind_iteration(node, st)
            elif kind == "enter":
                ctx = node.context_expr
                self.ev(ctx, st)
                if self.manager_may_sync(ctx, "__enter__"):
                    st.live = {}
                stream = model.stream_context(ctx, self.facts)
                if isinstance(ctx, ast.Call) and model.callee_name(ctx) in model.GRAPH_CAPTURES:
                    st.cur = st.cur + (model.CAPTURE,)  # recorded into the graph, not run
                elif stream is not None:
                    st.cur = st.cur + (model.stream_of(stream, self.facts, st),)
                else:
                    st.cur = st.cur + (st.current(),)
                if node.optional_vars is not None:
                    self.kill_target(node.optional_vars, st)
            elif kind == "exit":
                if len(st.cur) > 1:
                    st.cur = st.cur[:-1]
                if self.manager_may_sync(node.context_expr, "__exit__"):
                    st.live = {}  # `with synced():` / a timer that synchronizes on exit
            elif kind == "def":
                name = getattr(node, "name", None)
                if name:
                    st.names.pop(name, None)
        return st

    def manager_may_sync(self, ctx, which):
        """A context manager of the module whose __enter__/__exit__ (or, for
        a @contextmanager generator, its body) may synchronize."""
        if not isinstance(ctx, ast.Call):
            return False
        name = model.callee_name(ctx) or ""
        fn = self.m.functions.get(name)
        if fn is not None:
            return id(fn) in self.m.effectful and any(
                isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fn))
        if name in self.m.classes:
            method = self.m.method(name, which)
            return method is not None and id(method) in self.m.effectful
        return False

    def gpu_scalar(self, expr, st):
        """A tensor method's or torch function's result on a tensor not
        known to be on the CPU (mask.any(), x.sum(), torch.isfinite(l).all())."""
        for n in ast.walk(expr):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                    and n.func.attr in model.REDUCTIONS:
                obj = n.func.value
                if model.tensor_kind(obj, self.facts) not in ("pinned", "pageable") \
                        and not self.ev_quiet(obj, st) and not isinstance(obj, ast.Constant):
                    return True
        return False

    def blocking_test(self, expr, st):
        """if / while / assert on a GPU scalar: bool() of it blocks the host
        until the current stream has computed it."""
        if self.gpu_scalar(expr, st):
            self.sync_stream(st.current(), st, expr)

    def infeasible(self, expr, truth, st):
        """Whether a branch on expr cannot go the `truth` way: a name or
        attribute known, on every path here, to hold a constant (assigned
        or tested) of the other truth, or unequal to a constant it is
        compared with (`k = False; if k:`, `mode = "a"; if mode == "b":`)."""
        n = ranged_name(expr)
        if n is not None:  # `for _ in range(n)` entering its body: n is not 0
            lit = st.conds.get(n)
            return truth and lit is not None and contradicts(lit, ("truth", True))
        path = model.dotted(expr)
        if path is not None and isinstance(expr, (ast.Name, ast.Attribute)):
            lit = st.conds.get(path)
            return lit is not None and contradicts(lit, ("truth", truth))
        compared = model.compared_constant(expr)
        if compared is not None and model.cuda_test(expr) is None:
            cpath, const, equal = compared
            lit = st.conds.get(cpath)
            return lit is not None and contradicts(lit, ("eq", const, equal == truth))
        return False

    def assume(self, assume, st):
        """On an edge taken when `expr` was `truth`: a true query() means
        the event (or stream) is complete; a name's truth drops the copies
        issued only where it had the other one; a false CUDA test
        (torch.cuda.is_available(), x.is_cuda, x.device.type == "cuda") means
        no copy was asynchronous. None: the edge cannot be taken (infeasible)."""
        expr, truth = assume
        while isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            expr, truth = expr.operand, not truth
        if self.infeasible(expr, truth, st):
            return None
        if (truth and isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)
                and expr.func.attr == "query" and not expr.args):
            self.sync_object(expr.func.value, st, expr)
        path = model.dotted(expr)
        if path is not None and isinstance(expr, (ast.Name, ast.Attribute)) \
                and not model.cuda_test(expr):
            flag = self.facts.query_flag(path)
            if truth and flag is not None:
                self.sync_object(flag, st, expr)  # done = e.query(); while not done: ...
            st.learn(path, ("truth", truth))  # drops what was issued where path had the other truth
        compared = model.compared_constant(expr)
        if compared is not None and model.cuda_test(expr) is None:
            cpath, const, equal = compared  # mode == "sync" / mode != "sync" / mode is None
            st.learn(cpath, ("eq", const, equal == truth))
        cuda = model.cuda_test(expr)
        if cuda is not None and cuda != truth:
            tested = model.tested_tensor(expr)
            for c in list(st.live):
                copy = self.m.copies.get(c)
                if tested is None or (copy is not None and copy.source == tested):
                    del st.live[c]  # no CUDA (for this tensor) here: not asynchronous
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
            if not isinstance(s.value, (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)):
                self.consume(v, s.value, st)  # outs += [t] stores it
            tv = self.ev_target(s.target, st)
            self.access(tv, s.target, st, "written")
            if not tv:
                self.note_write(s.target, s, st)  # b += 1 on the device
            if model.dotted(s.target):
                st.forget(model.dotted(s.target))  # flag &= x: its truth is not known now
        elif isinstance(s, ast.Expr):
            self.discarded = id(s.value)  # model.to(...) alone: nn.Module.to, in place
            v = self.ev(s.value, st)
            if isinstance(s.value, (ast.Yield, ast.YieldFrom, ast.Await)):
                return
            # A bare expression statement: `temp` alone reads nothing.
            del v
        elif isinstance(s, ast.Return):
            if s.value is not None:
                self.returned = self.returned | self.ev(s.value, st)
                self.return_fields(s.value, st)
        elif isinstance(s, ast.Delete):
            for t in s.targets:
                self.kill_target(t, st)
        elif isinstance(s, ast.Assert):
            self.consume(self.ev(s.test, st), s.test, st)
            self.blocking_test(s.test, st)
        else:
            for child in ast.iter_child_nodes(s):
                if isinstance(child, ast.expr):
                    self.consume(self.ev(child, st), child, st)

    def assign(self, target, value_node, v, st):
        path = model.dotted(target)
        held = self.elements_of(value_node, v, st)  # a container of copies
        if isinstance(value_node, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp,
                                   ast.DictComp, ast.SetComp)):
            v = EMPTY  # a container holds it: its len() or truth is no read (containers.py)
        if path is not None:
            alias = model.dotted(value_node) if isinstance(value_node, (ast.Name, ast.Attribute)) else None
            st.forget(path)  # path names another object now
            self.forget_writes(path, st)
            self.forget_container(path, st)
            if held and (isinstance(target, ast.Name) or path.startswith("self.")):
                st.elems[path] = held
            if alias:  # e2 = e: the same event
                for c, info in list(st.live.items()):
                    if alias in info.events:
                        st.live[c] = info.replace(events=info.events | {path})
            if isinstance(value_node, ast.Constant) and (
                    isinstance(target, ast.Name) or path.startswith("self.")):
                st.set_literal(path, ("is", value_node.value))  # pending = True, mode = "sync"
            if (isinstance(value_node, ast.Call) and isinstance(value_node.func, ast.Attribute)
                    and value_node.func.attr == "record_event" and not value_node.args):
                # e = stream.record_event(): a new event, recorded on that stream
                self.record(path, model.stream_of(value_node.func.value, self.facts, st), st)
            for k in [k for k in st.names if k.startswith(path + ".")]:
                del st.names[k]  # out = ...: out.lp is another tensor now
            self.name_fields(path, value_node, st)  # h = Batch(...): h.x
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
            if not slice_copy and v:
                self.store_element(target, v, st)  # d[k] = t
                for cid in v:  # the copy is named as the element that holds it
                    c = self.m.copies.get(cid)
                    if c is not None and c.name is None:
                        c.name = self.m.text(target)
            if not base:
                self.note_write(target, target, st)  # b[:] = v on the device
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
                st.forget(n.id)
                self.forget_writes(n.id, st)
                self.forget_container(n.id, st)
                for k in [k for k in st.names if k.startswith(n.id + ".")]:
                    del st.names[k]
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
        root = self.attribute_view(path)
        if root is not None and root in st.names:
            return st.names[root]  # self.buf_np, bound to self.buf.numpy() in __init__
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
            return v | self.element_of(node, st)  # d["a"]: the element stored under "a"
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
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            # The iterables and conditions are read; the elements are stored
            # ([t.to("cpu", non_blocking=True) for t in ts] reads nothing).
            for gen in node.generators:
                self.consume(self.ev(gen.iter, st), gen.iter, st)
                self.kill_target(gen.target, st)
                self.bind_iteration(gen, st)  # [v.sum() for v in outs]
                for cond in gen.ifs:
                    self.consume(self.ev(cond, st), cond, st)
            if isinstance(node, ast.DictComp):
                self.consume(self.ev(node.key, st), node.key, st)
                self.comp_values[id(node)] = self.ev(node.value, st)
            else:
                self.comp_values[id(node)] = self.ev(node.elt, st)
            return EMPTY
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(
                node.left, (ast.List, ast.Tuple, ast.Name)) and isinstance(node.right, (ast.List, ast.Tuple)):
            self.ev(node.left, st)  # outs + [y]: a longer list, nothing read
            self.ev(node.right, st)
            return EMPTY
        if isinstance(node, ast.Constant):
            return EMPTY
        # Operators, f-strings, ...: the operands are read.
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
        if isinstance(func, ast.Name):
            bound, _ = self.facts.value(func.id)
            if isinstance(bound, ast.Attribute) and self.instance_class(bound.value) is not None:
                # w = s.wait; w(): the bound method of a project object
                node = ast.copy_location(ast.Call(func=bound, args=node.args,
                                                  keywords=node.keywords), node)
                func = node.func
        copy = model.async_copy(node, self.facts)
        nb = model.non_blocking_arg(node, self.facts) if copy is not None else None
        if copy is not None:
            member = self.member_constant(nb)
            if st.known_false(nb) or (member is not None and not member.value):
                copy = None  # non_blocking = False on this path, or a False field
        if copy is None and id(node) in self.host_required:
            copy = ("result", func.value)  # .to(device, non_blocking=True), then .numpy()
            nb = model.non_blocking_arg(node, self.facts)
        copy = self.in_place_move(node, copy)  # model.to("cpu", non_blocking=True) alone
        attr = func.attr if isinstance(func, ast.Attribute) else None
        name = model.callee_name(node) or ""
        if isinstance(func, ast.Name):
            bound, _ = self.facts.value(func.id)
            if isinstance(bound, ast.Attribute) and (model.dotted(bound) or "").startswith("torch."):
                name = model.dotted(bound)  # wait_all = torch.cuda.synchronize
        result = EMPTY
        obj_v = EMPTY
        if attr is not None and model.dotted(func) not in st.names:
            obj_v = self.ev(func.value, st) or self.tensor_use_of_field(func, attr, st)
        # The arguments, and whether this call reads them.
        target = self.target_of(node)
        helper = self.helper_of(target)
        deferred = None
        if copy is not None and self.own_mover(helper, attr):
            deferred, copy = copy, None  # batch.to("cpu", non_blocking=True): Batch.to runs
        ordered = any(model.is_stream_handle(a, self.facts) for a in
                      list(node.args) + [k.value for k in node.keywords])
        self.stream_ordered += ordered
        try:
            arg_vals = [(a, self.ev(a, st)) for a in node.args]
            kw_vals = [(k.value, self.ev(k.value, st)) for k in node.keywords]
        finally:
            self.stream_ordered -= ordered
        arg_vals = self.tensor_args(name, arg_vals, st)  # torch.cat([h.x, h.y])
        if copy is None and helper is None:
            self.call_object(node, st)  # model(x) of a module moved to the host
        reads_args = True
        last = name.rsplit(".", 1)[-1]
        if name in model.NOT_READING_BUILTINS or helper is not None \
                or name in model.METADATA_FUNCTIONS or last in model.STORING_FUNCTIONS:
            reads_args = False
            if last in ("list", "tuple", "set", "frozenset") and any(
                    v and not isinstance(a, (ast.List, ast.Tuple, ast.Set, ast.ListComp,
                                             ast.GeneratorExp)) for a, v in arg_vals):
                reads_args = True  # list(t) iterates the tensor
        constructs = (model.is_constructor(name, self.m.classes) or (
            isinstance(func, ast.Name) and self.class_param(func.id)))
        if constructs and self.hands_host_code(node):
            constructs = False  # Thread(target=save, args=(buf,)): host code runs on it
        self.construct(node, arg_vals, kw_vals, st)  # Batch(x=t, ...): its fields
        if attr in model.STORING_METHODS or constructs or (
                attr in model.STORING_UNLESS_TENSOR and not obj_v
                and model.tensor_kind(func.value, self.facts) is None
                and not (model.dotted(func.value) or "").split(".")[0] == "torch"):
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
        if ordered or self.stream_ordered:
            # work submitted to a stream (ktransformers'
            # submit_with_cuda_stream(current_stream().cuda_stream, task(q_in=buf))):
            # ordered after the copy on the device, not a host read now
            reads_args = False
        if reads_args:
            what = "passed to '%s'" % (attr or name.rsplit(".", 1)[-1] or "a function")
            opaque = helper is None and self.opaque_callee(node, obj_v) and not self.hands_host_code(node)
            for a, v in arg_vals + kw_vals:
                ordered = self.stream_work(v, st) if opaque and not self.host_value(a) else EMPTY
                self.access(v - ordered, a, st, what)
        self.read_containers(node, name, st)  # torch.cat(outs)
        if attr in ADDING_METHODS | EXTENDING_METHODS and not obj_v:
            self.container_call(node, attr, arg_vals, st)  # outs.append(t)
        # The object of a method call.
        if attr is not None and obj_v and attr not in model.STORING_METHODS:
            if attr in model.META_METHODS or attr in NOT_READING_METHODS or (
                    attr == "type" and not node.args and not node.keywords):
                pass  # metadata; a module's tensors, or a dict's values (containers)
            elif attr in model.VIEW_METHODS:
                result = obj_v
            elif attr == "cuda" or (attr == "to" and copy is None
                                    and model.to_device(node, self.facts) != "cpu"):
                pass  # to the GPU: ordered on the stream, not a host read
            elif (copy is not None and copy[0] == "into") or (
                    attr == "copy_" and node.args
                    and model.blocking_host_copy(node, self.facts) == "to-host"):
                pass  # another copy into it: device work, not a host write
            elif attr == "copy_" or (attr.endswith("_") and not attr.startswith("_")):
                self.access(obj_v, func.value, st, "written")
            elif copy is not None:
                self.access(obj_v, func.value, st, "read")
            else:
                self.access(obj_v, func.value, st, "read")
        # What the call does.
        if copy is not None:
            return self.issue_copy(node, copy, nb, st)
        self.moved_back(node, attr, st)  # model.cuda() alone: on the GPU again
        self.write_call(node, copy, st)
        if helper is not None:
            out = self.inline(helper, node, arg_vals, kw_vals, st)
            if deferred is not None and not out and id(node) not in self.obj_fields:
                # the class's own .to() gives back nothing followed: taken
                # as the tensor method it looks like
                return self.issue_copy(node, deferred, nb, st)
            return out
        if target is not None and id(target) in self.m.effectful:
            st.live = {}  # a helper past the depth (or recursive) that may synchronize
            return result
        if isinstance(func, ast.Name):
            bound, _ = self.facts.value(func.id)
            if isinstance(bound, ast.Lambda) and any(
                    isinstance(n, ast.Call) and model.may_order(n) for n in ast.walk(bound.body)):
                st.live = {}  # flush = lambda: torch.cuda.synchronize()
                return result
        self.effects(node, name, attr, st)
        return result

    def issue_copy(self, node, copy, nb, st):
        """A copy issued: into `what` ("into": dst.copy_(src); "inplace":
        module.to(...) alone), or into the call's result."""
        how, what = copy
        if st.current() == model.CAPTURE:
            return EMPTY  # captured into a CUDA graph: it runs at replay, not here
        src = node.args[0] if how == "into" else node.func.value
        self.check_copy(node, src, st)
        c = Copy(node, None, st.current(), model.dotted(src), self.m.path)
        if how != "result":
            c.name = model.dotted(what) or self.m.text(what)
        if how == "into" and isinstance(what, ast.Subscript) and model.dotted(what.value):
            c.region = (model.dotted(what.value), model.slice_region(what))
        self.m.copies[c.id] = c
        conds = frozenset(st.conds.items())
        nb_path = model.dotted(nb) if nb is not None and not isinstance(nb, ast.Constant) else None
        if nb_path and nb_path not in st.conds:
            # asynchronous only where `nb` is true: a later `if nb: sync()`
            # or `if not nb: read` is followed like a branch literal
            conds |= {(nb_path, ("truth", True))}
        st.live[c.id] = Info(EMPTY, frozenset([c.stream]), conds)
        st.misses.pop(c.id, None)
        if how == "result":
            return frozenset([c.id])
        # pinned.copy_(...), pinned[:n].copy_(...), param.x_cpu.copy_(...);
        # net.encoder.to(...) alone. Copies into it still in flight stay:
        # one on another stream may land later.
        path = model.written_root(what) if how == "into" else model.dotted(what)
        if path is not None:
            earlier = frozenset(x for x in st.names.get(path, EMPTY) if x in st.live) \
                if how == "into" else EMPTY
            st.names[path] = earlier | {c.id}
        return EMPTY

    def consume(self, v, node, st):
        self.access(v, node, st, "read")

    def access(self, v, node, st, how):
        if not v:
            return
        hit = [c for c in v if c in st.live and not self.apart(c, node)]
        if not hit:
            return
        for cid in sorted(hit, key=lambda c: (self.m.copies[c].line, self.m.copies[c].col)
                          if c in self.m.copies else (0, 0)):
            self.report_at(node, cid, st, how)
            break
        for c in hit:
            st.live.pop(c, None)

    def attribute_view(self, path):
        """For `self.x` that this function does not bind and that the
        class's methods bind once to a view of another attribute
        (`self.x_np = self.x_cpu.numpy()`, `self.head = self.buf[:4]`): that
        attribute, whose copies `self.x` reads. None otherwise."""
        if path is None or not path.startswith("self.") or path in self.facts.values:
            return None
        v, known = self.facts.value(path)
        root = model.written_root(v, also=("numpy",)) if known and v is not None else None
        return root if root is not None and root != path and root.startswith("self.") else None

    def apart(self, cid, node):
        """The access `node` (a subscript) names a part of the copy's
        destination that the copy into a subscript of it does not write
        (`t[:, :k].copy_(g, non_blocking=True)`, then `t[:, k:] = ...`)."""
        c = self.m.copies.get(cid)
        return (c is not None and c.region is not None and isinstance(node, ast.Subscript)
                and model.dotted(node.value) == c.region[0]
                and model.regions_disjoint(c.region[1], model.slice_region(node)))

    def report_at(self, node, cid, st, how, extra_note=None):
        st.live.pop(cid, None)
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
               % (short_name(shown), how))
        notes = [(c.line, c.col, "asynchronous device-to-host copy into '%s' on %s is issued here"
                  % (short_name(into), c.stream.describe()), self.elsewhere(c.file))]
        if extra_note:
            notes.append(extra_note)
        miss = st.misses.get(cid)
        if miss is not None:
            mnode, mfile, text = miss
            notes.append((mnode.lineno, mnode.col_offset + 1, text, self.elsewhere(mfile)))
        f = Finding(node, msg, notes)
        f.copy_id, f.path, f.how = cid, path, how
        self.findings.append(f)


class Result(list):
    """The findings of a module, sorted by position; not_analysed lists the
    (line, name) of functions the budget stopped."""
    not_analysed = ()


class _Aliases:
    """Names bound by imports of torch's modules and functions, rewritten to
    the dotted names the model knows (`from torch.cuda import stream as
    cs` -> torch.cuda.stream, `import torch.cuda as tc` -> torch.cuda).
    Scopes are not told apart: an import anywhere in the module counts."""

    def __init__(self, imports):
        self.map = {}
        for n in imports:
            if isinstance(n, ast.Import):
                for a in n.names:
                    if a.asname and a.name.split(".")[0] == "torch":
                        self.map[a.asname] = a.name
            elif isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "torch" \
                    and not n.level:
                for a in n.names:
                    if a.name != "*":
                        self.map[a.asname or a.name] = n.module + "." + a.name

    def rewrite(self, loads):
        """Each read Name of the map, as an Index's `loads` lists them,
        replaced in its parent by the dotted name it stands for."""
        for parent, field, i, node in loads:
            target = self.map.get(node.id)
            if target is None:
                continue
            parts = target.split(".")
            new = ast.copy_location(ast.Name(id=parts[0], ctx=ast.Load()), node)
            for part in parts[1:]:
                new = ast.copy_location(ast.Attribute(value=new, attr=part, ctx=ast.Load()), node)
            if i is None:
                setattr(parent, field, new)
            else:
                getattr(parent, field)[i] = new


def build_module(tree, source):
    """The Module of a parsed tree, torch's imported names spelled out (the
    tree is changed in place: callers hand a tree of their own); one walk
    (module.Index) finds what the rest needs."""
    index = Index(tree)
    aliases = _Aliases(index.imports)
    if aliases.map:
        aliases.rewrite(index.loads)
    return Module(tree, source, index)


def analyse(tree, source, project=None, path=None, producer_only=False):
    """Findings of a parsed module (a Result). With a project.Project (the
    files of the run) and the module's path, calls of the project's other
    modules' functions are looked through too, and tree may be None where
    the project has built the module already. Bodies that can make only
    blocking copies (Module.blocking_copying), and every body where
    producer_only (a module that can reach no asynchronous copy), report
    the producer diagnostic's findings only: their analysis exists for it."""
    m = None
    if project is not None and path is not None:
        from .project import module_name
        name = module_name(path, project.root)
        m = project.modules.get(name)
        if m is None:
            m = build_module(tree, source)
            project.adopt(name, m, path)
        tree = m.tree
    if m is None:
        m = build_module(tree, source)
    found = {}
    stopped = []
    bodies = [(tree, [n for n in tree.body])] + [(node, node.body) for node in m.defs]
    copiers = project_copiers(m)
    for node, body in bodies:
        full = not producer_only and (id(node) in m.copying or id(node) in copiers)
        if not full and id(node) not in m.copying and id(node) not in copiers \
                and id(node) not in m.blocking_copying:
            continue  # no copy can be issued in it
        fn = Function(m, node, body)
        m.cost = 0
        if m.project is not None:
            m.project.cost = 0
        try:
            if fn.run(State()) is None and fn.report is False:
                stopped.append((getattr(node, "lineno", 1), getattr(node, "name", "<module>")))
        except OverBudget:
            stopped.append((getattr(node, "lineno", 1), getattr(node, "name", "<module>")))
            continue
        for f in fn.findings:
            if full or getattr(f, "write_id", None) is not None:
                found.setdefault(f.key(), f)
    result = Result(sorted(found.values(), key=lambda f: (f.line, f.col)))
    result.not_analysed = stopped
    if m.project is not None:
        m.project.end_file()
    return result
