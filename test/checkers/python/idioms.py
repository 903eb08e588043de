# Correct idioms a helper trying to break the Python front end wrote (and
# sglang's overlap loop): each must stay silent. Their racy twins, at the
# end, warn.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import contextlib
import dataclasses
import functools
import heapq
import time
import weakref

import torch
from torch.cuda import StreamContext
from torch.cuda import stream as cuda_stream


# --- stored, not read -------------------------------------------------------
def comprehension(gs):
    cpu = [g.to("cpu", non_blocking=True) for g in gs]
    out = {k: v.to("cpu", non_blocking=True) for k, v in enumerate(gs)}
    torch.cuda.synchronize()
    return cpu, out


def storing_functions(g, out, heap, cb, rec):
    y = g.to("cpu", non_blocking=True)
    setattr(out, "tokens", y)
    heapq.heappush(heap, (0, y))
    p = functools.partial(cb, y)
    r = weakref.ref(y)
    return dict(t=y), tuple([y, None]), p, r, dataclasses.replace(rec, t=y), rec._replace(t=y)


def lists(gs, outs):
    for g in gs:
        outs += [g.to("cpu", non_blocking=True)]
    y = gs[0].to("cpu", non_blocking=True)
    outs = outs + [y]
    torch.cuda.synchronize()
    return outs


def metadata(g):
    y = g.to("cpu", non_blocking=True)
    a, b = torch.empty_like(y), torch.zeros_like(y)
    n = torch.numel(y) + int(torch.is_tensor(y))
    kind = y.type()
    y.requires_grad_(False)
    z = y.pin_memory()
    match y:
        case torch.Tensor():
            pass
    torch.cuda.synchronize()
    return a, b, n, kind, z.tolist()


def second_copy_into_the_same_buffer(g1, g2, host_buf):
    host_buf.copy_(g1, non_blocking=True)
    host_buf.copy_(g2, non_blocking=True)  # ordered after the first on the device
    torch.cuda.synchronize()
    return host_buf.tolist()


# --- events -------------------------------------------------------------------
def pipelined(chunks):
    e = torch.cuda.Event()
    prev = None
    for g in chunks:
        if prev is not None:
            e.synchronize()
            prev.tolist()
        prev = g.to("cpu", non_blocking=True)
        e.record()
    return prev


def conditional_async(x, use_async):
    e = torch.cuda.Event()
    if use_async:
        y = x.to("cpu", non_blocking=True)
        e.record()
    else:
        y = x.cpu()
    e.synchronize()
    return y.tolist()


def polled(x):
    e = torch.cuda.Event()
    y = x.to("cpu", non_blocking=True)
    e.record()
    while True:
        if e.query():
            break
        time.sleep(0.0005)
    z = x.to("cpu", non_blocking=True)
    e.record()
    done = e.query()
    while not done:
        done = e.query()
    return y.tolist(), z.tolist()


def recorded_by_keyword_and_waits(x):
    s = torch.cuda.Stream()
    e = torch.cuda.Event()
    with torch.cuda.stream(s):
        y = x.to("cpu", non_blocking=True)
    e.record(stream=s)
    e.synchronize()
    with torch.cuda.stream(s):
        z = x.to("cpu", non_blocking=True)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.current_stream().synchronize()  # the current stream waited for s
    return y.tolist(), z.tolist()


def mark(ev):
    ev.record()


def recorded_by_a_helper(x):
    ev = torch.cuda.Event()
    y = x.to("cpu", non_blocking=True)
    mark(ev)
    torch.cuda.Event.synchronize(ev)
    return y.tolist()


# --- streams ------------------------------------------------------------------
def stream_spellings(x):
    s = torch.cuda.Stream()
    with torch.cuda.stream(stream=s):
        a = x.to("cpu", non_blocking=True)
    with cuda_stream(s):
        b = x.to("cpu", non_blocking=True)
    with StreamContext(s):
        c = x.to("cpu", non_blocking=True)
    ctx = torch.cuda.stream(s)
    with ctx:
        d = x.to("cpu", non_blocking=True)
    with s:
        f = x.to("cpu", non_blocking=True)
    s.synchronize()
    return a.tolist(), b.tolist(), c.tolist(), d.tolist(), f.tolist()


def set_stream(x):
    s = torch.cuda.Stream()
    prev = torch.cuda.current_stream()
    torch.cuda.set_stream(s)
    y = x.to("cpu", non_blocking=True)
    torch.cuda.set_stream(prev)
    s.synchronize()
    return y.tolist()


def every_stream(x, z):
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    with torch.cuda.stream(s1):
        a = x.to("cpu", non_blocking=True)
    with torch.cuda.stream(s2):
        b = z.to("cpu", non_blocking=True)
    for s in (s1, s2):
        s.synchronize()
    return a.tolist() + b.tolist()


def sync_current():
    cur = torch.cuda.current_stream()
    cur.synchronize()


def helper_syncs_the_callers_current(x):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        y = x.to("cpu", non_blocking=True)
        sync_current()
    wait_all = torch.cuda.synchronize
    z = x.to("cpu", non_blocking=True)
    wait_all()
    return y.tolist(), z.tolist()


# --- flow ---------------------------------------------------------------------
def cuda_tests(x):
    y = x.to("cpu", non_blocking=True)
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    z = x.to("cpu", non_blocking=True)
    if x.device.type == "cuda":
        torch.cuda.synchronize()
    return y.tolist(), z.tolist()


def cuda_initialized(metrics):
    # torchrl's logger: CUDA never initialised means no copy was in flight
    host = metrics.to("cpu", non_blocking=True)
    if torch.cuda.is_initialized():
        event = torch.cuda.Event()
        event.record()
        event.synchronize()
    return host.tolist()


def cuda_initialized_no_sync(metrics):
    host = metrics.to("cpu", non_blocking=True)
    if torch.cuda.is_initialized():
        torch.cuda.current_stream().wait_stream(torch.cuda.default_stream())
    return host.tolist()
    # CHECK: idioms.py:[[@LINE-1]]:12: warning: 'host' is read before


def correlated(g, async_copy, gs):
    if async_copy:
        y = g.to("cpu", non_blocking=True)
    else:
        y = g.cpu()
    if async_copy:
        torch.cuda.synchronize()
    pending = False
    ys = None
    for h in gs:
        ys = h.to("cpu", non_blocking=True)
        pending = True
    if pending:
        torch.cuda.synchronize()
    return y.tolist(), ys.tolist() if ys is not None else None


def fetch(x):
    try:
        return x.to("cpu", non_blocking=True)
    finally:
        torch.cuda.synchronize()


def returns_through_finally(x):
    return fetch(x).tolist()


@contextlib.contextmanager
def synced():
    try:
        yield
    finally:
        torch.cuda.synchronize()


class CudaTimer:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        torch.cuda.synchronize()


def context_managers(x):
    with synced():
        y = x.to("cpu", non_blocking=True)
    with CudaTimer():
        z = x.to("cpu", non_blocking=True)
    return y.tolist(), z.tolist()


def overlap_loop(self, w):  # sglang's forward thread: out and ids rebound each iteration
    while True:
        out, ids = w.run()
        if w.flag:
            out.lp = out.lp[ids].to("cpu", non_blocking=True)
        ids = ids.to("cpu", non_blocking=True)
        self.q.put((ids, out))


# --- implicit synchronizations ------------------------------------------------
def implicit(g, mask, x, counts, a, b, loss, flag):
    y1 = g.to("cpu", non_blocking=True)
    n = int(mask.sum())
    y2 = g.to("cpu", non_blocking=True)
    (idx,) = torch.where(mask)
    y3 = g.to("cpu", non_blocking=True)
    z = x.repeat_interleave(counts)
    y4 = g.to("cpu", non_blocking=True)
    same = torch.allclose(a, b)
    y5 = g.to("cpu", non_blocking=True)
    assert torch.isfinite(loss).all()
    y6 = g.to("cpu", non_blocking=True)
    while flag.any():
        flag = flag[1:]
    return y1[:n], y2.tolist(), y3.tolist(), y4.tolist(), y5.tolist(), y6.tolist(), idx, z, same


# --- helpers ------------------------------------------------------------------
def level3():
    torch.cuda.synchronize()


def level2():
    level3()


def level1():
    level2()


def deep_and_local(x):
    def finish():
        torch.cuda.synchronize()

    flush = lambda: torch.cuda.synchronize()  # noqa: E731
    y = x.to("cpu", non_blocking=True)
    finish()
    z = x.to("cpu", non_blocking=True)
    flush()
    w = x.to("cpu", non_blocking=True)
    level1()
    return y.tolist(), z.tolist(), w.tolist()


class Base:
    def _drain(self):
        torch.cuda.synchronize()


class Worker(Base):
    def __init__(self, n):
        self.cpu_buf = torch.empty(n)  # pageable: copy_ into it is synchronous
        self.gpu_from_cpu = torch.empty(n, device="cuda")

    def inherited(self, x):
        y = x.to("cpu", non_blocking=True)
        self._drain()
        z = x.to("cpu", non_blocking=True)
        Worker._flush(self)
        w = x.to("cpu", non_blocking=True)
        type(self)._barrier()
        return y.tolist(), z.tolist(), w.tolist()

    def _flush(self):
        torch.cuda.synchronize()

    @classmethod
    def _barrier(cls):
        torch.cuda.synchronize()

    @staticmethod
    def _finish(t, ev):
        ev.synchronize()
        return t.tolist()

    def static_via_self(self, x):
        ev = torch.cuda.Event()
        y = x.to("cpu", non_blocking=True)
        ev.record()
        return self._finish(y, ev)

    def attributes_of_known_kind(self, g, src):
        self.cpu_buf.copy_(g, non_blocking=True)
        self.gpu_from_cpu.copy_(src, non_blocking=True)
        return self.cpu_buf.tolist(), self.gpu_from_cpu.sum()


def names_that_are_not_host_buffers(g, ghost_cells, host_to_dev_ids, unpinned_buf):
    ghost_cells.copy_(g, non_blocking=True)
    host_to_dev_ids.copy_(g, non_blocking=True)
    unpinned_buf.copy_(g, non_blocking=True)
    return ghost_cells * 2, host_to_dev_ids + 1, unpinned_buf.tolist()


# --- the racy twins -------------------------------------------------------------
def pipelined_without_the_sync(chunks):
    e = torch.cuda.Event()
    prev = None
    for g in chunks:
        if prev is not None:
            prev.tolist()
            # CHECK: idioms.py:[[@LINE-1]]:13: warning: 'prev' is read before
        prev = g.to("cpu", non_blocking=True)
        e.record()
    return prev


def correlated_wrong_way(g, async_copy):
    if async_copy:
        y = g.to("cpu", non_blocking=True)
    else:
        y = g.cpu()
    if not async_copy:
        torch.cuda.synchronize()
    return y.tolist()
    # CHECK: idioms.py:[[@LINE-1]]:12: warning: 'y' is read before


def cpu_scalar_test(g, n):
    y = g.to("cpu", non_blocking=True)
    if n > 0:  # a Python number: no sync
        return y.tolist()
        # CHECK: idioms.py:[[@LINE-1]]:16: warning: 'y' is read before
    return None


def host_named_parameter(g, host_buf):
    host_buf.copy_(g, non_blocking=True)
    return host_buf.tolist()
    # CHECK: idioms.py:[[@LINE-1]]:12: warning: 'host_buf' is read before


# Silent: work submitted to a stream, ordered after the copy on the device
# (ktransformers' CPU attention task); a dtype conversion that may return
# the tensor itself (torchrec's predict).
def submitted_to_the_stream(self, q):
    self.q_in_cpu.copy_(q, non_blocking=True)
    self.cpu_infer.submit_with_cuda_stream(
        torch.cuda.current_stream().cuda_stream,
        self.worker.attn(q_in=self.q_in_cpu))


def converted(predictions):
    return {"default": predictions.to(torch.device("cpu"), non_blocking=True).float()}


# Silent: CUDA tests in other spellings; a test of another tensor does not
# drop this copy (the twin warns).
def device_tests(g, device):
    y = g.to("cpu", non_blocking=True)
    if device.type == "cuda":
        torch.cuda.synchronize()
    z = g.to("cpu", non_blocking=True)
    if not g.is_cpu:
        torch.cuda.synchronize()
    return y.tolist(), z.tolist()


def another_tensors_test(g, labels):
    y = g.to("cpu", non_blocking=True)
    if labels.is_cuda:
        torch.cuda.synchronize()
    return y.tolist()
    # CHECK: idioms.py:[[@LINE-1]]:12: warning: 'y' is read before


# A submodule call of an nn.Module is no synchronization (the twin warns).
class Model(torch.nn.Module):
    def forward(self, x):
        y = x.to("cpu", non_blocking=True)
        h = self.encoder(x)
        return y.tolist(), h
        # CHECK: idioms.py:[[@LINE-1]]:16: warning: 'y' is read before
