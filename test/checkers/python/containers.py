# Copies kept in containers: a list, tuple or dict of pending copies (a
# literal, a comprehension, append, d[k] = t) is read where a torch or NumPy
# function is given it (torch.cat, np.stack) or an element is taken out and
# used; its truth, its length, storing it and returning it are not reads.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import numpy as np
import torch


def cat_list(xs):
    outs = []
    for x in xs:
        outs.append(x.to("cpu", non_blocking=True))
    return torch.cat(outs)
    # CHECK: containers.py:[[@LINE-1]]:22: warning: 'outs' is passed to 'cat' before
    # CHECK: containers.py:[[@LINE-3]]:21: note: asynchronous device-to-host copy into 'x.to("cpu", non_blocking=True)'


def cat_list_synced(xs):
    outs = []
    for x in xs:
        outs.append(x.to("cpu", non_blocking=True))
    torch.cuda.synchronize()
    return torch.cat(outs)


def comprehension_iterated(xs):
    outs = [x.to("cpu", non_blocking=True) for x in xs]
    total = 0
    for o in outs:
        total += o.sum()
        # CHECK: containers.py:[[@LINE-1]]:18: warning: 'o' is read before
    return total


def comprehension_stored(xs, q):
    outs = [x.to("cpu", non_blocking=True) for x in xs]
    if outs:
        q.put(outs)
    return len(outs)


def dict_element(x, y):
    d = {}
    d["a"] = x.to("cpu", non_blocking=True)
    d["b"] = y.to("cpu", non_blocking=True)
    return d["a"].numpy().sum()
    # CHECK: containers.py:[[@LINE-1]]:12: warning: 'd["a"]' is read before


def tuple_then_stack(x, y):
    pair = (x.to("cpu", non_blocking=True), y.to("cpu", non_blocking=True))
    return np.stack(pair)
    # CHECK: containers.py:[[@LINE-1]]:21: warning: 'pair' is passed to 'stack' before


def returned(xs):
    outs = [x.to("cpu", non_blocking=True) for x in xs]
    return outs


class Snap:
    def capture(self, xs):
        self.host = [x.to("cpu", non_blocking=True) for x in xs]

    def use(self, xs):
        self.capture(xs)
        return torch.stack(self.host)
        # CHECK: containers.py:[[@LINE-1]]:28: warning: 'self.host' is passed to 'stack' before

    def use_synced(self, xs):
        self.capture(xs)
        torch.cuda.synchronize()
        return torch.stack(self.host)


def element_by_another_key(params):
    # lightx2v's to_cpu_async: the element taken out by a key of this
    # iteration may not be the one stored in flight under another
    for name, p in params.items():
        if p.is_floating_point():
            params[name] = p.to("cpu", non_blocking=True)
        else:
            params[name].to_cpu(non_blocking=True)
    torch.cuda.synchronize()
