# Values that are not literals (issue 22 item 4). `non_blocking` the check
# cannot read (a call's result, an attribute, a parameter no call fixes)
# may be True: the copy may be asynchronous. Only a false constant, written,
# bound or assigned on the path, is not. A `**` dict the check can read
# passes its keys. A function looked through from a call is given the
# constants the call passes and the defaults of what it omits.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
from dataclasses import dataclass

import numpy as np
import torch
from comfy.model_management import device_supports_non_blocking


def preview(x, dev):
    # ComfyUI's latent_preview after its fix: True for CUDA devices
    img = x.to(device="cpu", non_blocking=device_supports_non_blocking(dev))
    return np.asarray(img.numpy())
    # CHECK: values.py:[[@LINE-1]]:23: warning: 'img' is passed to 'asarray' before


class Offloader:
    def __init__(self, non_blocking):
        self.non_blocking = non_blocking

    def offload(self, w):
        host = w.to("cpu", non_blocking=self.non_blocking)
        return host.sum()
        # CHECK: values.py:[[@LINE-1]]:16: warning: 'host' is read before


def offload_blocking_attr(w):
    w_cpu = w.to("cpu", non_blocking=False)
    return w_cpu.sum()


def through_kwargs(x):
    kwargs = dict(non_blocking=True)
    y = x.to("cpu", **kwargs)
    return y.sum()
    # CHECK: values.py:[[@LINE-1]]:12: warning: 'y' is read before


def through_kwargs_display(x):
    y = x.to("cpu", **{"non_blocking": True})
    return y.sum()
    # CHECK: values.py:[[@LINE-1]]:12: warning: 'y' is read before


def through_kwargs_blocking(x):
    kwargs = {"non_blocking": False}
    y = x.to("cpu", **kwargs)
    return y.sum()


def through_unknown_kwargs(x, **kwargs):
    y = x.to("cpu", **kwargs)  # nothing says what kwargs holds: not claimed
    return y.sum()


def assigned_false(x, non_blocking):
    non_blocking = False
    y = x.to("cpu", non_blocking=non_blocking)
    return y.sum()


def tested_false(x, non_blocking):
    if non_blocking:
        return None
    y = x.to("cpu", non_blocking=non_blocking)
    return y.sum()


def fetch(x, dev, nb):
    y = x.to(dev, non_blocking=nb)
    return y.sum()
    # CHECK: values.py:[[@LINE-1]]:12: warning: 'y' is read before
    # CHECK: values.py:[[@LINE-3]]:9: note: asynchronous device-to-host copy into 'y' on the current stream is issued here
    # CHECK: values.py:[[@LINE+4]]:12: note: 'fetch' is called here with 'dev' = 'cpu', 'nb' = True


def fetch_to_host(x):
    return fetch(x, "cpu", True)


def fetch_to_host_blocking(x):
    return fetch(x, "cpu", False)


def fetch_to_gpu(x):
    return fetch(x, "cuda", True)


def fetch_default(x, dev="cpu", nb=True):
    y = x.to(dev, non_blocking=nb)
    return y


def fetch_default_caller(x):
    y = fetch_default(x)
    return y.sum()
    # CHECK: values.py:[[@LINE-1]]:12: warning: 'y' is read before


def fetch_default_caller_gpu(x):
    y = fetch_default(x, "cuda")
    return y.sum()


def fetch_default_caller_blocking(x):
    y = fetch_default(x, nb=False)
    return y.sum()


# The copy is asynchronous only where its non_blocking value is true: a
# branch on that value after the copy is followed like any branch literal.
def sync_if_nb(x):
    nb = x.is_cuda
    y = x.to("cpu", non_blocking=nb)
    if nb:
        torch.cuda.current_stream().synchronize()
    return y.sum()


def read_if_not_nb(x, nb):
    y = x.to("cpu", non_blocking=nb)
    if not nb:
        return y.sum()
    return None


def print_if_nb(x, nb):
    y = x.to("cpu", non_blocking=nb)
    if nb:
        print("async")
    return y.sum()
    # CHECK: values.py:[[@LINE-1]]:12: warning: 'y' is read before


# Positional arguments fill positional parameters only: *rest soaks up the
# third, and the keyword-only nb keeps its default.
def fetch_vararg(x, dev="cpu", *rest, nb=False):
    y = x.to(dev, non_blocking=nb)
    return y.sum()


def fetch_vararg_caller(x):
    return fetch_vararg(x, "cpu", True)


def fetch_kwonly(x, *, dev="cpu", nb=False):
    y = x.to(dev, non_blocking=nb)
    return y.sum()
    # CHECK: values.py:[[@LINE-1]]:12: warning: 'y' is read before
    # CHECK: values.py:[[@LINE+4]]:12: note: 'fetch_kwonly' is called here with 'nb' = True, 'dev' = 'cpu'


def fetch_kwonly_caller(x):
    return fetch_kwonly(x, nb=True)


# A field of an object built here with no arguments, which the class gives
# a constant and no method assigns, holds that constant.
@dataclass
class TransferConfig:
    non_blocking: bool = False


def with_default_config(x):
    cfg = TransferConfig()
    y = x.to("cpu", non_blocking=cfg.non_blocking)
    return y.sum()


def with_passed_config(x):
    cfg = TransferConfig(non_blocking=True)
    y = x.to("cpu", non_blocking=cfg.non_blocking)
    return y.sum()
    # CHECK: values.py:[[@LINE-1]]:12: warning: 'y' is read before


def walrus_false(x):
    y = x.to("cpu", non_blocking=(nb := False))  # the value bound is the argument
    return y.sum() + nb


def walrus_true(x):
    y = x.to("cpu", non_blocking=(nb := True))
    return y.sum() if nb else None
    # CHECK: values.py:[[@LINE-1]]:12: warning: 'y' is read before
