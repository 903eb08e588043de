# The seed, in Python: `a[:] = b.to('cpu', non_blocking=True)` before
# torch.cuda.synchronize() warns at the read; its fixes are silent.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch

a = torch.empty(13223, 134, 4)
b = torch.randn(13223, 134, 4, device="cuda", dtype=torch.bfloat16)
for i in range(3):
    b.mul_(2)
    a[:] = b.to("cpu", non_blocking=True)
    # CHECK: seed.py:[[@LINE-1]]:12: warning: 'b.to("cpu", non_blocking=True)' is read before the asynchronous device-to-host copy into it is known to be complete [cuda-async-read-before-sync]
    # CHECK: seed.py:[[@LINE-2]]:12: note: asynchronous device-to-host copy into 'b.to("cpu", non_blocking=True)' on the current stream is issued here
    torch.cuda.synchronize()


def named(a, b):
    temp = b.to("cpu", non_blocking=True)
    a[:] = temp
    # CHECK: seed.py:[[@LINE-1]]:12: warning: 'temp' is read before
    # CHECK: seed.py:[[@LINE-3]]:12: note: asynchronous device-to-host copy into 'temp' on the current stream is issued here
    torch.cuda.synchronize()


def device_object(a, b):
    cpu = torch.device("cpu")
    a.copy_(b.to(cpu, non_blocking=True))
    # CHECK: seed.py:[[@LINE-1]]:13: warning: 'b.to(cpu, non_blocking=True)' is passed to 'copy_' before


def keyword_device(a, b):
    a[:] = b.to(device="cpu", dtype=torch.float32, non_blocking=True)
    # CHECK: seed.py:[[@LINE-1]]:12: warning: {{.*}} is read before


def positional_non_blocking(a, b):
    a[:] = b.to("cpu", torch.float32, True)
    # CHECK: seed.py:[[@LINE-1]]:12: warning: {{.*}} is read before


def to_a_cpu_tensor(b):
    a = torch.empty(4)
    t = b.to(a, non_blocking=True)
    return t.sum()
    # CHECK: seed.py:[[@LINE-1]]:12: warning: 't' is read before


# Silent: the first fix, synchronizing before the read.
def fixed_sync(a, b):
    temp = b.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    a[:] = temp


# Silent: the second fix, the side stream synchronized (with or without
# wait_stream: the device-side hazard of the copy reading b too early is not
# this diagnostic's).
def fixed_side_stream(a, b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    a[:] = temp


# Silent: blocking copies, and copies whose source is on the CPU already.
def blocking(a, b):
    a[:] = b.to("cpu")
    a[:] = b.to("cpu", non_blocking=False)
    a[:] = b.cpu()
    c = torch.zeros(4)
    a[:] = c.to("cpu", non_blocking=True)
    p = torch.zeros(4).pin_memory()
    a[:] = p.to("cpu", non_blocking=True)
    # to the GPU, and a dtype change only
    g = a.to("cuda", non_blocking=True)
    h = b.to(torch.float32, non_blocking=True)
    return g, h
