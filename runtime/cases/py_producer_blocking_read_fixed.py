# The fix of py_producer_blocking_read.py that its note suggests: the current
# stream waits for the side stream (wait_stream) before the blocking copy.
#
# semantics.md row: Python, b written on a created stream, current_stream().wait_stream(side), blocking copy_ to pinned host memory
# Expected on the GPU: the access reads fresh data
# Expected from the check: silent
#
# Twin: py_producer_blocking_read.py
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
    torch.cuda.current_stream().wait_stream(side)
    h.copy_(b)  # copy: read
    v = h[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
