"""Objects that hold copies (a mixin of analysis.Function): a class's
fields, an object's own `.to()`, and `torch.nn.Module`.

- A construction of a class of the project carries the copies of its
  arguments into the fields they initialise: its `__init__` (also one
  inherited from a base of the project) is looked through as a method of
  the new object (`self.a = a`, `self.y = t.to("cpu", non_blocking=True)`),
  or, without one, the fields of a dataclass or a NamedTuple in the order
  the class body declares them (by name for keywords).
  `dataclasses.replace(obj, f=v)` / `obj._replace(f=v)` keeps obj's fields
  and sets f. The fields are paths like any other (`h = Batch(x.to("cpu",
  non_blocking=True), y)` makes `h.x` pending, not `h.y`; so does `obj.y =
  t.to(...)` on any object, and a project function storing into an object
  it is handed); the object itself names none, so handing it to a function
  reads nothing (as a container: it may only be stored), except to `print`
  / `repr` / `str` and torch / NumPy functions (`torch.save(batch, f)`),
  which read every field. The fields travel into a project function the
  object is handed to (`p.x` in the callee is `h.x`), and out of one that
  returns such an object (`return Batch(...)`, `return out` with `out.x`
  set).
- A class of the project with its own `.to()` / `.cpu()` / `.copy_()`: the
  call runs that method (looked through like any method), not
  `torch.Tensor.to`; where the method gives nothing back the front end can
  follow, the call is taken as the tensor method it looks like.
- An object of a class the front end cannot see, made pending as a whole
  by a `.to(<cpu>, non_blocking=True)` (a TensorDict, a PyG `Data`, an
  `nn.Module`): a field of it used as only a tensor is (a tensor method that
  no plain Python value has, `h.x.numpy()`, `h.x.sum()`, `m.fc.weight.add_(1)`,
  or handed to a torch / NumPy function) reads it. Its other fields
  (`h.num_nodes`, `h.config.size`) are not claimed.
- `torch.nn.Module.to(<cpu>, non_blocking=True)` moves the module's tensors
  in place and returns the module: a `.to(...)` whose result is discarded
  (a statement of its own, `model.to("cpu", non_blocking=True)`,
  `net.encoder.to(...)`) makes its receiver pending, and `model.to("cuda")`
  / `model.cuda()` alone moves it back (the copy back is ordered after the
  move on the stream); `model(x)` (the forward on the host) reads it;
  `state_dict()`, `parameters()` and the like hold its tensors as a
  container's elements (containers.py); `eval()`, `train()` and the other
  methods that touch no data are not reads.

Source: `torch.nn.Module.to` ("non_blocking: ... asynchronously with
respect to the host if possible"; it applies `Tensor.to` to each parameter
and buffer, in place), the `dataclasses` module (field order).

May call: model, state (and analysis.Function, through self).
"""

import ast

from . import model
from .state import EMPTY

# torch.nn.Module methods that return the module's tensors (references).
MODULE_VIEWS = {"state_dict", "parameters", "named_parameters", "buffers", "named_buffers"}
# dict methods whose result holds the dict's values.
DICT_VIEWS = {"items", "values"}
# torch.nn.Module methods that touch no tensor data.
MODULE_META = {"eval", "train", "zero_grad", "register_buffer", "register_parameter",
               "register_module", "add_module", "register_forward_hook",
               "register_forward_pre_hook", "register_full_backward_hook",
               "register_full_backward_pre_hook", "modules", "children", "named_modules",
               "named_children", "get_submodule", "extra_repr", "keys"}
# Tensor methods no plain Python value (str, list, dict, int) has: a field
# used with one is a tensor. Not `split` / `select` (str), nor `t`.
TENSOR_USES = (model.BLOCKING_READS | model.REDUCTIONS | model.SYNCING_OPS
               | (model.VIEW_METHODS - {"split", "select"}) | {"clone", "numpy", "tolist"})
# Host functions that read every tensor of an object they are given.
OBJECT_READERS = {"print", "repr", "str", "format", "pickle.dump", "pickle.dumps"}
# The receiver of a constructor's __init__, looked through (a path no code writes).
NEW_OBJECT = "<new>"
# Methods a class may define to move its tensors, called like Tensor's.
MOVING_METHODS = {"to", "cpu", "cuda", "copy_"}
# Methods of a pending object that read no tensor data (analysis.call).
NOT_READING_METHODS = MODULE_META | MODULE_VIEWS | DICT_VIEWS
# Views whose iteration yields (name, tensor) pairs.
PAIR_VIEWS = {"items", "named_parameters", "named_buffers"}
DATACLASS_DECORATORS = {"dataclass", "dataclasses.dataclass"}
TUPLE_BASES = {"NamedTuple", "typing.NamedTuple"}
REPLACE_FUNCTIONS = {"replace", "dataclasses.replace"}


def declared_fields(cdef):
    """The fields a dataclass or NamedTuple declares, in order (annotated
    names of the class body, not ClassVar ones)."""
    out = []
    for n in cdef.body:
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            head = (model.dotted(n.annotation.value) if isinstance(n.annotation, ast.Subscript)
                    else model.dotted(n.annotation)) or ""
            if head.rsplit(".", 1)[-1] != "ClassVar":
                out.append(n.target.id)
    return out


class ObjectFields:
    """Methods of analysis.Function for objects that hold copies."""

    # -- constructions -----------------------------------------------------

    def construction_class(self, node):
        """(Module, class) a call constructs: a class of the project, or
        type(self)(...) / self.__class__(...) in a method; else None."""
        f = node.func
        if self.cls is not None and (
                (isinstance(f, ast.Call) and model.callee_name(f) == "type"
                 and len(f.args) == 1 and model.dotted(f.args[0]) == "self")
                or model.dotted(f) == "self.__class__"):
            return (self.m, self.cls)
        return self.m.class_ref(model.dotted(f))

    def construct(self, node, arg_vals, kw_vals, st):
        """The fields a construction (or a replace) initialises with
        copies, kept for the assignment or return that names the object."""
        fields = self.replaced_fields(node, kw_vals, st)
        if fields is None:
            ref = self.construction_class(node)
            fields = self.class_fields(ref, node, arg_vals, kw_vals, st) if ref is not None else None
        if fields:
            self.obj_fields[id(node)] = fields

    def replaced_fields(self, node, kw_vals, st):
        """dataclasses.replace(obj, f=v) / obj._replace(f=v): obj's fields,
        f replaced; None for any other call."""
        name = model.callee_name(node) or ""
        if name in REPLACE_FUNCTIONS and node.args:
            base = node.args[0]
        elif isinstance(node.func, ast.Attribute) and node.func.attr == "_replace":
            base = node.func.value
        else:
            return None
        fields = self.fields_of(base, st)
        for k, (_, v) in zip(node.keywords, kw_vals):
            if k.arg:
                fields.pop(k.arg, None)
                if v:
                    fields[k.arg] = v
        return fields

    def class_fields(self, ref, node, arg_vals, kw_vals, st):
        mod, cls = ref
        init = mod.method(cls, "__init__")
        if init is not None:
            return self.run_init(init, node, arg_vals, kw_vals, st)
        cdef = mod.class_def(cls)
        if cdef is None:
            return {}
        decorators = {model.dotted(d.func if isinstance(d, ast.Call) else d) for d in cdef.decorator_list}
        if not (decorators & DATACLASS_DECORATORS or set(mod.bases.get(cls, ())) & TUPLE_BASES):
            return {}
        fields = declared_fields(cdef)
        out = {}
        for f, (a, v) in zip(fields, arg_vals):
            if isinstance(a, ast.Starred):
                break
            if v:
                out[f] = v
        for k, (_, v) in zip(node.keywords, kw_vals):
            if k.arg in fields and v:
                out[k.arg] = v
        return out

    def run_init(self, init, node, arg_vals, kw_vals, st):
        """The fields `__init__` leaves holding copies, looked through as a
        method of a new object: `self.a = a`, `self.y = t.to("cpu",
        non_blocking=True)`, a method it calls."""
        handed = any(v for _, v in arg_vals + kw_vals) or self.hands_fields(node, st)
        if self.helper_of(init) is None or not (handed or id(init) in self.m.module_of(init).copying):
            return {}
        call = ast.copy_location(ast.Call(func=ast.Attribute(value=ast.Name(id=NEW_OBJECT), attr="__init__"),
                                          args=node.args, keywords=node.keywords), node)
        self.inline(init, call, arg_vals, kw_vals, st)
        pre = NEW_OBJECT + "."
        fields = {k[len(pre):]: v for k, v in st.names.items() if k.startswith(pre) and v}
        for table in (st.names, st.elems):
            for k in [k for k in table if k.startswith(pre)]:
                del table[k]
        return {f: v for f, v in fields.items() if "." not in f}

    def hands_fields(self, node, st):
        """Whether a call is handed an object whose fields hold copies."""
        return any(self.fields_of(a, st) for a in list(node.args) + [k.value for k in node.keywords])

    def fields_of(self, node, st):
        """{field: copies} of the object an expression gives: a
        construction or call whose fields are known, or a path whose
        fields hold copies."""
        if isinstance(node, ast.Call):
            return dict(self.obj_fields.get(id(node), {}))
        path = model.dotted(node)
        if not path:
            return {}
        pre = path + "."
        return {k[len(pre):]: v for k, v in st.names.items()
                if k.startswith(pre) and "." not in k[len(pre):] and v}

    def name_fields(self, path, value_node, st):
        """`h = Batch(...)`: h's fields hold what the construction gave, and
        the events its `__init__` recorded (`self.ready.record()`) are
        h's."""
        if not isinstance(value_node, ast.Call):
            return
        pre = NEW_OBJECT + "."

        def rename(e):
            return path + e[len(NEW_OBJECT):] if e.startswith(pre) else e
        for cid, info in list(st.live.items()):
            if any(e.startswith(pre) for e in info.events):
                st.live[cid] = info.replace(events=frozenset(rename(e) for e in info.events))
        if any(e.startswith(pre) for e in st.recorded | st.recorded_all):
            st.recorded = frozenset(rename(e) for e in st.recorded)
            st.recorded_all = frozenset(rename(e) for e in st.recorded_all)
        for f, v in self.fields_of(value_node, st).items() if isinstance(value_node, ast.Call) else ():
            st.names[path + "." + f] = v
            for cid in v:
                c = self.m.copies.get(cid)
                if c is not None and (c.name is None or c.name.startswith("self.")):
                    c.name = path + "." + f  # named in __init__ as self.f

    def return_fields(self, value, st):
        for f, v in self.fields_of(value, st).items():
            self.returned_fields[f] = self.returned_fields.get(f, EMPTY) | v

    def fields_back(self, renames, out):
        """{caller path: copies} of the fields a callee stored into objects
        it was handed (`def off(b, t): b.y = t.to(...)`: the caller's
        `batch.y`). renames: (argument path, parameter)."""
        stored = {}
        if out is None:
            return stored
        for ap, p in renames:
            if p == "self":
                continue  # the receiver: the method's own renames
            pre = p + "."
            for k, v in out.names.items():
                if k.startswith(pre) and v:
                    stored[ap + k[len(p):]] = v
        return stored

    def pass_fields(self, pairs, entry, st):
        """The fields of an object handed to a function: the parameter's
        (`p.x` in the callee is the caller's `h.x`). pairs: (parameter,
        argument node). Returns {parameter: argument} of those handed one."""
        handed = {}
        for p, a in pairs:
            if p and not isinstance(a, ast.Starred):
                for f, v in self.fields_of(a, st).items():
                    entry.names[p + "." + f] = v
                    handed[p] = a
        return handed

    def own_mover(self, helper, attr):
        """Whether a call that looks like Tensor.to / .cpu / .copy_ runs a
        method of a class of the project of that name instead."""
        return helper is not None and attr in MOVING_METHODS and helper.name == attr

    # -- objects the front end cannot see ---------------------------------

    def known_object(self, path):
        """Whether path holds an object of a class of the project (its
        fields are what constructions give, not guessed)."""
        v, _ = self.facts.value(path)
        return (isinstance(v, ast.Call) and self.construction_class(v) is not None) or \
            self.instance_class_of(self.canonical(path)) is not None

    def field_through(self, node, st):
        """The copies of an object of unseen class that `node`, a field of
        it (`h.x`, `m.fc.weight`), may be: the object's, where the object
        is pending as a whole and nothing is known of its fields."""
        attrs = []
        root = node
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            if isinstance(root, ast.Attribute):
                if root.attr in model.META_ATTRS:
                    return EMPTY
                attrs.append(root.attr)
            root = root.value
            path = model.dotted(root)
            v = st.names.get(path, EMPTY) if path else EMPTY
            if v and attrs:  # the nearest pending holder: `net.encoder` of net.encoder[0].weight
                return EMPTY if self.known_object(path) else v
        return EMPTY

    def tensor_use_of_field(self, func, attr, st):
        """`h.x.numpy()` / `m.fc.weight[0].item()` (a tensor-only method on
        a field of an unseen object, or on an element of one): the copies
        it reads."""
        if attr in TENSOR_USES or (attr.endswith("_") and not attr.startswith("_")):
            if isinstance(func.value, (ast.Attribute, ast.Subscript)):
                return self.field_through(func.value, st)
        return EMPTY

    def tensor_args(self, name, arg_vals, st):
        """Arguments of a torch / NumPy function that are fields of an
        unseen pending object (`torch.cat([h.x, h.y])`): what they read."""
        if not (name.startswith(("torch.", "np.", "numpy.")) or name in OBJECT_READERS) \
                or name in model.METADATA_FUNCTIONS:
            return arg_vals
        tensors = name.startswith(("torch.", "np.", "numpy."))
        out = []
        for a, v in arg_vals:
            for e in a.elts if isinstance(a, (ast.List, ast.Tuple)) else [a]:
                if not v and tensors and isinstance(e, (ast.Attribute, ast.Subscript)):
                    v = self.field_through(e, st)  # torch.cat([h.a, h.b]), not print(h.size)
                for w in self.fields_of(e, st).values() if not v else ():
                    v |= w  # print(batch), torch.save(batch, f): every field
            out.append((a, v))
        return out

    # -- torch.nn.Module ---------------------------------------------------

    def in_place_move(self, node, copy):
        """A `.to(<cpu>, non_blocking=True)` whose result is discarded, of a
        receiver not known to be a tensor: nn.Module.to, in place."""
        if copy is None or copy[0] != "result" or id(node) != self.discarded:
            return copy
        recv = node.func.value
        if model.dotted(recv) and model.tensor_kind(recv, self.facts) is None:
            return ("inplace", recv)
        return copy

    def moved_back(self, node, attr, st):
        """`model.to("cuda")` / `model.cuda()` alone: the module is on the
        GPU again (its copy back is ordered on the stream after the move to
        the host): its tensors on the host are no longer what it holds."""
        if id(node) != self.discarded or attr not in ("to", "cuda") or (
                attr == "to" and model.to_device(node, self.facts) == "cpu"):
            return
        path = model.dotted(node.func.value)
        if path and path in st.names:
            del st.names[path]
            for k in [k for k in st.names if k.startswith(path + ".")]:
                del st.names[k]

    def module_elements(self, node, st):
        """`model.state_dict()`, `sd.items()`: the copies among the elements
        of the container it gives (the module's, the dict's)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in MODULE_VIEWS | DICT_VIEWS):
            return EMPTY
        path = model.dotted(node.func.value)
        if not path:
            return EMPTY
        held = st.elems.get(path, EMPTY)
        if node.func.attr in MODULE_VIEWS:
            held |= st.names.get(path, EMPTY)
        return held

    def call_object(self, node, st):
        """`model(x)` of a pending object (a module moved to the host): its
        forward reads its tensors on the host."""
        path = model.dotted(node.func)
        v = st.names.get(path, EMPTY) if path else EMPTY
        if v:
            self.access(v, node.func, st, "called")
