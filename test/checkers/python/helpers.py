# Functions and methods of the module are looked through at the call: a
# helper that returns the pending tensor, one that synchronizes, one that
# reads its parameter; methods that issue a copy into self.buf, record
# self.event after it, and synchronize it (the vLLM pipeline's shape).
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def download(g):
    return g.to("cpu", non_blocking=True)


def wait_for_copies():
    torch.cuda.synchronize()


def consume(t):
    return t.sum()


def helper_returns_pending(g):
    t = download(g)
    return t.tolist()
    # CHECK: helpers.py:[[@LINE-1]]:12: warning: 't' is read before
    # CHECK: helpers.py:11:12: note: asynchronous device-to-host copy into 't' on the current stream is issued here


def helper_reads(g):
    t = g.to("cpu", non_blocking=True)
    consume(t)
    # CHECK: helpers.py:[[@LINE-1]]:13: warning: 't' is passed to 'consume' before
    # CHECK: helpers.py:[[@LINE-3]]:9: note: asynchronous device-to-host copy into 't' on the current stream is issued here
    # CHECK: helpers.py:19:12: note: 'consume' reads it here
    torch.cuda.synchronize()


class Pipeline:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.event = torch.cuda.Event()

    def start(self, g):
        with torch.cuda.stream(self.stream):
            self.buf = g.to("cpu", non_blocking=True)
            self.event.record()

    def wait(self):
        self.event.synchronize()

    def good(self, g):
        self.start(g)
        self.wait()
        return self.buf.tolist()

    def bad(self, g):
        self.start(g)
        return self.buf.tolist()
        # CHECK: helpers.py:[[@LINE-1]]:16: warning: 'self.buf' is read before

    def recurse(self, n):
        return self.recurse(n - 1) if n else None


# Silent: the helper synchronizes.
def helper_syncs(g):
    t = g.to("cpu", non_blocking=True)
    wait_for_copies()
    return t.tolist()


# Silent: a function of another module named like a synchronization.
def imported_sync(g, utils):
    t = g.to("cpu", non_blocking=True)
    utils.synchronize_all()
    return t.tolist()


# The helper's own copy, read inside it, is reported once, in the helper.
def reads_its_own():
    t = torch.ones(2, device="cuda").to("cpu", non_blocking=True)
    return t.sum()
    # CHECK: helpers.py:[[@LINE-1]]:12: warning: 't' is read before


def calls_it_twice():
    reads_its_own()
    reads_its_own()


# A helper that raises on one path: the caller goes on only from its
# returns, where it synchronized (vllm-ascend 05a700d's shape).
class Dispatcher:
    def _prepare(self, x):
        self.splits = x.sum(0).to("cpu", non_blocking=True)
        if self.group is None:
            raise ValueError("group must be set")
        torch.cuda.synchronize()
        return x

    def dispatch(self, x):
        self._prepare(x)
        return self.splits.tolist()

    def _prepare_unsynced(self, x):
        self.splits = x.sum(0).to("cpu", non_blocking=True)
        if self.group is None:
            raise ValueError("group must be set")
        return x

    def dispatch_unsynced(self, x):
        self._prepare_unsynced(x)
        return self.splits.tolist()
        # CHECK: helpers.py:[[@LINE-1]]:16: warning: 'self.splits' is read before

    def _prepare_caught(self, x):
        self.splits = x.sum(0).to("cpu", non_blocking=True)
        try:
            if self.group is None:
                raise ValueError("group must be set")
        except ValueError:
            pass
        else:
            torch.cuda.synchronize()
        return x

    def dispatch_caught(self, x):
        self._prepare_caught(x)
        return self.splits.tolist()
        # CHECK: helpers.py:[[@LINE-1]]:16: warning: 'self.splits' is read before


# A base class's method called through the class with self passed
# explicitly: its self is the caller's self.
class CaptureBase:
    def capture(self, t):
        self.host = t.to("cpu", non_blocking=True)


class CaptureSub(CaptureBase):
    def step(self, t):
        CaptureBase.capture(self, t)
        return self.host.sum()
        # CHECK: helpers.py:[[@LINE-1]]:16: warning: 'self.host' is read before

    def step_synced(self, t):
        CaptureBase.capture(self, t)
        torch.cuda.synchronize()
        return self.host.sum()
