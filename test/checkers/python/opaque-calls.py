# Calls the front end cannot see (opaque.py). Passing the destination to one
# is a host read, except where the code made the current stream come after
# the copy (the copy's own `with torch.cuda.stream(s)` block, or a
# wait_event / wait_stream on the current stream): there an opaque call may
# be work on that stream (a custom op, a TorchBind method that reads in a
# host function, FBGEMM's ssd_db.set_cuda) and is not claimed. A parameter
# that holds a class constructs an object when called: its arguments are
# stored, not read.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Optional, Type

import numpy as np

import torch
from mylib import consume


class Cache:
    def __init__(self):
        self.side = torch.cuda.Stream()
        self.db = torch.classes.ext.Store()
        self.done = torch.cuda.Event()

    def evict_in_block(self, rows):
        with torch.cuda.stream(self.side):
            rows_cpu = torch.empty(rows.shape, pin_memory=True)
            rows_cpu.copy_(rows, non_blocking=True)
            self.db.set_cuda(rows_cpu)  # enqueued on self.side: not claimed

    def evict_in_block_numpy(self, rows):
        with torch.cuda.stream(self.side):
            rows_cpu = torch.empty(rows.shape, pin_memory=True)
            rows_cpu.copy_(rows, non_blocking=True)
            return rows_cpu.numpy().sum()
            # CHECK: opaque-calls.py:[[@LINE-1]]:20: warning: 'rows_cpu' is read before

    def evict_in_block_imported(self, rows):
        with torch.cuda.stream(self.side):
            rows_cpu = torch.empty(rows.shape, pin_memory=True)
            rows_cpu.copy_(rows, non_blocking=True)
            consume(rows_cpu)
            # CHECK: opaque-calls.py:[[@LINE-1]]:21: warning: 'rows_cpu' is passed to 'consume' before

    def evict_on_current(self, rows):
        rows_cpu = torch.empty(rows.shape, pin_memory=True)
        rows_cpu.copy_(rows, non_blocking=True)
        self.db.set_cuda(rows_cpu)
        # CHECK: opaque-calls.py:[[@LINE-1]]:26: warning: 'rows_cpu' is passed to 'set_cuda' before

    def fetch_after_wait(self, idx):
        current = torch.cuda.current_stream()
        idx_cpu = torch.empty(idx.shape, pin_memory=True)
        with torch.cuda.stream(self.side):
            self.side.wait_stream(current)
            idx_cpu.copy_(idx, non_blocking=True)
            self.side.record_event(self.done)
        current.wait_event(self.done)
        self.db.get_cuda(idx_cpu)  # the current stream waits for the copy: not claimed

    def fetch_without_wait(self, idx):
        current = torch.cuda.current_stream()
        idx_cpu = torch.empty(idx.shape, pin_memory=True)
        with torch.cuda.stream(self.side):
            idx_cpu.copy_(idx, non_blocking=True)
            self.side.record_event(self.done)
        self.db.get_cuda(idx_cpu)
        # CHECK: opaque-calls.py:[[@LINE-1]]:26: warning: 'idx_cpu' is passed to 'get_cuda' before

    def fetch_after_wait_tolist(self, idx):
        current = torch.cuda.current_stream()
        idx_cpu = torch.empty(idx.shape, pin_memory=True)
        with torch.cuda.stream(self.side):
            idx_cpu.copy_(idx, non_blocking=True)
            self.side.record_event(self.done)
        current.wait_event(self.done)
        return idx_cpu.tolist()
        # CHECK: opaque-calls.py:[[@LINE-1]]:16: warning: 'idx_cpu' is read before
        # CHECK: opaque-calls.py:[[@LINE-3]]:9: note: wait_event makes a stream wait on the device; it does not block the host


def offload(p, optimizer_class: Type[torch.optim.Optimizer] = torch.optim.AdamW):
    p_host = torch.empty_like(p, device="cpu", pin_memory=True)
    p_host.copy_(p, non_blocking=True)
    return optimizer_class([{"params": p_host}])  # constructs: stores p_host


def offload_default_class(p, opt_cls=torch.optim.AdamW):
    p_host = torch.empty_like(p, device="cpu", pin_memory=True)
    p_host.copy_(p, non_blocking=True)
    return opt_cls([p_host])


def offload_callable(p, reduce_fn):
    p_host = torch.empty_like(p, device="cpu", pin_memory=True)
    p_host.copy_(p, non_blocking=True)
    return reduce_fn(p_host)
    # CHECK: opaque-calls.py:[[@LINE-1]]:22: warning: 'p_host' is passed to 'reduce_fn' before


def offload_rebound_class(p, opt_cls=torch.optim.AdamW):
    opt_cls = pick(opt_cls)
    p_host = torch.empty_like(p, device="cpu", pin_memory=True)
    p_host.copy_(p, non_blocking=True)
    return opt_cls([p_host])
    # CHECK: opaque-calls.py:[[@LINE-1]]:20: warning: 'p_host' is passed to 'opt_cls' before


def decode(self, out):
    # NeMo's ctc_greedy_decoding: a manager that sets no stream is no stream block
    with torch.inference_mode():
        pred_cpu = torch.empty(out.shape, pin_memory=True)
        pred_cpu.copy_(out, non_blocking=True)
        greedy = self.decode_labels
        return greedy(pred_cpu[0])
        # CHECK: opaque-calls.py:[[@LINE-1]]:23: warning: 'pred_cpu' is passed to 'greedy' before


def offload_optional_class(p, opt_cls: Optional[Type[torch.optim.Optimizer]] = None):
    p_host = torch.empty_like(p, device="cpu", pin_memory=True)
    p_host.copy_(p, non_blocking=True)
    return opt_cls([p_host])


def offload_union_class(p, opt_cls: "type[torch.optim.Optimizer] | None" = None):
    p_host = torch.empty_like(p, device="cpu", pin_memory=True)
    p_host.copy_(p, non_blocking=True)
    return opt_cls([p_host])


# Handing the buffer to host code (a host thread, a numpy array) is a host
# read even on the copy's stream.
def checkpoint_in_block(side, rows, executor: ThreadPoolExecutor):
    with torch.cuda.stream(side):
        rows_cpu = rows.to("cpu", non_blocking=True)
        executor.submit(np.save, "rows.npy", rows_cpu)
        # CHECK: opaque-calls.py:[[@LINE-1]]:46: warning: 'rows_cpu' is passed to 'submit' before


def numpy_in_block(side, rows, db):
    with torch.cuda.stream(side):
        rows_cpu = rows.to("cpu", non_blocking=True)
        db.write(rows_cpu.numpy())
        # CHECK: opaque-calls.py:[[@LINE-1]]:18: warning: 'rows_cpu' is passed to 'write' before


# A constructor handed host code with the buffer hands it to that code.
def save_in_thread(rows):
    rows_cpu = rows.to("cpu", non_blocking=True)
    t = threading.Thread(target=np.save, args=("rows.npy", rows_cpu))
    # CHECK: opaque-calls.py:[[@LINE-1]]:47: warning: 'rows_cpu' is passed to 'Thread' before
    t.start()


def record_in_object(rows):
    rows_cpu = rows.to("cpu", non_blocking=True)
    return Pending(tensor=rows_cpu, stream=None)  # stored, not read
