"""What a call does to the copies and writes in flight (a mixin of
analysis.Function): synchronizations (the device, a stream, an event, a
blocking read of a GPU tensor, PyTorch's blocking `copy_` between host and
device), event records, `wait_stream` / `wait_event` / `Event.wait` (device
side: later work on the waiting stream is ordered after what they cover),
`set_stream`, and calls that look like a sync (a project's own
`synchronize()`, a method of a base class the front end cannot see).

May call: model, state.
"""

import ast

from . import model
from .state import EMPTY


class Syncs:
    """Methods of analysis.Function: a call's effect on State.live."""

    def effects(self, node, name, attr, st):
        """A call's effect on the copies: a synchronization, an event
        record, a call that looks like one and is not."""
        if model.is_device_sync(name):
            st.live = {}
            return
        if name in ("torch.cuda.Event.synchronize", "torch.cuda.Stream.synchronize",
                    "torch.Event.synchronize", "torch.Stream.synchronize") and node.args:
            self.sync_object(node.args[0], st, node)  # the unbound method
            return
        if attr == "synchronize" and not node.args:
            self.sync_object(node.func.value, st, node)
            return
        if attr == "record" and isinstance(node.func.value, (ast.Name, ast.Attribute)):
            arg = node.args[0] if node.args else model.kwarg(node, "stream")
            stream = model.stream_of(arg, self.facts, st) if arg is not None else st.current()
            self.record(model.dotted(node.func.value), stream, st)
            return
        if attr == "record_event" and node.args:
            ev_path = model.dotted(node.args[0])
            if ev_path:
                self.record(ev_path, model.stream_of(node.func.value, self.facts, st), st)
            return
        if attr in ("wait_stream", "wait_event") and node.args:
            waiter = model.stream_of(node.func.value, self.facts, st)
            self.wait(waiter, node.args[0], attr, st, node)
            return
        if attr == "wait" and isinstance(node.func.value, (ast.Name, ast.Attribute)):
            arg = node.args[0] if node.args else model.kwarg(node, "stream")
            waiter = model.stream_of(arg, self.facts, st) if arg is not None else st.current()
            self.wait(waiter, node.func.value, "wait", st, node)
            return
        if name in ("torch.cuda.set_stream", "torch.cuda.streams.set_stream") and node.args:
            st.cur = st.cur[:-1] + (model.stream_of(node.args[0], self.facts, st),)
            return
        blocking_to_host = (attr == "to" and model.to_device(node, self.facts) == "cpu"
                            and not model.non_blocking_of_to(node, self.facts))
        if (attr in model.BLOCKING_READS and not node.args) or attr in model.SYNCING_OPS \
                or blocking_to_host:
            kind = model.tensor_kind(node.func.value, self.facts)
            if kind not in ("pinned", "pageable") and not self.ev_quiet(node.func.value, st):
                # a read of a GPU tensor blocks: .item(), .to("cpu"), .nonzero(), ...
                if attr not in model.SYNCING_OPS:
                    self.check_copy(node, node.func.value, st, blocking=True)
                self.sync_stream(st.current(), st, node)
            return
        if attr == "copy_" and node.args:
            blocking = model.blocking_host_copy(node, self.facts)
            if blocking == "to-host":
                self.check_copy(node, node.args[0], st, blocking=True)
            if blocking is not None:
                # PyTorch's copy_ between host and device without
                # non_blocking synchronizes the current stream; one into
                # pageable memory returns after the copy
                self.sync_stream(st.current(), st, node)
            return
        if name in model.SYNCING_FUNCTIONS and node.args and model.tensor_kind(
                node.args[0], self.facts) not in ("pinned", "pageable") \
                and not self.ev_quiet(node.args[0], st):
            self.sync_stream(st.current(), st, node)  # torch.nonzero(gpu), ...
            return
        if attr is not None and self.unseen_method(node):
            # self.m() / super().m() of a base class in another module: its
            # body is not seen, and GPU code synchronizes implicitly often
            # (.item(), .nonzero(), masked_select): taken as a possible sync
            st.live = {}
            return
        if name in model.CONVERTING_BUILTINS and node.args and (
                model.tensor_kind(node.args[0], self.facts) == "gpu"
                or self.gpu_scalar(node.args[0], st)):
            self.sync_stream(st.current(), st, node)  # int(mask.sum())
            return
        if (name == "torch.where" and len(node.args) == 1) or (
                attr == "repeat_interleave" and node.args and not isinstance(node.args[0], ast.Constant)
                and model.kwarg(node, "output_size") is None):
            self.sync_stream(st.current(), st, node)  # the result's size comes from the data
            return
        if name and model.sync_like_name(name) and not name.startswith("torch."):
            st.live = {}  # a project's own synchronize(): taken as one

    def ev_quiet(self, node, st):
        path = model.dotted(node)
        return st.names.get(path, EMPTY) if path else EMPTY

    def sync_object(self, obj, st, node):
        """obj.synchronize() or a true obj.query(): an event or a stream."""
        path = model.dotted(obj)
        known_event = path and (path in st.recorded or self.facts.is_event(path) or any(
            path in info.events for info in st.live.values()))
        if known_event:
            for cid, info in list(st.live.items()):
                if path in info.events:
                    del st.live[cid]
                elif path not in st.recorded_all:
                    st.misses[cid] = (node, self.m.path, "event '%s' is synchronized here, but it is not recorded "
                                            "after the copy on every path to this point" % path)
                else:
                    st.misses[cid] = (node, self.m.path, "event '%s' was recorded before the copy, or on another "
                                            "stream, so synchronizing it does not wait for the copy" % path)
            return
        stream = model.stream_of(obj, self.facts, st)
        if stream.kind == "any" and path and "event" in path.lower():
            st.live = {}  # an event the check cannot follow: any copy
            return
        self.sync_stream(stream, st, node)

    def ordered(self, stream, info):
        """Is work on stream known, or not known not, to come after the
        copy (its stream, or one made to wait for it)?"""
        return any(not model.known_different(stream, s) for s in info.streams)

    def sync_stream(self, stream, st, node):
        for cid, info in list(st.live.items()):
            if self.ordered(stream, info):
                del st.live[cid]
            else:
                c = self.m.copies.get(cid)
                st.misses[cid] = (node, self.m.path, "this synchronizes %s, not %s, the copy's stream"
                                  % (stream.describe(), c.stream.describe() if c else "the copy's"))

    def record(self, path, stream, st):
        if not path:
            return
        st.forget(path)  # recorded anew: what it covered before is what it covers now
        st.recorded = st.recorded | {path}
        st.recorded_all = st.recorded_all | {path}
        for cid, info in list(st.live.items()):
            if self.ordered(stream, info):
                st.live[cid] = info.replace(events=info.events | {path})

    def wait(self, waiter, what, attr, st, node):
        """waiter.wait_stream(what) / waiter.wait_event(what) / what.wait(waiter):
        device-side ordering: later work on waiter comes after the copies
        `what` covers; the host does not wait (the note says so)."""
        if attr != "wait_stream":
            path = model.dotted(what)
            covered = [c for c, info in st.live.items() if path and path in info.events]
        else:
            other = model.stream_of(what, self.facts, st)
            covered = [c for c, info in st.live.items() if self.ordered(other, info)]
        for cid, info in list(st.live.items()):
            st.misses[cid] = (node, self.m.path, model.NOT_SYNCS[attr])
            if cid in covered:
                st.live[cid] = info.replace(streams=info.streams | {waiter})

    # -- findings ----------------------------------------------------------
