from . import snap as snapmod
from .snap import Snapshot


def read_early(t):
    s = Snapshot()
    s.capture(t)
    return s.host.tolist()


def read_waited(t):
    s = Snapshot()
    s.capture(t)
    s.wait()
    return s.host.tolist()


def read_early_module(t):
    s = snapmod.Snapshot()
    s.capture(t)
    return s.host.sum()


class Recorder:
    def __init__(self):
        self.snap = Snapshot()

    def step(self, t):
        self.snap.capture(t)
        return self.snap.host.sum()

    def step_waited(self, t):
        self.snap.capture(t)
        self.snap.wait()
        return self.snap.host.sum()


class Sub(Snapshot):
    def step(self, t):
        self.capture(t)
        return self.host.tolist()

    def step_waited(self, t):
        self.capture(t)
        self.wait()
        return self.host.tolist()


def read_annotated(snap: Snapshot, t):
    snap.capture(t)
    return snap.host.sum()


def read_annotated_waited(snap: "Snapshot", t):
    snap.capture(t)
    snap.wait()
    return snap.host.sum()


def alias_waited(t):
    s = Snapshot()
    s2 = s
    s.capture(t)
    s2.wait()  # the same object: covers s.host
    return s.host.tolist()


def bound_wait(t):
    s = Snapshot()
    w = s.wait
    s.capture(t)
    w()
    return s.host.tolist()
