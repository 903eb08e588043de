# The fix of py_producer_written_on_side.py: the side stream synchronized before the copy.
#
# semantics.md row: Python, b written in place under torch.cuda.stream(side), side.synchronize(), copied on the default stream
# Expected on the GPU: the access reads fresh data
# Expected from the check: silent
#
# Twin: py_producer_written_on_side.py
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
    with torch.cuda.stream(side):
        torch.cuda._sleep(rt.K_DELAY_CYCLES)
        b.fill_(rt.fresh(gen))  # the producer, on side
    side.synchronize()
    temp = b.to("cpu", non_blocking=True)  # copy: read
    torch.cuda.synchronize()
    v = temp[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
