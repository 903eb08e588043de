"""Calls the front end cannot see (a mixin of analysis.Function): whether a
call that is handed a pending destination reads it on the host now.

Passing the destination to a function is a host access (a user function,
`np.save`, `print`), as in the C++ check. Two kinds of call are not:

- a callee that is a class: a parameter annotated `Type[X]` / `type[X]`,
  or whose default names a class (`optimizer_class=torch.optim.AdamW`),
  constructs an object, which stores its arguments (model.is_constructor's
  rule for names that are classes);
- an opaque call on a stream the code made wait for the copy. PyTorch's
  stream is implicit: a custom operator or a TorchBind object's method
  (FBGEMM's `ssd_db.set_cuda(indices_cpu, ...)`, which reads its CPU
  tensors in a host function enqueued with `cudaLaunchHostFunc`) runs on
  the current stream. Where the code has made the current stream come after
  the copy explicitly -- the copy issued in the `with torch.cuda.stream(s)`
  block that is current at the call, or the current stream made to wait
  for it (`wait_event` of an event recorded after it, `wait_stream`) -- a
  call the front end cannot see may be such work, ordered after the copy
  on the device, as the C++ check's opaque call given the copy's stream is.
  It is not claimed. Still reported: host reads the model knows (builtins,
  torch and numpy functions, tensor methods, an element read), a host
  object made from the tensor handed to the call (`db.write(buf.numpy())`),
  a call also handed host code (`executor.submit(np.save, path, buf)`: a
  host thread reads it), and the same call on the stream current at the
  function's start, where nothing says the code meant device-side ordering.
  A view handed to it (`db.set_cuda(buf[0])`) is the tensor.

May call: model, state (and analysis.Function, through self).
"""

import ast
import builtins

from . import model

_BUILTINS = frozenset(dir(builtins))


def type_annotation(ann, depth=0):
    """Whether an annotation says the value is a class: `Type[X]`,
    `type[X]`, also inside `Optional[...]`, `Union[...]`, `... | None` or a
    string annotation."""
    if ann is None or depth > 4:
        return False
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            return type_annotation(ast.parse(ann.value, mode="eval").body, depth + 1)
        except (SyntaxError, ValueError, RecursionError):
            return False
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        return type_annotation(ann.left, depth + 1) or type_annotation(ann.right, depth + 1)
    if isinstance(ann, ast.Subscript):
        head = (model.dotted(ann.value) or "").rsplit(".", 1)[-1]
        if head in ("Type", "type"):
            return True
        if head in ("Optional", "Union"):
            inner = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
            return any(type_annotation(a, depth + 1) for a in inner)
    return False


class OpaqueCalls:

    def opaque_callee(self, node, obj_v):
        """Whether the callee of `node` is a callable value the front end
        cannot see: a method of an object held in a variable or attribute
        (`self.ssd_db.get_cuda`), or a callable held in one; not a builtin,
        an imported or module-level name, or a method of a tracked tensor."""
        path = model.dotted(node.func)
        if not path or obj_v:
            return False
        root = path.split(".")[0]
        if root in _BUILTINS or root in model.TORCH_NAMES or root in self.m.import_table() \
                or root in self.m.functions or root in self.m.classes:
            return False
        if isinstance(node.func, ast.Attribute) and model.tensor_kind(node.func.value, self.facts):
            return False
        return True

    def hands_host_code(self, node):
        """Whether a call is handed code that runs on the host: a function
        of the module or an import (`np.save`, `torch.save`, `save`), a
        method of this class (`self._write`), a lambda or a local def --
        `executor.submit(np.save, path, buf)`, `pool.submit(save, buf)` hand
        the buffer to a host thread, not to a stream."""
        for a in list(node.args) + [k.value for k in node.keywords]:
            if isinstance(a, ast.Lambda):
                return True
            path = model.dotted(a)
            if not path:
                continue
            root, _, rest = path.partition(".")
            if not rest and (root in self.m.functions or root in self.local_defs()
                             or root in self.m.import_table() or root in _BUILTINS):
                return True
            if rest and (root in self.m.import_table() or root in model.TORCH_NAMES):
                return True
            if root == "self" and "." not in rest and self.cls is not None \
                    and self.m.method(self.cls, rest) is not None:
                return True
        return False

    @staticmethod
    def host_value(arg):
        """An argument that is a host object made from the tensor
        (`buf.numpy()`, `buf.tolist()`): no stream work takes it."""
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                   and n.func.attr in ("numpy", "tolist") for n in ast.walk(arg))

    def stream_work(self, v, st):
        """The copies of v that an opaque call here may use as work on the
        current stream, explicitly ordered after them (see above)."""
        # a stream block (`with torch.cuda.stream(s)`, set_stream) made the
        # current stream another than the function's; `with
        # torch.inference_mode():` and other managers do not
        cur = st.current()
        in_block = cur != st.cur[0]
        out = set()
        for cid in v:
            info, c = st.live.get(cid), self.m.copies.get(cid)
            if info is None or c is None or cur not in info.streams:
                continue  # not known to be ordered before the current stream
            if c.stream != cur or in_block:
                out.add(cid)  # the current stream waited for it, or it is the block's stream
        return frozenset(out)

    def class_param(self, name):
        """Whether `name` is a parameter of this function that holds a
        class: annotated `Type[X]` / `type[X]`, or defaulting to a class
        (a CamelCase name)."""
        node = self.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or name not in self.params:
            return False
        a = node.args
        ann = next((p.annotation for p in a.posonlyargs + a.args + a.kwonlyargs if p.arg == name), None)
        d = next((d for p, d in model.param_defaults(node) if p.arg == name), None)
        holds_class = type_annotation(ann) or (d is not None and model.is_constructor(model.dotted(d), ()))
        # ... and the body does not rebind it (the last test: it walks the body)
        return holds_class and not self.m.rebinds(node, name)
