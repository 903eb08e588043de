# Branches and loops whose outcome the text fixes (found by the generated
# programs, runtime/gen/compare.py --python): a branch on a name known to hold
# a constant goes one way only (`k = True; if k:` never runs its else), and a
# for loop over `range(n)` of constants runs its body at least once when
# n > 0, once only when n == 1 (no later iteration sees what the body issued).
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def dead_else(x):
    k = True
    h = None
    if k:
        h = torch.zeros(4)
    else:
        h = x.to("cpu", non_blocking=True)
    return h.sum()


def live_then(x):
    k = True
    h = torch.zeros(4)
    if k:
        h = x.to("cpu", non_blocking=True)
    return h.sum()
    # CHECK: constant-flow.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete


def dead_compared(x):
    mode = "sync"
    h = x.to("cpu", non_blocking=True)
    if mode != "sync":
        return h.sum()
    torch.cuda.synchronize()
    return h.sum()


def once(x, out):
    for _ in range(1):
        out.append(x.sum())  # a later iteration would read the copy below
        x = x.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    return x


def twice():
    d = torch.ones(4, device="cuda")
    h = torch.empty(4, pin_memory=True)
    for _ in range(2):
        v = h[0].item()
        # CHECK: constant-flow.py:[[@LINE-1]]:13: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
        h.copy_(d, non_blocking=True)
    torch.cuda.synchronize()
    return v


def at_least_once(x):
    h = x.to("cpu", non_blocking=True)
    for _ in range(3):
        torch.cuda.synchronize()
    return h.sum()


def maybe_never(x, n):
    h = x.to("cpu", non_blocking=True)
    for _ in range(n):
        torch.cuda.synchronize()
    return h.sum()
    # CHECK: constant-flow.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete


def never(x):
    h = x.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    for _ in range(0):
        h = x.to("cpu", non_blocking=True)
    return h.sum()


def range_of_a_name_known_zero(x, n):
    h = torch.zeros(4)
    if n:
        torch.cuda.synchronize()
    else:
        for _ in range(n):  # n is falsy here: no iteration
            h = x.to("cpu", non_blocking=True)
    return h.sum()


def range_of_a_name_known_nonzero(x, n):
    h = torch.zeros(4)
    if n:
        for _ in range(n):
            h = x.to("cpu", non_blocking=True)
    return h.sum()
    # CHECK: constant-flow.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
