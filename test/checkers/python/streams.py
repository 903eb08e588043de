# Streams: `with torch.cuda.stream(s):` sets the copy's stream; a sync of a
# stream the check knows to be another one does not cover it, with a note
# saying so; a stream it cannot identify (a parameter, an attribute) is never
# claimed to differ.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def current_sync_side_copy(b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    torch.cuda.current_stream().synchronize()
    return temp.sum()
    # CHECK: streams.py:[[@LINE-1]]:12: warning: 'temp' is read before
    # CHECK: streams.py:[[@LINE-4]]:16: note: asynchronous device-to-host copy into 'temp' on stream 'side' is issued here
    # CHECK: streams.py:[[@LINE-4]]:5: note: this synchronizes the current stream, not stream 'side', the copy's stream


def default_sync_side_copy(b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    torch.cuda.default_stream().synchronize()
    print(temp)
    # CHECK: streams.py:[[@LINE-1]]:11: warning: 'temp' is passed to 'print' before
    # CHECK: streams.py:[[@LINE-3]]:5: note: this synchronizes the default stream, not stream 'side', the copy's stream


def other_side_stream(b):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    with torch.cuda.stream(s1):
        temp = b.to("cpu", non_blocking=True)
    s2.synchronize()
    x = temp[0].item()
    # CHECK: streams.py:[[@LINE-1]]:9: warning: 'temp' is read before
    # CHECK: streams.py:[[@LINE-3]]:5: note: this synchronizes stream 's2', not stream 's1', the copy's stream
    return x


def wait_stream_is_not_a_sync(b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    torch.cuda.current_stream().wait_stream(side)
    return temp.tolist()
    # CHECK: streams.py:[[@LINE-1]]:12: warning: 'temp' is read before
    # CHECK: streams.py:[[@LINE-3]]:5: note: wait_stream makes a stream wait on the device; it does not block the host


def copy_on_current_sync_in_with(b):
    side = torch.cuda.Stream()
    temp = b.to("cpu", non_blocking=True)
    with torch.cuda.stream(side):
        torch.cuda.current_stream().synchronize()
    return temp.tolist()
    # CHECK: streams.py:[[@LINE-1]]:12: warning: 'temp' is read before
    # CHECK: streams.py:[[@LINE-3]]:9: note: this synchronizes stream 'side', not the current stream, the copy's stream


# Silent: the right stream, in each spelling.
def side_synced(b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
        torch.cuda.current_stream().synchronize()
    return temp.tolist()


def current_synced(b):
    s = torch.cuda.current_stream()
    temp = b.to("cpu", non_blocking=True)
    s.synchronize()
    return temp.tolist()


def device_synced(b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    return temp.tolist()


# Silent: streams the check cannot tell apart from the copy's.
def stream_parameter(b, stream):
    temp = b.to("cpu", non_blocking=True)
    stream.synchronize()
    return temp.tolist()


def default_vs_current(b):
    temp = b.to("cpu", non_blocking=True)
    torch.cuda.default_stream().synchronize()  # the current stream may be the default one
    return temp.tolist()


class Loader:
    def run(self, b):
        with torch.cuda.stream(self.stream):
            temp = b.to("cpu", non_blocking=True)
        self.stream.synchronize()
        return temp.tolist()

    def other(self, b):
        with torch.cuda.stream(self.copy_stream):
            temp = b.to("cpu", non_blocking=True)
        self.compute_stream.synchronize()  # may be the same stream
        return temp.tolist()
