# A blocking read of a tensor written on a side stream: the producer runs under
# torch.cuda.stream(side), the result is copied to the host with a blocking
# h.copy_(b) on the current (default) stream, which nothing made wait for the
# side stream. PyTorch's blocking copy synchronizes the current stream only, so
# the host waits for a copy that may have read b before the producer wrote it.
#
# semantics.md row: Python, b written on a created stream, blocking copy_ to pinned host memory on the default stream without wait_stream
# Expected on the GPU: the access reads stale data (the sentinel b held before the producer)
# Expected from the check: warns at the copy (the producer diagnostic, a blocking copy)
#
# Twin: py_producer_blocking_read_fixed.py
#
# RUN: %cars_python %s %S/../rt_torch.py | FileCheck %s --allow-empty --implicit-check-not='warning:'
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch  # noqa: E402
import rt_torch as rt  # noqa: E402


def scenario():
    b = torch.empty(rt.K_ELEMS, device="cuda")
    h = torch.empty(rt.K_ELEMS, pin_memory=True)
    rt.prime_device(b)
    side = torch.cuda.Stream()  # before the producer: creating it may wait
    gen = rt.next_generation()
    with torch.cuda.stream(side):
        torch.cuda._sleep(rt.K_DELAY_CYCLES)
        b.fill_(rt.fresh(gen))  # the producer, on the side stream
    h.copy_(b)  # copy: read
    # CHECK: :[[@LINE-1]]:5: warning: the blocking device-to-host copy of 'b' on the current stream may read it before the work that writes it on stream 'side' has finished
    v = h[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
