# Copies the host waits for, in the Python front end (found by the generated
# programs, runtime/gen/compare.py --python):
# - a blocking device-to-host copy (`.item()`, `.cpu()`, `h.copy_(d)`, a
#   non_blocking copy_ into pageable memory) of a tensor written on a created
#   stream that the current stream was not made to wait for is the producer
#   diagnostic's race: the host waits for the current stream only
#   (runtime/cases/py_producer_blocking_read*: stale / fresh on the GPU);
# - PyTorch's blocking copy_ between host and device synchronizes the current
#   stream, so it covers the copies and writes on it;
# - an element of a host tensor (`h[0].item()`) is on the host: no sync.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def item_after_side_write(d):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        d.fill_(1.0)
    return d.item()
    # CHECK: blocking-copies.py:[[@LINE-1]]:12: warning: the blocking device-to-host copy of 'd' on the current stream may read it before the work that writes it on stream 'side' has finished
    # CHECK: blocking-copies.py:[[@LINE-3]]:9: note: 'd' is written on stream 'side' here
    # CHECK: blocking-copies.py:[[@LINE-3]]:12: note: nothing makes the current stream wait for the write: use 'torch.cuda.current_stream().wait_stream(side)'{{$}}


def item_after_side_write_waited(d):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        d.fill_(1.0)
    torch.cuda.current_stream().wait_stream(side)
    return d.item()


def copy_into_pinned_after_side_write():
    side = torch.cuda.Stream()
    d = torch.empty(16, device="cuda")
    h = torch.empty(16, pin_memory=True)
    with torch.cuda.stream(side):
        d.fill_(1.0)
    h.copy_(d)
    # CHECK: blocking-copies.py:[[@LINE-1]]:5: warning: the blocking device-to-host copy of 'd' on the current stream may read it before the work that writes it on stream 'side' has finished
    # CHECK: blocking-copies.py:[[@LINE-3]]:9: note: 'd' is written on stream 'side' here
    # CHECK: blocking-copies.py:[[@LINE-3]]:5: note: nothing makes the current stream wait for the write
    return h


def copy_into_pinned_after_side_sync():
    side = torch.cuda.Stream()
    d = torch.empty(16, device="cuda")
    h = torch.empty(16, pin_memory=True)
    with torch.cuda.stream(side):
        d.fill_(1.0)
    side.synchronize()
    h.copy_(d)
    return h


def nonblocking_into_pageable_after_side_write():
    side = torch.cuda.Stream()
    d = torch.empty(16, device="cuda")
    h = torch.empty(16)
    with torch.cuda.stream(side):
        d.fill_(1.0)
    h.copy_(d, non_blocking=True)
    # CHECK: blocking-copies.py:[[@LINE-1]]:5: warning: the blocking device-to-host copy of 'd' on the current stream may read it before the work that writes it on stream 'side' has finished
    # CHECK: blocking-copies.py:[[@LINE-3]]:9: note: 'd' is written on stream 'side' here
    # CHECK: blocking-copies.py:[[@LINE-3]]:5: note: nothing makes the current stream wait for the write
    return h[0].item()


def cpu_on_the_writers_stream(d):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        d.fill_(1.0)
        return d.cpu()


def blocking_upload_covers_current_copy(x):
    d = torch.empty(16, device="cuda")
    up = torch.ones(16, pin_memory=True)
    h = x.to("cpu", non_blocking=True)
    d.copy_(up)  # waits for the current stream, the copy above included
    return h.sum()


def nonblocking_upload_does_not(x):
    d = torch.empty(16, device="cuda")
    up = torch.ones(16, pin_memory=True)
    h = x.to("cpu", non_blocking=True)
    d.copy_(up, non_blocking=True)
    return h.sum()
    # CHECK: blocking-copies.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete


def blocking_upload_then_side_copy():
    side = torch.cuda.Stream()
    d = torch.empty(16, device="cuda")
    up = torch.ones(16, pin_memory=True)
    h = torch.empty(16, pin_memory=True)
    d.copy_(up)  # complete when it returns
    with torch.cuda.stream(side):
        h.copy_(d, non_blocking=True)
    side.synchronize()
    return h[0].item()


def element_of_host_tensor_is_not_a_sync():
    side = torch.cuda.Stream()
    d = torch.empty(16, device="cuda")
    h = torch.empty(16, pin_memory=True)
    d.fill_(1.0)
    v = h[0].item()  # host memory: waits for nothing
    with torch.cuda.stream(side):
        h.copy_(d, non_blocking=True)
    # CHECK: blocking-copies.py:[[@LINE-1]]:9: warning: the asynchronous device-to-host copy of 'd' on stream 'side' may read it before the work that writes it on the current stream has finished
    side.synchronize()
    return v + h[0].item()


def element_of_gpu_tensor_is_one():
    side = torch.cuda.Stream()
    d = torch.empty(16, device="cuda")
    h = torch.empty(16, pin_memory=True)
    d.fill_(1.0)
    v = d[0].item()  # waits for the current stream, the fill included
    with torch.cuda.stream(side):
        h.copy_(d, non_blocking=True)
    side.synchronize()
    return v + h[0].item()


def two_copies_into_one_buffer(d):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    h = torch.empty(16, pin_memory=True)
    with torch.cuda.stream(s1):
        h.copy_(d, non_blocking=True)
    with torch.cuda.stream(s2):
        h.copy_(d, non_blocking=True)
    s2.synchronize()  # the copy on s1 may still land
    return h[0].item()
    # CHECK: blocking-copies.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
    # CHECK: blocking-copies.py:[[@LINE-6]]:9: note: asynchronous device-to-host copy into 'h' on stream 's1' is issued here


def two_copies_into_one_buffer_both_synced(d):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    h = torch.empty(16, pin_memory=True)
    with torch.cuda.stream(s1):
        h.copy_(d, non_blocking=True)
    with torch.cuda.stream(s2):
        h.copy_(d, non_blocking=True)
    s1.synchronize()
    s2.synchronize()
    return h[0].item()


def blocking_copy_over_a_pending_one(d):
    side = torch.cuda.Stream()
    h = torch.empty(16, pin_memory=True)
    with torch.cuda.stream(side):
        h.copy_(d, non_blocking=True)
    h.copy_(d)  # another copy into h (device work), not a host write
    return h[0].item()  # the copy on side may land after the blocking one
    # CHECK: blocking-copies.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete


def blocking_copy_over_a_pending_one_synced(d):
    side = torch.cuda.Stream()
    h = torch.empty(16, pin_memory=True)
    with torch.cuda.stream(side):
        h.copy_(d, non_blocking=True)
    h.copy_(d)
    side.synchronize()
    return h[0].item()


def captured_into_a_graph(d):
    side = torch.cuda.Stream()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.stream(side), torch.cuda.graph(g, stream=side):
        d.fill_(1.0)  # recorded into g, not run
    g.replay()  # on the current stream
    return d.item()


def fill(d):
    d.fill_(1.0)


def one_helper_on_two_streams(d):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        fill(d)
    fill(d)
    return d.item()
    # CHECK: blocking-copies.py:[[@LINE-1]]:12: warning: the blocking device-to-host copy of 'd' on the current stream may read it before the work that writes it on stream 'side' has finished
