# Flow: branches, loops (a read at the top of the next iteration races a
# copy at the bottom of this one), early returns, try/finally, with.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def sync_on_one_branch(b, flag):
    t = b.to("cpu", non_blocking=True)
    if flag:
        torch.cuda.synchronize()
    return t.tolist()
    # CHECK: flow.py:[[@LINE-1]]:12: warning: 't' is read before


def next_iteration(batches):
    t = None
    for g in batches:
        if t is not None:
            print(t.sum())
            # CHECK: flow.py:[[@LINE-1]]:19: warning: 't' is read before
        t = g.to("cpu", non_blocking=True)
    torch.cuda.synchronize()


def while_loop(b, n):
    out = []
    t = b.to("cpu", non_blocking=True)
    while n > 0:
        out.append(t.clone())
        # CHECK: flow.py:[[@LINE-1]]:20: warning: 't' is read before
        torch.cuda.synchronize()
        n -= 1
    return out


def early_return_skips_the_sync(b, flag):
    t = b.to("cpu", non_blocking=True)
    if flag:
        return t.tolist()
        # CHECK: flow.py:[[@LINE-1]]:16: warning: 't' is read before
    torch.cuda.synchronize()
    return t.tolist()


def in_try(b):
    try:
        t = b.to("cpu", non_blocking=True)
        value = t.item()
        # CHECK: flow.py:[[@LINE-1]]:17: warning: 't' is read before
    finally:
        torch.cuda.synchronize()
    return value


def comprehension(b):
    t = b.to("cpu", non_blocking=True)
    return [float(x) for x in t]
    # CHECK: flow.py:[[@LINE-1]]:31: warning: 't' is read before


# Silent: every path synchronizes first.
def both_branches(b, flag):
    t = b.to("cpu", non_blocking=True)
    if flag:
        torch.cuda.synchronize()
    else:
        torch.cuda.current_stream().synchronize()
    return t.tolist()


def loop_synced_each_iteration(batches):
    outs = []
    for g in batches:
        t = g.to("cpu", non_blocking=True)
        torch.cuda.synchronize()
        outs.append(t.numpy().copy())
    return outs


def finally_syncs(b):
    try:
        t = b.to("cpu", non_blocking=True)
    finally:
        torch.cuda.synchronize()
    return t.tolist()


def break_after_sync(batches):
    for g in batches:
        t = g.to("cpu", non_blocking=True)
        torch.cuda.synchronize()
        break
    else:
        return None
    return t.tolist()


def rebound_before_read(b):
    t = b.to("cpu", non_blocking=True)
    t = torch.zeros(3)
    return t.tolist()


# Literals by value: a constant assigned where the copy is issued, and the
# sync under a test of that constant (`==`, `!=`, `is`), also when a method
# of the class sets self's attribute (bytemlperf's MoE token dispatcher).
def mode_string(g, capacity):
    mode = "none"
    if capacity is not None:
        n = g.to("cpu", non_blocking=True)
        mode = "sync"
    else:
        n = g.numel()
    if mode == "sync":
        torch.cuda.current_stream().synchronize()
    return int(n)


def mode_string_other_value(g, capacity):
    mode = "none"
    if capacity is not None:
        n = g.to("cpu", non_blocking=True)
        mode = "sync"
    else:
        n = g.numel()
    if mode == "none":
        torch.cuda.current_stream().synchronize()
    return int(n)
    # CHECK: flow.py:[[@LINE-1]]:16: warning: 'n' is passed to 'int' before


def mode_not_equal(g, capacity):
    mode = None
    if capacity is not None:
        n = g.to("cpu", non_blocking=True)
        mode = "sync"
    else:
        n = g.numel()
    if mode is not None:
        torch.cuda.synchronize()
    return int(n)


class TokenDispatcher:
    def preprocess(self, counts, capacity):
        self.sync_point = "no_sync"
        if capacity is not None:
            self.num_out = counts.sum().to(torch.device("cpu"), non_blocking=True)
            self.sync_point = "before_permutation"
        else:
            self.num_out = counts.numel()

    def dispatch(self, x, counts, capacity):
        self.preprocess(counts, capacity)
        if self.sync_point == "before_permutation":
            torch.cuda.current_stream().synchronize()
        return permute(x, num_out=self.num_out)

    def preprocess_late_flag(self, counts, capacity):
        self.sync_point = "no_sync"
        if capacity is not None:
            self.num_out = counts.sum().to(torch.device("cpu"), non_blocking=True)
        else:
            self.num_out = counts.numel()
            self.sync_point = "before_permutation"

    def dispatch_late_flag(self, x, counts, capacity):
        self.preprocess_late_flag(counts, capacity)
        if self.sync_point == "before_permutation":
            torch.cuda.current_stream().synchronize()
        return permute(x, num_out=self.num_out)
        # CHECK: flow.py:[[@LINE-1]]:35: warning: 'self.num_out' is passed to 'permute' before
