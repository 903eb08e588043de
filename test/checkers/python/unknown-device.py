# A copy whose device the check cannot resolve (`.to(self.device,
# non_blocking=True)`, a parameter, `y.device`) is a copy to the host where
# the function then needs its result in host memory: `.numpy()` of it, or
# `np.asarray(it)`, raise on a CUDA tensor. A device the check cannot resolve
# is the commonest reason for a miss in docs/real-code.md's table of real
# Python fixes; this is the part of it a function shows by itself. Without
# such a use, or for a dtype conversion, no claim.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import numpy as np
import torch


def to_attribute_device(self, x):
    host = x.to(self.device, non_blocking=True)
    arr = host.numpy()
    return arr.sum()
    # CHECK: unknown-device.py:[[@LINE-1]]:12: warning: 'arr' is read before
    # CHECK: unknown-device.py:[[@LINE-4]]:12: note: asynchronous device-to-host copy into 'host' on the current stream is issued here


def to_parameter_device_chained(x, device):
    y = x.to(device, non_blocking=True).numpy()
    return float(y[0])
    # CHECK: unknown-device.py:[[@LINE-1]]:18: warning: 'y' is passed to 'float' before


def np_asarray(x, device):
    h = x.to(device=device, non_blocking=True)
    return np.asarray(h).mean()
    # CHECK: unknown-device.py:[[@LINE-1]]:23: warning: 'h' is passed to 'asarray' before


def synchronized_first(x, device):
    h = x.to(device, non_blocking=True)
    torch.cuda.synchronize()
    return h.numpy().sum()


def dtype_conversion(x):
    h = x.to(torch.float16, non_blocking=True)
    return h.numpy().sum()


def no_host_use(x, device):
    h = x.to(device, non_blocking=True)
    return (h + 1).sum()


def bound_twice(x, device, y):
    h = x.to(device, non_blocking=True)
    h = y.cpu()
    return h.numpy().sum()


# Parameters with constant defaults, never rebound: the function analysed on
# its own is the call that omits them (LightGlue's batch_to_device, mrpro's
# _to). A call that passes them is looked through knowing nothing of them.
def batch_to(batch, device="cpu", non_blocking=True):
    out = batch.to(device, non_blocking=non_blocking)
    return out.tolist()
    # CHECK: unknown-device.py:[[@LINE-1]]:12: warning: 'out' is read before


def batch_to_blocking(batch, device="cpu", non_blocking=False):
    out = batch.to(device, non_blocking=non_blocking)
    return out.tolist()


def batch_to_rebound(batch, device="cpu", non_blocking=True):
    non_blocking = False
    out = batch.to(device, non_blocking=non_blocking)
    return out.tolist()


def batch_to_gpu(b):
    return batch_to(b, "cuda")
