# A copy at the bottom of an iteration, read at the top of the next one before the sync.
#
# semantics.md row: Python: a loop: the previous iteration's copy read before this iteration's sync
# Expected on the GPU: the access reads stale data (the sentinel)
# Expected from the check: warns at the access
#
# Twin: py_loop_next_iteration_fixed.py
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
            v = temp[0].item()  # access: read
            # CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
            rt.observe("read", v, gen)
        gen = rt.next_generation()
        rt.produce(b, gen)
        temp = b.to("cpu", non_blocking=True)
    torch.cuda.synchronize()

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
