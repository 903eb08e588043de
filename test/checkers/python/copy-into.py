# dst.copy_(src, non_blocking=True): asynchronous into a pinned destination
# or one of unknown origin (a parameter, an attribute) whose name says it is
# on the host (host, x_cpu, pinned); synchronous into a
# pageable one (PyTorch stages it), and not device-to-host into the GPU or
# from the host.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def into_pinned(g):
    host = torch.empty(4, pin_memory=True)
    host.copy_(g, non_blocking=True)
    return host.sum()
    # CHECK: copy-into.py:[[@LINE-1]]:12: warning: 'host' is read before
    # CHECK: copy-into.py:[[@LINE-3]]:5: note: asynchronous device-to-host copy into 'host' on the current stream is issued here


def into_pin_memory(g):
    host = torch.empty(4).pin_memory()
    host.copy_(g, True)
    return host.sum()
    # CHECK: copy-into.py:[[@LINE-1]]:12: warning: 'host' is read before


def into_parameter(host, g):
    host.copy_(g, non_blocking=True)
    return host.sum()
    # CHECK: copy-into.py:[[@LINE-1]]:12: warning: 'host' is read before


class Offloader:
    def offload(self, g):
        self.cpu_buf.copy_(g, non_blocking=True)
        return self.cpu_buf.max()
        # CHECK: copy-into.py:[[@LINE-1]]:16: warning: 'self.cpu_buf' is read before


# Silent: a destination of unknown origin whose name does not say it is on
# the host: most likely a device-to-device copy (vLLM's
# input_ids.copy_(rand_input_ids()[:n], non_blocking=True); input_ids.fill_(0)).
def into_unknown(input_ids, src):
    input_ids.copy_(src, non_blocking=True)
    input_ids.fill_(0)
    return input_ids.sum()


# Silent: pageable, GPU destinations, host sources, blocking copies.
def not_async_device_to_host(g, cpu_src):
    pageable = torch.empty(4)
    pageable.copy_(g, non_blocking=True)
    gpu = torch.empty(4, device="cuda")
    gpu.copy_(cpu_src, non_blocking=True)
    pinned = torch.empty(4, pin_memory=True)
    pinned.copy_(torch.zeros(4), non_blocking=True)
    other = torch.empty(4, pin_memory=True)
    other.copy_(g)
    return pageable.sum(), pinned.sum(), other.sum()


# A view of a pinned buffer is pinned: slices, and the methods that always
# return a view (DeepSpeed's `pinned_buf[:n].view_as(g)` staging,
# 729df6cab's parent). reshape may copy into a new, pageable tensor: not
# followed.
def into_view_of_pinned(q, n):
    buf = torch.empty(n, pin_memory=True)
    g = q.get()
    staged = buf[:g.numel()].view_as(g)
    staged.copy_(g, non_blocking=True)
    print(staged.sum())
    # CHECK: copy-into.py:[[@LINE-1]]:11: warning: 'staged' is read before
    flat = buf.narrow(0, 0, g.numel()).view(-1)
    flat.copy_(g, non_blocking=True)
    print(flat.sum())
    # CHECK: copy-into.py:[[@LINE-1]]:11: warning: 'flat' is read before
    maybe_copied = buf.reshape(2, -1)
    maybe_copied.copy_(g, non_blocking=True)
    print(maybe_copied.sum())


# A copy into a slice of a pinned buffer is a copy into the buffer: a read
# of the buffer, or of a slice the copy writes, is a race; a slice the copy
# does not write is not (constant ranges apart, or `[:, :k]` against
# `[:, k:k + m]`: ktransformers' block table, filled from the GPU and from
# the host side by side).
def into_slices(g, k, m):
    table = torch.empty(4, 64, pin_memory=True)
    host_src = torch.zeros(4, m)
    table[:, :k].copy_(g, non_blocking=True)
    table[:, k:k + m].copy_(host_src)
    table[0:2, 32:] = 0
    # CHECK: copy-into.py:[[@LINE-1]]:5: warning: 'table[:, :k]' is written before
    torch.cuda.synchronize()
    table[1:3, :k].copy_(g, non_blocking=True)
    table[3] = 1
    print(table[0, 5:9].sum())
    print(table[:, 3:5].sum())
    # CHECK: copy-into.py:[[@LINE-1]]:11: warning: 'table[1:3, :k]' is read before
    torch.cuda.synchronize()
