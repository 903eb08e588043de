# Nested functions and the tensors handed to helpers (found by the generated
# programs, runtime/gen/compare.py --python): a function defined in another
# one (in its body, a branch or a loop) is looked through at its call as a
# closure: the names it does not bind are the enclosing function's, so a copy
# it issues into one of them is pending after the call and one pending before
# it is read inside. A helper handed a tensor known to be pinned, pageable or
# on the GPU knows its parameter is one (`h.copy_(d, non_blocking=True)` into
# a pinned parameter is a copy to the host).
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def closure_issues_the_copy(d):
    h = torch.empty(16, pin_memory=True)

    def fetch():
        h.copy_(d, non_blocking=True)
    fetch()
    return h[0].item()
    # CHECK: closures.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
    # CHECK: closures.py:[[@LINE-4]]:9: note: asynchronous device-to-host copy into 'h' on the current stream is issued here


def closure_issues_the_copy_then_sync(d):
    h = torch.empty(16, pin_memory=True)

    def fetch():
        h.copy_(d, non_blocking=True)
    fetch()
    torch.cuda.synchronize()
    return h[0].item()


def closure_reads_what_is_pending(d):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    if d.numel() > 4:
        def show():
            print(h[0].item())
        show()
        # CHECK: closures.py:[[@LINE-1]]:9: warning: 'h' is used by 'show' before the asynchronous device-to-host copy into it is known to be complete
        # CHECK: closures.py:[[@LINE-3]]:19: note: 'show' reads it here
    torch.cuda.synchronize()


def closure_synchronizes(d):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)

    def wait():
        torch.cuda.synchronize()
    wait()
    return h[0].item()


def closure_with_its_own_h(d):
    h = torch.zeros(16)

    def fetch():
        h = torch.empty(16, pin_memory=True)
        h.copy_(d, non_blocking=True)
        torch.cuda.synchronize()
        return h
    fetch()
    return h[0].item()


def copy_into(h, d):
    h.copy_(d, non_blocking=True)


def helper_given_pinned(d):
    h = torch.empty(16, pin_memory=True)
    copy_into(h, d)
    return h[0].item()
    # CHECK: closures.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete


def helper_given_pinned_then_sync(d):
    h = torch.empty(16, pin_memory=True)
    copy_into(h, d)
    torch.cuda.synchronize()
    return h[0].item()


def helper_given_pageable(d):
    h = torch.empty(16)
    copy_into(h, d)  # into pageable memory: returns after the copy
    return h[0].item()


def helper_given_gpu(d):
    g = torch.empty(16, device="cuda")
    copy_into(g, d)  # device to device
    return g[0].item()


def copy_on(h, d, s):
    with torch.cuda.stream(s):
        h.copy_(d, non_blocking=True)


def helper_given_a_created_stream(d):
    side = torch.cuda.Stream()
    h = torch.empty(16, pin_memory=True)
    copy_on(h, d, side)
    torch.cuda.current_stream().synchronize()  # not side
    return h[0].item()
    # CHECK: closures.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
    # CHECK: closures.py:[[@LINE-3]]:5: note: this synchronizes the current stream, not stream 'side', the copy's stream


def helper_given_a_created_stream_synced(d):
    side = torch.cuda.Stream()
    h = torch.empty(16, pin_memory=True)
    copy_on(h, d, side)
    side.synchronize()
    return h[0].item()


def helper_given_the_current_stream(d):
    h = torch.empty(16, pin_memory=True)
    copy_on(h, d, torch.cuda.current_stream())
    torch.cuda.current_stream().synchronize()
    return h[0].item()


def copy_and_read(h, d):
    h.copy_(d, non_blocking=True)
    return h[0].item()
    # CHECK: closures.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
    # CHECK: closures.py:[[@LINE-3]]:5: note: asynchronous device-to-host copy into 'h' on the current stream is issued here
    # CHECK: closures.py:[[@LINE+5]]:12: note: 'copy_and_read' is called here with 'h' a pinned tensor


def helper_copies_into_a_pinned_argument_and_reads(d):
    h = torch.empty(16, pin_memory=True)
    return copy_and_read(h, d)


def helper_copies_into_a_gpu_argument_and_reads(d):
    g = torch.empty(16, device="cuda")
    return copy_and_read(g, d)


def closure_copies_and_reads(d):
    h = torch.empty(16, pin_memory=True)

    def fetch_and_show():
        h.copy_(d, non_blocking=True)
        print(h[0].item())
        # CHECK: closures.py:[[@LINE-1]]:15: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete
    fetch_and_show()
    # CHECK: closures.py:[[@LINE-1]]:5: note: 'fetch_and_show' is called here{{$}}


def closure_writes_on_a_side_stream(d):
    side = torch.cuda.Stream()
    h = torch.empty(16, pin_memory=True)

    def produce():
        with torch.cuda.stream(side):
            d.fill_(1.0)
    produce()
    h.copy_(d, non_blocking=True)
    # CHECK: closures.py:[[@LINE-1]]:5: warning: the asynchronous device-to-host copy of 'd' on the current stream may read it before the work that writes it on stream 'side' has finished
    torch.cuda.synchronize()
    return h


def closure_writes_on_a_side_stream_waited(d):
    side = torch.cuda.Stream()
    h = torch.empty(16, pin_memory=True)

    def produce():
        with torch.cuda.stream(side):
            d.fill_(1.0)
    produce()
    torch.cuda.current_stream().wait_stream(side)
    h.copy_(d, non_blocking=True)
    torch.cuda.synchronize()
    return h


def copy_then_wait(h, d, e):
    h.copy_(d, non_blocking=True)
    e.synchronize()


def helper_syncs_an_event_never_recorded(d):
    e = torch.cuda.Event()
    h = torch.empty(16, pin_memory=True)
    copy_then_wait(h, d, e)
    return h[0].item()
    # CHECK: closures.py:[[@LINE-1]]:12: warning: 'h' is read before the asynchronous device-to-host copy into it is known to be complete


def record_copy_then_wait(h, d, e):
    h.copy_(d, non_blocking=True)
    e.record()
    e.synchronize()


def helper_syncs_an_event_it_records(d):
    e = torch.cuda.Event()
    h = torch.empty(16, pin_memory=True)
    record_copy_then_wait(h, d, e)
    return h[0].item()
