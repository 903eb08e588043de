# Host accesses of a pending destination, and what is not one.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import numpy as np
import torch


def arithmetic(b):
    t = b.to("cpu", non_blocking=True)
    return t * 2
    # CHECK: accesses.py:[[@LINE-1]]:12: warning: 't' is read before


def method_read(b):
    t = b.to("cpu", non_blocking=True)
    return t.sum()
    # CHECK: accesses.py:[[@LINE-1]]:12: warning: 't' is read before


def in_place_write(b):
    t = b.to("cpu", non_blocking=True)
    t.add_(1)
    # CHECK: accesses.py:[[@LINE-1]]:5: warning: 't' is written before
    torch.cuda.synchronize()


def augmented_write(b):
    t = b.to("cpu", non_blocking=True)
    t += 1
    # CHECK: accesses.py:[[@LINE-1]]:5: warning: 't' is written before
    torch.cuda.synchronize()


def slice_write(b):
    t = b.to("cpu", non_blocking=True)
    t[0] = 1.0
    # CHECK: accesses.py:[[@LINE-1]]:5: warning: 't' is written before
    torch.cuda.synchronize()


def numpy_view(b):
    t = b.to("cpu", non_blocking=True)
    arr = t.numpy()
    return arr.mean()
    # CHECK: accesses.py:[[@LINE-1]]:12: warning: 'arr' is read before


def view_then_item(b):
    t = b.to("cpu", non_blocking=True)
    row = t[0]
    v = t.view(-1)
    return row.item(), v
    # CHECK: accesses.py:[[@LINE-1]]:12: warning: 'row' is read before


def passed_to_a_function(b):
    t = b.to("cpu", non_blocking=True)
    np.save("out.npy", t)
    # CHECK: accesses.py:[[@LINE-1]]:24: warning: 't' is passed to 'save' before


def concatenated(b, c):
    t = b.to("cpu", non_blocking=True)
    return torch.cat([t, c])
    # CHECK: accesses.py:[[@LINE-1]]:22: warning: 't' is passed to 'cat' before


def compared(b):
    t = b.to("cpu", non_blocking=True)
    if t[0] > 0:
        # CHECK: accesses.py:[[@LINE-1]]:8: warning: 't' is read before
        return 1
    return 0


def iterated(b):
    t = b.to("cpu", non_blocking=True)
    total = 0
    for x in t:
        # CHECK: accesses.py:[[@LINE-1]]:14: warning: 't' is read before
        total += x
    return total


def formatted(b):
    t = b.to("cpu", non_blocking=True)
    return f"{t}"
    # CHECK: accesses.py:[[@LINE-1]]:15: warning: 't' is read before


def alias(b):
    t = b.to("cpu", non_blocking=True)
    u = t
    return u.tolist()
    # CHECK: accesses.py:[[@LINE-1]]:12: warning: 'u' is read before


def one_finding_per_copy(b):
    t = b.to("cpu", non_blocking=True)
    x = t.sum()
    # CHECK: accesses.py:[[@LINE-1]]:9: warning: 't' is read before
    y = t.mean()
    return x, y


# Silent: metadata, views not read, a copy back to the GPU, identity tests,
# returning it, storing it, rebinding it.
def not_accesses(b, out):
    t = b.to("cpu", non_blocking=True)
    shape, dtype, device = t.shape, t.dtype, t.device
    n = t.numel() + t.size(0) + t.dim() + len(t)
    pinned = t.is_pinned()
    view = t.view(-1)
    back = t.to("cuda", non_blocking=True)
    again = t.cuda()
    if t is None or t is not None:
        pass
    isinstance(t, torch.Tensor)
    out["t"] = t
    holder = [t]
    del view
    t = torch.zeros(4)
    print(t.sum())
    return shape, dtype, device, n, pinned, back, again, holder


def returned(b):
    t = b.to("cpu", non_blocking=True)
    return t


def copied_to_the_gpu(b, g):
    t = b.to("cpu", non_blocking=True)
    g.copy_(t, non_blocking=True)
    torch.cuda.synchronize()
    return t.tolist()


# Silent: stored in containers and objects (Megatron-LM's staging loop and
# its transfer record): the check does not follow them there, and a
# container's truth or length is no read of the tensor.
class Transfer:
    pass


def stored(gs, Record):
    bufs = []
    for g in gs:
        t = g.to("cpu", non_blocking=True)
        bufs.append(t)
    if bufs:
        torch.cuda.current_stream().synchronize()
    record = {"tensor": t, "n": 1}
    record["step"] = 2
    return bufs, record, Record(view=t), Transfer(t)


# Silent: handed to a consumer with the event that covers it (sglang's
# overlap thread: output_queue.put((copy_done, logits, ids)); the consumer
# synchronizes copy_done before reading).
def handed_over(g, queue, seen):
    done = torch.cuda.Event()
    ids = g.to("cpu", non_blocking=True)
    done.record()
    queue.put((done, ids))
    seen.add(ids)


# Still a read: a tensor's own add.
def tensor_add(g, other):
    t = g.to("cpu", non_blocking=True)
    return t.add(other)
    # CHECK: accesses.py:[[@LINE-1]]:12: warning: 't' is read before
