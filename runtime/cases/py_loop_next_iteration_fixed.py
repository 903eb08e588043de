# The fix of py_loop_next_iteration.py: synchronize before reading the previous copy.
#
# semantics.md row: Python: a loop: the previous iteration's copy read after a sync
# Expected on the GPU: fresh data
# Expected from the check: silent
#
# Twin: py_loop_next_iteration.py
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
    temp, gen = None, 0
    for _ in range(2):
        if temp is not None:
            torch.cuda.synchronize()
            v = temp[0].item()  # access: read
            rt.observe("read", v, gen)
        gen = rt.next_generation()
        rt.produce(b, gen)
        temp = b.to("cpu", non_blocking=True)
    torch.cuda.synchronize()

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
