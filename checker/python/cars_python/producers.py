"""The producer diagnostic of the Python front end (a mixin of
analysis.Function), with the C++ check's semantics: device work that writes
a tensor on one stream, then a device-to-host copy of that tensor (a
non-blocking one, or one the host waits for) on another stream that nothing
made wait for the work, is reported at the copy. The host may synchronize
the copy's stream and still read what the tensor held before the work
wrote it (measured on an H200:
runtime/cases/py_producer_*; the seed's "fix 2", a copy on a side stream
synchronized but never made to wait, reads stale data 9-10 times in 10).

A write is device work in flight like a copy: it lives in State.live with
an Info (the events recorded after it on its stream, the streams made to
wait for it, the branch literals), so every synchronization the flow knows
(a device sync, a sync of its stream or of an event recorded after it, a
blocking read on its stream, an opaque call taken as a sync) completes it,
and `wait_stream` / `wait_event` order a stream after it. State.wnames maps
a tensor's path to the writes on it, as State.names maps a path to the
copies into it.

The copies checked: every device-to-host copy on the current stream, the
non-blocking ones and those the host waits for (`.item()`, `.tolist()`,
`.cpu()`, `.to("cpu")`, `h.copy_(d)`, a copy into pageable memory): the
host waits for the copy's stream, not for the write's (measured on an
H200: runtime/cases/py_producer_blocking_read*).

Writes (PyTorch 2.x; each is work on the current stream, "CUDA semantics",
"Asynchronous execution"): in-place tensor methods (`mul_`, `fill_`,
`normal_`, `copy_` of a GPU or pinned source: any public method whose name
ends in one underscore, less those that change metadata only), `out=` of a
torch function, slice or index assignment (`b[:] = v`, `b[i] = 0`) and
augmented assignment (`b += 1`) of a tensor not known to be on the CPU.
The copy itself says the tensor is on the GPU: `.to("cpu",
non_blocking=True)` of a CPU tensor does nothing. Tracked only in modules
that can name two streams (`torch.cuda.Stream`, `torch.cuda.stream`,
`set_stream`, `wait_stream`, ...): with one stream, work is in order.

The claim needs streams known to differ (model.known_different: a stream
the function created against any other it can name); a parameter, an
attribute or a call's result may be the same stream, and is not claimed.

May call: model, state.
"""

import ast
import re

from . import model, short_name
from .state import EMPTY, Finding, Info

# In-place methods that change metadata or host-side state, not the data on
# the device.
NOT_DEVICE_WRITES = {"requires_grad_", "share_memory_", "rename_", "resize_", "resize_as_",
                     "set_", "grad_", "retain_grad_", "record_stream_", "pin_memory_",
                     "apply_", "map_", "map2_"}

# Calls and names that mean the module works with more than one stream.
MULTI_STREAM = {"Stream", "stream", "StreamContext", "set_stream", "wait_stream", "wait_event",
                "default_stream", "ExternalStream", "get_stream_from_external"}


def is_device_write(attr):
    """Whether a method of that name writes its tensor on the device: a
    public in-place method (one trailing underscore), not a metadata one."""
    return (attr.endswith("_") and not attr.startswith("_") and not attr.endswith("__")
            and attr not in NOT_DEVICE_WRITES)


class Write:
    """Device work that writes the tensor `path` on `stream`, at `node`, in
    the module whose file is `file` (None outside a project)."""
    __slots__ = ("id", "node", "path", "stream", "line", "col", "file")

    def __init__(self, node, path, stream, file=None):
        # one Write per statement and stream: a helper's statement reached
        # from two calls on different streams is two writes
        self.id = (id(node), stream)
        self.node, self.path, self.stream = node, path, stream
        self.line, self.col = node.lineno, node.col_offset + 1
        self.file = file


def tensor_root(node):
    """The dotted name of the tensor an expression is a view or part of
    (`b`, `b[0:4]`, `b.view(-1)`, `self.buf.narrow(0, 0, n)`), or None."""
    while True:
        if isinstance(node, ast.Subscript):
            node = node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in model.VIEW_METHODS):
            node = node.func.value
        else:
            break
    if isinstance(node, (ast.Name, ast.Attribute)):
        return model.dotted(node)
    return None


_MULTI_STREAM_WORD = re.compile(r"\b(%s)\b" % "|".join(sorted(MULTI_STREAM)))


def uses_streams(source):
    """Whether a module's text can name more than one stream (a word of
    MULTI_STREAM in it; comments count too, which only means writes are
    tracked where they need not be)."""
    return bool(_MULTI_STREAM_WORD.search(source or ""))


def stream_text(stream):
    """How the note spells a stream in Python."""
    return {"current": "torch.cuda.current_stream()",
            "default": "torch.cuda.default_stream()"}.get(stream.kind, stream.name or "<stream>")


class Producers:
    """Methods of analysis.Function for the producer diagnostic."""

    def write_call(self, node, copy, st):
        """The writes a call does: the object of an in-place method (not a
        copy to the host, whose destination is host memory), `out=`."""
        func = node.func
        if isinstance(func, ast.Attribute) and copy is None:
            if is_device_write(func.attr):
                self.note_write(func.value, node, st)
        out = model.kwarg(node, "out")
        if out is not None and (model.callee_name(node) or "").startswith("torch."):
            for o in (out.elts if isinstance(out, (ast.Tuple, ast.List)) else [out]):
                self.note_write(o, node, st)

    def note_write(self, target, node, st):
        """Device work at `node` writes `target` on the current stream."""
        if not self.multi_stream or st.current() == model.CAPTURE:
            return  # captured into a CUDA graph: recorded, not run
        path = tensor_root(target)
        if path is None or st.names.get(path):
            return  # not a named tensor, or the destination of a copy to the host
        if model.tensor_kind(target, self.facts) in ("pinned", "pageable"):
            return  # on the CPU: host work
        w = Write(node, path, st.current(), self.m.path)
        self.m.writes[w.id] = w
        st.live[w.id] = Info(EMPTY, frozenset([w.stream]), frozenset(st.conds.items()))
        st.wnames[path] = frozenset(x for x in st.wnames.get(path, EMPTY) if x in st.live) | {w.id}

    def forget_writes(self, path, st):
        """path names another tensor now: its writes are not this one's."""
        for k in [k for k in st.wnames if k == path or k.startswith(path + ".")]:
            del st.wnames[k]

    def check_copy(self, node, src, st, blocking=False):
        """A device-to-host copy of src on the current stream (blocking: one
        the host waits for, `.item()`, `.cpu()`, `h.copy_(d)`, a copy into
        pageable memory): report the writes of src in flight on a stream it
        is not ordered after. The host waiting for the copy's stream does
        not wait for the write's."""
        path = tensor_root(src)
        if path is None or st.current() == model.CAPTURE:
            return
        stream = st.current()
        for wid in sorted(st.wnames.get(path, EMPTY), key=lambda w: (
                self.m.writes[w].line, self.m.writes[w].col)):
            info = st.live.get(wid)
            if info is None or self.ordered(stream, info):
                continue
            self.report_producer(node, self.m.writes[wid], stream, st, src=path,
                                 blocking=blocking)
            return

    def elsewhere(self, file):
        """file, where it is not the analysed function's own (a note in
        another module of the project); else None."""
        return file if file and file != self.m.path else None

    def report_producer(self, node, w, stream, st, src, at=None, extra_note=None,
                        copy_file=None, blocking=False):
        """The finding for a copy at `node` on `stream` of the tensor `src`
        that write `w` may not have finished writing (reported at `at`, the
        call of a helper that copies it, when not `node`)."""
        if not self.report:
            return
        msg = ("the %s device-to-host copy of '%s' on %s may read it before the work "
               "that writes it on %s has finished"
               % ("blocking" if blocking else "asynchronous", short_name(src), stream.describe(),
                  w.stream.describe()))
        at = at or node
        notes = [(w.line, w.col, "'%s' is written on %s here" % (short_name(w.path), w.stream.describe()),
                  self.elsewhere(w.file))]
        if extra_note:
            notes.append(extra_note)
        # Inside the copy's `with torch.cuda.stream(...)` block the current
        # stream is the copy's, so the wait goes before the block.
        where = " before the `with`" if w.stream.kind == "current" and len(st.cur) > 1 else ""
        notes.append((node.lineno, node.col_offset + 1,
                      "nothing makes %s wait for the write: use '%s.wait_stream(%s)'%s"
                      % (stream.describe(), stream_text(stream), stream_text(w.stream), where),
                      self.elsewhere(copy_file) if at is not node else None))
        f = Finding(at, msg, notes)
        f.write_id, f.copy_id, f.path, f.how = w.id, None, None, "copied"
        f.copy_node, f.copy_stream, f.copy_src = node, stream, src
        f.copy_file = self.m.path
        self.findings.append(f)
