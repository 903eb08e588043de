# The producer diagnostic: device work writes a tensor on one stream, then a
# non-blocking device-to-host copy of it runs on another stream that nothing
# made wait for the work (runtime/cases/py_side_stream_no_wait and
# py_producer_*: stale on an H200). Reported at the copy, with the write and
# the missing wait_stream in notes; silent where a wait_stream, an event
# recorded after the write and waited for, a sync of the writer's stream or
# of the device orders them, where both are on one stream, and where a
# stream cannot be identified.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def seed_fix_2(b, a):
    side = torch.cuda.Stream()
    b.mul_(2)
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    # CHECK: producers.py:[[@LINE-1]]:16: warning: the asynchronous device-to-host copy of 'b' on stream 'side' may read it before the work that writes it on the current stream has finished
    # CHECK: producers.py:[[@LINE-4]]:5: note: 'b' is written on the current stream here
    # CHECK: producers.py:[[@LINE-3]]:16: note: nothing makes stream 'side' wait for the write: use 'side.wait_stream(torch.cuda.current_stream())' before the `with`{{$}}
    side.synchronize()
    a[:] = temp


def seed_fix_2_corrected(b, a):
    side = torch.cuda.Stream()
    b.mul_(2)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    a[:] = temp


def written_on_side_copied_on_current(b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.add(b, 1, out=b)
    temp = b.to("cpu", non_blocking=True)
    # CHECK: producers.py:[[@LINE-1]]:12: warning: the asynchronous device-to-host copy of 'b' on the current stream may read it before the work that writes it on stream 'side' has finished
    # CHECK: producers.py:[[@LINE-3]]:9: note: 'b' is written on stream 'side' here
    # CHECK: producers.py:[[@LINE-3]]:12: note: nothing makes the current stream wait for the write: use 'torch.cuda.current_stream().wait_stream(side)'{{$}}
    torch.cuda.synchronize()
    return temp.sum()


def written_on_side_side_synchronized(b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.add(b, 1, out=b)
    side.synchronize()
    temp = b.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    return temp.sum()


def produce(d):
    d.fill_(1.0)


def written_in_a_helper(b):
    side = torch.cuda.Stream()
    produce(b)
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    # CHECK: producers.py:[[@LINE-1]]:16: warning: the asynchronous device-to-host copy of 'b' on stream 'side' may read it before the work that writes it on the current stream has finished
    # CHECK: producers.py:[[@LINE-9]]:5: note: 'd' is written on the current stream here
    side.synchronize()
    return temp.sum()


def written_in_a_helper_then_waited(b):
    side = torch.cuda.Stream()
    produce(b)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def snap(t):
    return t.to("cpu", non_blocking=True)


def copied_in_a_helper(b):
    side = torch.cuda.Stream()
    b.mul_(2)
    with torch.cuda.stream(side):
        temp = snap(b)
    # CHECK: producers.py:[[@LINE-1]]:16: warning: the asynchronous device-to-host copy of 'b' on stream 'side' may read it before the work that writes it on the current stream has finished
    # CHECK: producers.py:[[@LINE-4]]:5: note: 'b' is written on the current stream here
    # CHECK: producers.py:[[@LINE-10]]:12: note: 'snap' copies it to the host here
    side.synchronize()
    return temp.sum()


def slice_written(b):
    side = torch.cuda.Stream()
    b[0:4] = 3
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    # CHECK: producers.py:[[@LINE-1]]:16: warning: the asynchronous device-to-host copy of 'b' on stream 'side'
    # CHECK: producers.py:[[@LINE-4]]:5: note: 'b' is written on the current stream here
    side.synchronize()
    return temp.sum()


def augmented(b, pinned):
    side = torch.cuda.Stream()
    b += 1
    with torch.cuda.stream(side):
        pinned.copy_(b, non_blocking=True)
    # CHECK: producers.py:[[@LINE-1]]:9: warning: the asynchronous device-to-host copy of 'b' on stream 'side'
    # CHECK: producers.py:[[@LINE-4]]:5: note: 'b' is written on the current stream here
    side.synchronize()
    return pinned.sum()


def in_a_loop(xs):
    side = torch.cuda.Stream()
    outs = []
    for x in xs:
        x.mul_(2)
        with torch.cuda.stream(side):
            outs.append(x.to("cpu", non_blocking=True))
    # CHECK: producers.py:[[@LINE-1]]:25: warning: the asynchronous device-to-host copy of 'x' on stream 'side'
    side.synchronize()
    return outs


def event_recorded_before_the_write(b):
    side = torch.cuda.Stream()
    e = torch.cuda.Event()
    e.record()
    b.mul_(2)
    side.wait_event(e)
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    # CHECK: producers.py:[[@LINE-1]]:16: warning: the asynchronous device-to-host copy of 'b' on stream 'side'
    side.synchronize()
    return temp.sum()


def event_recorded_after_the_write(b):
    side = torch.cuda.Stream()
    e = torch.cuda.Event()
    b.mul_(2)
    e.record()
    side.wait_event(e)
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def event_wait_method(b):
    side = torch.cuda.Stream()
    b.mul_(2)
    e = torch.cuda.current_stream().record_event()
    e.wait(side)
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def wait_in_the_wrong_direction(b):
    side = torch.cuda.Stream()
    b.mul_(2)
    torch.cuda.current_stream().wait_stream(side)
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    # CHECK: producers.py:[[@LINE-1]]:16: warning: the asynchronous device-to-host copy of 'b' on stream 'side'
    side.synchronize()
    return temp.sum()


def waited_on_one_path_only(b, flag):
    side = torch.cuda.Stream()
    b.mul_(2)
    if flag:
        side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    # CHECK: producers.py:[[@LINE-1]]:16: warning: the asynchronous device-to-host copy of 'b' on stream 'side'
    side.synchronize()
    return temp.sum()


def device_synchronized(b):
    side = torch.cuda.Stream()
    b.mul_(2)
    torch.cuda.synchronize()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def writer_stream_synchronized(b):
    side = torch.cuda.Stream()
    b[0:4] = 3
    torch.cuda.current_stream().synchronize()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def blocking_read_on_the_writer_stream(b):
    side = torch.cuda.Stream()
    b.mul_(2)
    if b.sum().item() > 0:
        pass
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def one_stream(b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        b.mul_(2)
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def stream_parameter(b, s):
    # s may be the current stream: no claim
    b.mul_(2)
    with torch.cuda.stream(s):
        temp = b.to("cpu", non_blocking=True)
    s.synchronize()
    return temp.sum()


def rebound_after_the_write(b):
    side = torch.cuda.Stream()
    b.mul_(2)
    b = torch.ones(4, device="cuda")
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def metadata_only(b):
    side = torch.cuda.Stream()
    b.requires_grad_(False)
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def another_tensor(b, c):
    side = torch.cuda.Stream()
    c.mul_(2)
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def project_sync(b):
    side = torch.cuda.Stream()
    b.mul_(2)
    sync_all_devices()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def sync_all_devices():
    torch.cuda.synchronize()


def _sync_current():
    torch.cuda.current_stream().synchronize()


def unnamed_writes_through_a_helper(a, b):
    # The helper names neither write (it is handed nothing): it stands in
    # for each by its streams, and its sync of the current stream covers
    # the write of 'a' (current stream), not that of 'b' (stream 'side').
    side = torch.cuda.Stream()
    a.mul_(2)
    with torch.cuda.stream(side):
        b.mul_(2)
    _sync_current()
    other = torch.cuda.Stream()
    with torch.cuda.stream(other):
        ha = a.to("cpu", non_blocking=True)
    hb = b.to("cpu", non_blocking=True)
    # CHECK: producers.py:[[@LINE-1]]:10: warning: the asynchronous device-to-host copy of 'b' on the current stream may read it before the work that writes it on stream 'side' has finished
    torch.cuda.synchronize()
    return ha, hb
