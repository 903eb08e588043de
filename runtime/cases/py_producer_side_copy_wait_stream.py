# The fix of py_producer_side_copy.py that its note suggests: side.wait_stream(current stream)
# after the producer and before the copy's `with` block.
#
# semantics.md row: Python, b written in place on the default stream, side.wait_stream(current), copied under torch.cuda.stream(side)
# Expected on the GPU: the access reads fresh data
# Expected from the check: silent
#
# Twin: py_producer_side_copy.py
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
    torch.cuda._sleep(rt.K_DELAY_CYCLES)
    b.fill_(rt.fresh(gen))  # the producer, on the current stream
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)  # copy: read
    side.synchronize()
    v = temp[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
