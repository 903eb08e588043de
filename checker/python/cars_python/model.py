"""The PyTorch 2.x API model of the Python front end: which expressions are
asynchronous device-to-host copies, synchronizations, event records,
streams, and which uses of a tensor read its data on the host. Pure
functions of `ast` nodes and the function's Facts (what each local name was
bound to); the flow analysis (analysis.py) decides what is pending where.

The table (checker/python/README.md has it with sources):

  copy        t.to(<cpu>, ..., non_blocking=True), t.to(<cpu tensor>,
              non_blocking=True) with t not known to be on the CPU: the
              result is a new pinned tensor; dst.copy_(src, non_blocking=True)
              into dst pinned, or of unknown origin with a host name (x_cpu,
              host_buf, pinned), src not known on the CPU
  sync        torch.cuda.synchronize(); <stream>.synchronize();
              <event>.synchronize(); a true <event>/<stream>.query(); a
              blocking read of a tensor not known to be on the CPU (.item(),
              .tolist(), .cpu(), .numpy(), .to(<cpu>) without non_blocking,
              print, bool/int/float)
  not a sync  wait_stream, wait_event, Event.wait, Event.record alone
  streams     the current stream (with torch.cuda.stream(s): changes it);
              torch.cuda.Stream() (a new stream, non-blocking with respect
              to the default stream); torch.cuda.default_stream(); anything
              else is a stream the check cannot tell apart from any other
  not a read  metadata (.shape, .dtype, .device, .is_pinned(), .numel(),
              ...), views (slicing, .view, .numpy(), ...: an alias), copying
              it to the GPU, `is None`, len/isinstance/type/id, return

Standard library only.
"""

import ast
import re

TORCH_NAMES = {"torch"}
FACTORIES = {"empty", "zeros", "ones", "full", "rand", "randn", "randint", "arange",
             "tensor", "as_tensor", "empty_strided", "linspace", "eye", "zeros_like",
             "ones_like", "empty_like", "full_like", "rand_like", "randn_like"}
# Attributes and methods that read a tensor's metadata, not its data.
META_ATTRS = {"shape", "dtype", "device", "is_cuda", "is_cpu", "ndim", "layout",
              "requires_grad", "names", "nbytes", "itemsize", "grad_fn", "is_leaf",
              "is_sparse", "is_quantized", "is_meta"}
META_METHODS = {"size", "dim", "numel", "nelement", "stride", "is_pinned", "element_size",
                "requires_grad_", "new_empty", "new_zeros", "new_ones", "new_full",
                "is_contiguous", "data_ptr", "storage_offset", "get_device", "ndimension",
                "is_floating_point", "is_complex", "untyped_storage", "is_shared",
                "record_stream"}
# Methods that always return a view of their tensor, never a copy (PyTorch's
# "Tensor Views" page; reshape, flatten and contiguous may copy, and are not
# here): the view's memory is the tensor's, pinned where it is pinned.
ALWAYS_VIEWS = {"view", "view_as", "narrow", "select", "t", "transpose", "permute", "squeeze",
                "unsqueeze", "expand", "expand_as", "unflatten", "detach", "as_strided",
                "unfold", "movedim", "swapaxes", "swapdims", "diagonal"}
# Methods that return a view (an alias) of the tensor's memory.
VIEW_METHODS = {"view", "view_as", "reshape", "reshape_as", "narrow", "select", "t", "transpose",
                "permute", "squeeze", "unsqueeze", "expand", "expand_as", "flatten",
                "unflatten", "contiguous", "detach", "as_strided", "numpy", "unbind",
                "split", "chunk", "tensor_split", "unfold", "movedim", "swapaxes", "diagonal",
                "real", "imag", "mT", "mH", "H", "T", "data", "pin_memory",
                # dtype conversions return the tensor itself when its dtype
                # is that already (torchrec's .to("cpu", non_blocking=True).float())
                "float", "double", "half", "bfloat16", "int", "long", "short", "bool",
                "byte", "char", "type_as"}
# Methods of containers that store an argument (a reference), not read it.
STORING_METHODS = {"append", "extend", "insert", "appendleft", "extendleft", "put_nowait",
                   "push", "setdefault", "update"}
# The same, also names of tensor methods: storing unless called on a tensor
# (queue.put(t), set.add(t); not t.add(u) or t.put(i, v)).
STORING_UNLESS_TENSOR = {"put", "add"}
# Reads that block the host until the tensor's producer on the current
# stream is done, when the tensor is on the GPU.
BLOCKING_READS = {"item", "tolist", "cpu", "__bool__", "__float__", "__int__"}
# Tensor methods and torch functions whose result's size depends on the
# data: on the GPU they copy to the host and wait (the C++ model's ATen
# barriers: nonzero, masked_select, unique, equal, is_nonzero, ...).
SYNCING_OPS = {"nonzero", "masked_select", "unique", "unique_consecutive", "equal", "is_nonzero",
               "argwhere"}
SYNCING_FUNCTIONS = {"torch." + n for n in SYNCING_OPS} | {"torch.allclose"}
# Tensor methods whose result is a scalar tensor: on the GPU, testing it
# (if, while, assert) or converting it (int, float, bool) blocks the host.
REDUCTIONS = {"any", "all", "sum", "max", "min", "mean", "prod", "norm", "count_nonzero",
              "argmax", "argmin", "amax", "amin", "std", "var", "isnan", "isinf", "isfinite",
              "eq", "ne", "gt", "lt", "ge", "le", "abs"}
# Functions whose tensor arguments give only metadata (shape, dtype, device).
METADATA_FUNCTIONS = {"torch." + n for n in ("empty_like", "zeros_like", "ones_like", "full_like",
                                             "rand_like", "randn_like", "randint_like", "is_tensor",
                                             "numel", "is_floating_point", "is_complex",
                                             "is_storage")}
# Functions that keep a reference to their arguments rather than read them.
STORING_FUNCTIONS = {"partial", "setattr", "heappush", "heapreplace", "heappushpop", "replace",
                     "_replace", "ref", "proxy", "finalize", "dict", "tuple", "list", "set",
                     "frozenset", "deque", "OrderedDict", "defaultdict", "SimpleNamespace",
                     "namedtuple", "hash", "id"}
# Builtins whose argument is inspected, not read.
NOT_READING_BUILTINS = {"len", "isinstance", "type", "id", "hasattr", "getattr", "callable"}
CONVERTING_BUILTINS = {"bool", "float", "int", "print", "repr", "str", "complex"}
NOT_SYNCS = {"wait_stream": "wait_stream makes a stream wait on the device; it does not block the host",
             "wait_event": "wait_event makes a stream wait on the device; it does not block the host",
             "wait": "Event.wait makes a stream wait on the device; it does not block the host"}


# A name that says its tensor lives on the host (x_cpu, cpu_buf, host_out,
# pinned, self.input_ids.cpu): taken as a host tensor where nothing else
# tells.
HOST_TOKENS = {"cpu", "host", "pinned", "pin", "staging", "h"}
NOT_HOST_TOKENS = {"gpu", "cuda", "dev", "device", "d", "unpinned", "pageable", "to", "from"}


def host_name(path):
    """Whether a name says its tensor lives in pinned host memory: one of
    its words (split at '_' and '.') is cpu, host, pinned, staging, and none
    says otherwise (gpu, dev, unpinned, pageable; host_to_dev_ids,
    gpu_from_cpu, ghost_cells are not)."""
    words = set(re.split(r"[._]+", (path or "").lower()))
    return bool(words & HOST_TOKENS - {"h"}) and not words & NOT_HOST_TOKENS


def written_root(node, also=()):
    """The dotted name of the tensor whose memory a write into `node` lands
    in: `buf` of `buf[:n]`, `buf[i]`, `buf[:n].view_as(g)`,
    `self.buf.narrow(0, 0, n)` (basic indexing and ALWAYS_VIEWS return
    views; `also`: more such methods, `numpy` of a CPU tensor), or None.
    Not through a subscript by a list or a call's result (advanced indexing
    copies) or a method that may copy (reshape)."""
    while True:
        if isinstance(node, ast.Subscript):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if not all(isinstance(p, (ast.Slice, ast.Constant, ast.Name, ast.Attribute,
                                      ast.BinOp, ast.UnaryOp)) for p in parts):
                return None
            node = node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and (node.func.attr in ALWAYS_VIEWS or node.func.attr in also)):
            node = node.func.value
        else:
            return dotted(node)


def slice_region(node):
    """The part of its tensor a subscript by basic indexing names, per
    dimension from the first: ('range', lo, hi), each bound the source text
    of its expression ('' where open), or ('index', text); None where a
    dimension is anything else (a step, Ellipsis, None, a list)."""
    if not isinstance(node, ast.Subscript):
        return None
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    out = []
    for p in parts:
        if isinstance(p, ast.Slice) and p.step is None:
            out.append(("range", ast.unparse(p.lower) if p.lower else "",
                        ast.unparse(p.upper) if p.upper else ""))
        elif (isinstance(p, (ast.Name, ast.Attribute, ast.BinOp, ast.UnaryOp))
              or (isinstance(p, ast.Constant) and type(p.value) is int)):
            out.append(("index", ast.unparse(p)))
        else:
            return None
    return tuple(out)


def _index(text):
    try:
        v = int(text)
    except ValueError:
        return None
    return v if v >= 0 else None


def _bounds(part):
    """[lo, hi) of one dimension of a slice_region where its texts are
    non-negative integer literals (an open start is 0), each else None."""
    if part[0] == "index":
        i = _index(part[1])
        return i, (i + 1 if i is not None else None)
    return _index(part[1] or "0"), (_index(part[2]) if part[2] else None)


def regions_disjoint(a, b):
    """Whether two regions of one tensor (slice_region) share no element:
    in some dimension both name, constant indices or ranges are apart, or
    one range ends where the other begins by the same bound (`[:, :k]` and
    `[:, k:k + m]`; a bound is compared as written, as a value the two
    statements share). False where either is None."""
    if a is None or b is None:
        return False
    for x, y in zip(a, b):
        if x[0] == "range" and y[0] == "range":
            if (x[2] and x[2] == y[1]) or (y[2] and y[2] == x[1]):
                return True
        (lo1, hi1), (lo2, hi2) = _bounds(x), _bounds(y)
        if (hi1 is not None and lo2 is not None and hi1 <= lo2) or (
                hi2 is not None and lo1 is not None and hi2 <= lo1):
            return True
    return False


def dotted(node):
    """'a.b.c' for Name/Attribute chains, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def callee_name(call):
    return dotted(call.func) if isinstance(call, ast.Call) else None


def kwarg(call, name, facts=None):
    """The value of keyword `name` of a call: written out, or (given facts)
    inside a `**` argument the check can read -- a dict display
    (`**{"non_blocking": True}`), `dict(non_blocking=True)`, or a name bound
    once to one of them (`kw = dict(non_blocking=True); x.to("cpu", **kw)`).
    None when absent or unreadable."""
    for k in call.keywords:
        if k.arg == name:
            v = k.value
            return v.value if isinstance(v, ast.NamedExpr) else v  # (nb := False): False
    if facts is None:
        return None
    for k in call.keywords:
        if k.arg is None:
            d = k.value
            if isinstance(d, ast.Name):
                d, _ = facts.value(d.id)
            if isinstance(d, ast.Dict):
                for key, v in zip(d.keys, d.values):
                    if isinstance(key, ast.Constant) and key.value == name:
                        return v
            elif isinstance(d, ast.Call) and callee_name(d) == "dict":
                v = kwarg(d, name)
                if v is not None:
                    return v
    return None


def is_true(node, facts=None):
    if isinstance(node, ast.Constant):
        return node.value is True
    if isinstance(node, ast.Name) and facts is not None:
        return facts.constant(node.id) is True
    return False


def may_be_true(node, facts):
    """Whether a `non_blocking` argument may be true: a true constant, or a
    value the check cannot read (a parameter the call does not bind, a
    variable bound to a call or to two values, an attribute, a call:
    InvokeAI's `non_blocking=TorchDevice.get_non_blocking(dev)`, which is
    True for CUDA). Only a false constant, written or bound, is not."""
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return bool(node.value)
    path = dotted(node)
    if path is not None:
        v, _ = facts.value(path)
        if isinstance(v, ast.Constant):
            return bool(v.value)
    return True


def param_defaults(fn):
    """(parameter, default expression) for each parameter of a function
    definition that has a default: positional ones, then keyword-only."""
    a = fn.args
    positional = a.posonlyargs + a.args
    return list(zip(positional[len(positional) - len(a.defaults):], a.defaults)) + [
        (p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]


def non_blocking_arg(call, facts):
    """The `non_blocking` argument of `.to(...)` / `.copy_(...)`, or None:
    keyword (also through a readable `**` dict), or positional
    (`to(device, dtype, non_blocking)`, `to(other, non_blocking)`,
    `copy_(src, non_blocking)`)."""
    nb = kwarg(call, "non_blocking", facts)
    if nb is not None:
        return nb
    attr = call.func.attr if isinstance(call.func, ast.Attribute) else None
    if attr == "copy_":
        return call.args[1] if len(call.args) >= 2 else None
    if len(call.args) >= 3:
        return call.args[2]
    if len(call.args) == 2 and tensor_kind(call.args[0], facts) in ("pinned", "pageable"):
        return call.args[1]
    return None


def device_of(node, facts):
    """'cpu', 'cuda' for a device expression, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        v = node.value.split(":")[0]
        return v if v in ("cpu", "cuda") else None
    if isinstance(node, ast.Call):
        name = callee_name(node)
        if name in ("torch.device", "device") and node.args:
            return device_of(node.args[0], facts)
    if isinstance(node, ast.Name):
        return facts.device(node.id)
    name = dotted(node)
    if name in ("torch.cuda.current_device",):
        return "cuda"
    return None


class Stream:
    """A stream as the analysis names it: kind is 'current' (the stream
    current at the function's start), 'new' (a torch.cuda.Stream() this
    function created, name its variable), 'default', or 'any' (an
    expression the check cannot identify: a parameter, an attribute, a
    call's result)."""
    __slots__ = ("kind", "name")

    def __init__(self, kind, name=""):
        self.kind, self.name = kind, name

    def __eq__(self, other):
        return isinstance(other, Stream) and (self.kind, self.name) == (other.kind, other.name)

    def __hash__(self):
        return hash((self.kind, self.name))

    def __repr__(self):
        return "Stream(%s,%s)" % (self.kind, self.name)

    def describe(self):
        return {"current": "the current stream", "default": "the default stream",
                "capture": "a CUDA graph capture",
                "new": "stream '%s'" % self.name}.get(self.kind, "stream '%s'" % self.name
                                                      if self.name else "an unknown stream")


CURRENT = Stream("current")
DEFAULT = Stream("default")
# The current stream inside `with torch.cuda.graph(g):`: work there is
# captured into the graph, not run ("CUDA Graphs": capture records the
# kernels; they run at g.replay(), on the stream current then).
CAPTURE = Stream("capture")
GRAPH_CAPTURES = ("torch.cuda.graph", "torch.cuda.graphs.graph")


def known_different(a, b):
    """Whether streams a and b are known to be different streams. Where the
    check cannot tell, they are not (it must not claim they differ)."""
    if a == b or a.kind == "any" or b.kind == "any":
        return False
    if a.kind == "new" or b.kind == "new":
        return True  # a stream this function created is no other one
    return False     # current vs default: the caller may not have changed it


# What a parameter is bound to when the call hands it a tensor of a known
# kind (module.prepare's `kinds`): an expression tensor_kind() reads so.
KIND_EXPRESSIONS = {
    "gpu": ast.parse('torch.empty(0, device="cuda")', mode="eval").body,
    "pinned": ast.parse("torch.empty(0, pin_memory=True)", mode="eval").body,
    "pageable": ast.parse("torch.empty(0)", mode="eval").body,
}


def tensor_kind(node, facts):
    """'gpu', 'pinned', 'pageable' or None (unknown) for a tensor expression."""
    if isinstance(node, ast.Name):
        return facts.kind(node.id)
    if isinstance(node, ast.Attribute):
        return facts.kind(dotted(node)) if dotted(node) else None
    if isinstance(node, ast.Subscript):
        return tensor_kind(node.value, facts)  # h[0], h[:n]: a view, where h is
    if not isinstance(node, ast.Call):
        return None
    name = callee_name(node) or ""
    head, _, last = name.rpartition(".")
    if head in TORCH_NAMES and last in FACTORIES:
        dev = kwarg(node, "device")
        if dev is not None:
            d = device_of(dev, facts)
            if d == "cuda":
                return "gpu"
            if d != "cpu":
                return None
        if last.endswith("_like") and dev is None:
            return None
        if is_true(kwarg(node, "pin_memory"), facts):
            return "pinned"
        return "pageable"
    if head in TORCH_NAMES and last == "from_numpy":
        return "pageable"
    if isinstance(node.func, ast.Attribute):
        attr = node.func.attr
        if attr in ALWAYS_VIEWS:
            return tensor_kind(node.func.value, facts)  # buf[:n].view_as(g)
        if attr == "cuda":
            return "gpu"
        if attr == "pin_memory":
            return "pinned"
        if attr == "cpu":
            return "pageable"  # a new pageable tensor (or itself, already on the CPU)
        if attr == "to":
            d = to_device(node, facts)
            if d == "cuda":
                return "gpu"
            if d == "cpu":
                return "pinned" if non_blocking_of_to(node, facts) else None
    return None


def to_device(call, facts):
    """The device a `.to(...)` call moves to: 'cpu', 'cuda', or None."""
    dev = kwarg(call, "device")
    if dev is not None:
        return device_of(dev, facts)
    if call.args:
        d = device_of(call.args[0], facts)
        if d:
            return d
        k = tensor_kind(call.args[0], facts)
        if k in ("pinned", "pageable"):
            return "cpu"
        if k == "gpu":
            return "cuda"
    return None


def non_blocking_of_to(call, facts, maybe=False):
    """Whether `.to(...)` is non-blocking: its argument is true (with
    `maybe`, may be true: may_be_true)."""
    nb = non_blocking_arg(call, facts)
    return may_be_true(nb, facts) if maybe else nb is not None and is_true(nb, facts)


def async_copy(call, facts):
    """For an asynchronous device-to-host copy: ('result', src) when the
    copy's destination is the call's result (t.to(cpu, non_blocking=True)),
    ('into', dst) for dst.copy_(src, non_blocking=True); else None."""
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return None
    attr, obj = call.func.attr, call.func.value
    if attr == "to":
        if to_device(call, facts) != "cpu" or not non_blocking_of_to(call, facts, maybe=True):
            return None
        if tensor_kind(obj, facts) in ("pinned", "pageable"):
            return None  # already on the CPU: returns itself
        return ("result", obj)
    if attr == "copy_" and call.args:
        if not may_be_true(non_blocking_arg(call, facts), facts):
            return None
        dst_kind = tensor_kind(obj, facts)
        if dst_kind in ("gpu", "pageable"):
            return None  # host-to-device, or synchronous into pageable memory
        if dst_kind is None and not host_name(dotted(obj)):
            # Of unknown origin: Python has no types to tell a GPU tensor
            # from a host one, and device-to-device copy_ is the common
            # case (vLLM's input_ids.copy_(..., non_blocking=True)); a name
            # saying it is on the host (x_cpu, self.host_buf, pinned) is
            # taken as one.
            return None
        if tensor_kind(call.args[0], facts) in ("pinned", "pageable"):
            return None  # a host source
        return ("into", obj)
    return None


def blocking_host_copy(call, facts):
    """For `dst.copy_(src, ...)` between the host and the device that the
    host waits for: "to-host" (dst known on the CPU, src not: without a
    true non_blocking, or into pageable memory, where cudaMemcpyAsync
    returns after the copy), "to-device" (src known on the CPU, dst not,
    without non_blocking); else None. Both synchronize the current stream
    (`copy_`: "non_blocking=False" waits; at::native copy_ calls
    cudaStreamSynchronize on the current stream; semantics.md: pageable
    destination 0/5)."""
    dst_kind, src_kind = tensor_kind(call.func.value, facts), tensor_kind(call.args[0], facts)
    nb = may_be_true(non_blocking_arg(call, facts), facts)
    if dst_kind in ("pinned", "pageable") and src_kind not in ("pinned", "pageable"):
        return "to-host" if not nb or dst_kind == "pageable" else None
    if src_kind in ("pinned", "pageable") and dst_kind not in ("pinned", "pageable"):
        return "to-device" if not nb else None
    return None


def stream_of(node, facts, st):
    """The Stream an expression names at a point of state st (its current
    stream, and the stream current where the function began)."""
    current = st.current()
    name = callee_name(node) if isinstance(node, ast.Call) else None
    if name in ("torch.cuda.current_stream", "torch.cuda.current_stream_"):
        return current if not node.args and not node.keywords else Stream("any")
    if name == "torch.cuda.default_stream":
        return DEFAULT if not node.args and not node.keywords else Stream("any")
    if isinstance(node, ast.Name):
        return facts.stream(node.id, st.cur[0])
    if node is None:
        return current
    text = dotted(node)
    return Stream("any", text or "")


STREAM_CONTEXTS = ("torch.cuda.stream", "torch.cuda.StreamContext", "torch.cuda.streams.StreamContext")


def stream_context(ctx, facts):
    """The stream expression a `with` item makes current, or None:
    torch.cuda.stream(s) / (stream=s), StreamContext(s), a stream itself
    (`with s:`), or a variable bound to one of these."""
    if isinstance(ctx, ast.Name):
        v, _ = facts.value(ctx.id)
        if isinstance(v, ast.Call) and callee_name(v) in STREAM_CONTEXTS:
            ctx = v
        elif v is not None and is_new_stream(v):
            return ctx
    if isinstance(ctx, ast.Call) and callee_name(ctx) in STREAM_CONTEXTS:
        arg = ctx.args[0] if ctx.args else kwarg(ctx, "stream")
        return arg
    return None


def is_stream_handle(node, facts):
    """An expression that hands a stream to a call (s.cuda_stream,
    torch.cuda.current_stream(), a stream this function created): the call
    orders its work on that stream."""
    if isinstance(node, ast.Attribute) and node.attr == "cuda_stream":
        return True
    if isinstance(node, ast.Call) and callee_name(node) in ("torch.cuda.current_stream",
                                                            "torch.cuda.default_stream"):
        return True
    return isinstance(node, ast.Name) and facts.stream(node.id, CURRENT).kind == "new"


def is_new_stream(node):
    return isinstance(node, ast.Call) and callee_name(node) in (
        "torch.cuda.Stream", "torch.cuda.streams.Stream", "Stream")


def is_new_event(node):
    return isinstance(node, ast.Call) and callee_name(node) in (
        "torch.cuda.Event", "torch.cuda.streams.Event", "Event")


def is_device_sync(name):
    """torch.cuda.synchronize(...) (any device argument: one device
    assumed), torch.accelerator.synchronize(), torch.cuda.device_synchronize."""
    name = name or ""
    return name in ("torch.cuda.synchronize", "torch.accelerator.synchronize",
                    "torch.cuda.streams.synchronize") or name.endswith(".cuda.synchronize")


def cuda_test(expr):
    """For a test of whether CUDA is in use -- torch.cuda.is_available(),
    torch.cuda.is_initialized() (false: no CUDA work was ever issued),
    x.is_cuda, x.device.type == "cuda" / != "cpu" (and their negations,
    normalized by the caller) -- the truth that means "CUDA"; else None."""
    if isinstance(expr, ast.Call) and callee_name(expr) in ("torch.cuda.is_available",
                                                            "torch.cuda.is_initialized"):
        return True
    if isinstance(expr, ast.Attribute) and expr.attr in ("is_cuda", "is_cpu"):
        return expr.attr == "is_cuda"
    if (isinstance(expr, ast.Compare) and len(expr.ops) == 1 and isinstance(
            expr.comparators[0], ast.Constant) and isinstance(expr.comparators[0].value, str)):
        left = dotted(expr.left) or ""
        if left.endswith("device.type") or left.endswith("device_type"):
            value = expr.comparators[0].value
            op = expr.ops[0]
            if isinstance(op, (ast.Eq, ast.NotEq)) and value in ("cuda", "cpu"):
                return (value == "cuda") == isinstance(op, ast.Eq)
    return None


# Calls that need their argument in host memory: a CUDA tensor raises
# ("can't convert cuda:0 device type tensor to numpy").
HOST_ONLY_FUNCTIONS = {"np.asarray", "np.array", "numpy.asarray", "numpy.array",
                       "np.ascontiguousarray", "numpy.ascontiguousarray"}


def unknown_device_to(call, facts):
    """`x.to(dev, non_blocking=True)` with dev a name or attribute that the
    check cannot resolve (a parameter, `self.device`, `y.device`): maybe a
    copy to the host. Not a dtype (`torch.float16`), not a literal."""
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) \
            or call.func.attr != "to" or to_device(call, facts) is not None:
        return False
    dev = kwarg(call, "device")
    if dev is None and call.args:
        dev = call.args[0]
    if not isinstance(dev, (ast.Name, ast.Attribute)) or (dotted(dev) or "torch.").startswith("torch."):
        return False
    return may_be_true(non_blocking_arg(call, facts), facts)


def host_needing_arg(call):
    """The expression a call needs in host memory: x of `x.numpy()`, the
    first argument of np.asarray(x) and the other HOST_ONLY_FUNCTIONS; else
    None."""
    f = call.func
    if not isinstance(f, ast.Attribute):
        return None
    if f.attr == "numpy" and not call.args:
        return f.value
    if f.attr in _HOST_ONLY_ATTRS and call.args and callee_name(call) in HOST_ONLY_FUNCTIONS:
        return call.args[0]
    return None


_HOST_ONLY_ATTRS = {name.rsplit(".", 1)[1] for name in HOST_ONLY_FUNCTIONS}


def host_required_copies(needs, facts):
    """The ids of `.to(dev, non_blocking=True)` calls of unknown device
    (unknown_device_to) whose result the function then needs in host
    memory: `.numpy()` of it, or np.asarray(it), directly or through a name
    bound once to it. The CUDA tensor would raise there, so where the
    program works the copy went to the host. needs: what the function's
    calls (nested functions' included) need in host memory, as
    host_needing_arg gives it."""
    needed = set()
    for node in needs:
        while isinstance(node, ast.Subscript) or (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in VIEW_METHODS - {"numpy"}):
            node = node.value if isinstance(node, ast.Subscript) else node.func.value
        if isinstance(node, (ast.Name, ast.Attribute)) and dotted(node):
            bound, known = facts.value(dotted(node))
            node = bound if known else None
        if isinstance(node, ast.Call) and unknown_device_to(node, facts):
            needed.add(id(node))
    return needed


def compared_constant(expr):
    """For `path == c`, `path != c`, `path is c`, `path is not c` (or c on
    the left) with path a name or attribute and c a constant: (path, c,
    whether the test holding means path equals c); else None."""
    if not isinstance(expr, ast.Compare) or len(expr.ops) != 1:
        return None
    left, right, op = expr.left, expr.comparators[0], expr.ops[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    path = dotted(left) if isinstance(left, (ast.Name, ast.Attribute)) else None
    if path is None or not isinstance(right, ast.Constant):
        return None
    if isinstance(op, (ast.Eq, ast.Is)):
        return path, right.value, True
    if isinstance(op, (ast.NotEq, ast.IsNot)):
        return path, right.value, False
    return None


def maybe_copy(call):
    """Could this call be an asynchronous device-to-host copy, whatever
    its operands turn out to be? (`x.to(..., non_blocking=<not False>)`,
    `x.to(a, b, <not False>)`, `x.copy_(src, <not False>)`.) The cheap
    pre-filter of which functions are analysed at all."""
    if not isinstance(call.func, ast.Attribute) or call.func.attr not in ("to", "copy_"):
        return False
    nb = kwarg(call, "non_blocking")
    if nb is None:
        pos = 2 if call.func.attr == "to" else 1
        if call.func.attr == "to" and len(call.args) == 2:
            pos = 1  # to(other, non_blocking)
        nb = call.args[pos] if len(call.args) > pos else None
    if nb is None:
        return any(k.arg is None for k in call.keywords)  # **kw may hold it
    return not (isinstance(nb, ast.Constant) and not nb.value)


def maybe_blocking_copy(call):
    """Could this call be a device-to-host copy the host waits for
    (`.item()`, `.tolist()`, `.cpu()`, `.to(...)`, `.copy_(...)`)? The
    pre-filter of the producer diagnostic's blocking copies."""
    return isinstance(call.func, ast.Attribute) and call.func.attr in (
        "item", "tolist", "cpu", "to", "copy_")


ORDERING_NAMES = {"synchronize", "record", "record_event", "query", "wait_stream", "wait_event",
                  "wait", "stream", "item", "tolist", "cpu", "current_stream", "default_stream"}


def may_order(call):
    """Could this call synchronize, record an event, or change the current
    stream (a helper containing one is looked into at its calls)? (print
    and the other converting builtins are not counted: a helper that only
    prints would hide every race after it.)"""
    name = callee_name(call) or ""
    last = name.rsplit(".", 1)[-1] if name else (
        call.func.attr if isinstance(call.func, ast.Attribute) else "")
    return last in ORDERING_NAMES or sync_like_name(last) or last in SYNCING_OPS


def torch_base(name):
    """A base class from torch (nn.Module, torch.autograd.Function, ...):
    a method a subclass lacks is not hidden project code, and self.encoder
    (a submodule) is no synchronization."""
    return (name or "").split(".")[0] in ("torch", "nn", "Module") or name in ("object",)


def tested_tensor(expr):
    """The tensor a CUDA test is about (x for x.is_cuda, x.device.type ==
    ...), or None for torch.cuda.is_available()."""
    if isinstance(expr, ast.Attribute) and expr.attr in ("is_cuda", "is_cpu"):
        return dotted(expr.value)
    if isinstance(expr, ast.Compare):
        left = dotted(expr.left) or ""
        if left.endswith(".device.type"):
            return left[:-len(".device.type")]
    return None


def is_constructor(name, module_classes):
    """A call that constructs an object (a class of the module, or a
    CamelCase name): its arguments are stored, not read."""
    last = (name or "").rsplit(".", 1)[-1]
    return last in module_classes or (last[:1].isupper() and not last.isupper())


def sync_like_name(name):
    """An unresolved function named like a synchronization (a project's own
    `synchronize()` wrapper): taken as one, rather than warn on the code
    after it."""
    last = name.rsplit(".", 1)[-1].lower()
    return last not in NOT_SYNCS and ("synchron" in last or last in ("sync", "wait", "barrier")
                                      or last.endswith("_sync") or last.startswith("sync_"))
