# Events: torch.cuda.Event recorded after the copy on its stream, then
# synchronized or polled with query(), covers it; recorded before the copy,
# on another stream, or on only some paths, it does not. record() alone and
# wait() are not syncs.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def recorded_before(b):
    e = torch.cuda.Event()
    e.record()
    temp = b.to("cpu", non_blocking=True)
    e.synchronize()
    return temp.tolist()
    # CHECK: events.py:[[@LINE-1]]:12: warning: 'temp' is read before
    # CHECK: events.py:[[@LINE-3]]:5: note: event 'e' was recorded before the copy, or on another stream, so synchronizing it does not wait for the copy


def recorded_on_another_stream(b):
    side = torch.cuda.Stream()
    e = torch.cuda.Event()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    e.record()
    e.synchronize()
    return temp.tolist()
    # CHECK: events.py:[[@LINE-1]]:12: warning: 'temp' is read before


def recorded_on_one_path(b, flag):
    e = torch.cuda.Event()
    temp = b.to("cpu", non_blocking=True)
    if flag:
        e.record()
    e.synchronize()
    return temp.tolist()
    # CHECK: events.py:[[@LINE-1]]:12: warning: 'temp' is read before
    # CHECK: events.py:[[@LINE-3]]:5: note: event 'e' is synchronized here, but it is not recorded after the copy on every path to this point


def record_alone(b):
    e = torch.cuda.Event()
    temp = b.to("cpu", non_blocking=True)
    e.record()
    return temp.tolist()
    # CHECK: events.py:[[@LINE-1]]:12: warning: 'temp' is read before


def event_wait(b):
    e = torch.cuda.Event()
    temp = b.to("cpu", non_blocking=True)
    e.record()
    e.wait()
    return temp.tolist()
    # CHECK: events.py:[[@LINE-1]]:12: warning: 'temp' is read before
    # CHECK: events.py:[[@LINE-3]]:5: note: Event.wait makes a stream wait on the device; it does not block the host


def query_not_checked(b):
    e = torch.cuda.Event()
    temp = b.to("cpu", non_blocking=True)
    e.record()
    e.query()
    return temp.tolist()
    # CHECK: events.py:[[@LINE-1]]:12: warning: 'temp' is read before


def read_when_not_done(b):
    e = torch.cuda.Event()
    temp = b.to("cpu", non_blocking=True)
    e.record()
    if not e.query():
        return temp.tolist()
        # CHECK: events.py:[[@LINE-1]]:16: warning: 'temp' is read before
    return None


# Silent: the event recorded after the copy, on its stream.
def synchronized(b):
    e = torch.cuda.Event()
    temp = b.to("cpu", non_blocking=True)
    e.record()
    e.synchronize()
    return temp.tolist()


def polled(b):
    e = torch.cuda.Event()
    temp = b.to("cpu", non_blocking=True)
    e.record()
    while not e.query():
        pass
    return temp.tolist()


def read_when_done(b):
    e = torch.cuda.Event()
    temp = b.to("cpu", non_blocking=True)
    e.record()
    if e.query():
        return temp.tolist()
    return None


def on_the_side_stream(b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
        done = torch.cuda.current_stream().record_event()
    done.synchronize()
    return temp.tolist()


def recorded_with_stream_argument(b):
    side = torch.cuda.Stream()
    e = torch.cuda.Event()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    e.record(side)
    e.synchronize()
    return temp.tolist()


def stream_records_event(b):
    side = torch.cuda.Stream()
    e = torch.cuda.Event()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.record_event(e)
    e.synchronize()
    return temp.tolist()


# Silent: an event the check cannot follow (a parameter) may cover the copy.
def event_parameter(b, event):
    temp = b.to("cpu", non_blocking=True)
    event.synchronize()
    return temp.tolist()
