# A file whose only copies give non_blocking by position: the run's text
# pre-check (Project.may_reach_copy, which skips files that can issue no
# copy) must not skip it.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def to_positional(x):
    y = x.to("cpu", torch.float32, True)
    return y.sum()
    # CHECK: positional-only.py:[[@LINE-1]]:12: warning: 'y' is read before


def copy_positional(g, n):
    h_cpu = torch.empty(n, pin_memory=True)
    h_cpu.copy_(g, True)
    return h_cpu.tolist()
    # CHECK: positional-only.py:[[@LINE-1]]:12: warning: 'h_cpu' is read before


def blocking(x):
    y = x.to("cpu", torch.float32, False)
    return y.sum()
