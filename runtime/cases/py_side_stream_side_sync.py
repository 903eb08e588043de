# The fix of py_side_stream_current_sync.py: the side stream synchronized.
#
# semantics.md row: Python: copy under torch.cuda.stream(side), side.synchronize()
# Expected on the GPU: fresh data
# Expected from the check: silent
#
# Twin: py_side_stream_current_sync.py
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
    side = torch.cuda.Stream()
    gen = rt.next_generation()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        rt.produce(b, gen)
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    v = temp[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
