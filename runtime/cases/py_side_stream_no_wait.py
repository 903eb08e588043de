# The seed's second fix, in Python: the copy on a side stream, that stream synchronized before
# the read, and no wait_stream: nothing orders the copy after b's producer on the default stream.
#
# semantics.md row: Python, copy under torch.cuda.stream(side) without wait_stream; the producer is on the default stream
# Expected on the GPU: the access reads stale data (the sentinel b held before the producer)
# Expected from the check: warns at the copy (the producer diagnostic: the producer is rt.produce,
#   in rt_torch.py, which the RUN line gives the front end with the case, as a project's modules)
#
# Twin: py_side_stream_wait_stream.py
#
# RUN: %cars_python %s %S/../rt_torch.py | FileCheck %s --allow-empty --implicit-check-not='warning:'
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch  # noqa: E402
import rt_torch as rt  # noqa: E402


def scenario():
    b = torch.empty(rt.K_ELEMS, device="cuda")
    rt.prime_device(b)
    side = torch.cuda.Stream()  # before the producer: creating it may wait
    gen = rt.next_generation()
    rt.produce(b, gen)  # on the current (default) stream
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)  # copy: read
    # CHECK: :[[@LINE-1]]:16: warning: the asynchronous device-to-host copy of 'b' on stream 'side' may read it before the work that writes it on the current stream has finished
    side.synchronize()
    v = temp[0].item()  # access: read
    rt.observe("read", v, gen)


if __name__ == "__main__":
    sys.exit(rt.main(scenario))
