# The seed's first fix: torch.cuda.synchronize() before a[:] = temp.
#
# semantics.md row: Python: the seed, torch.cuda.synchronize() before the read
# Expected on the GPU: fresh data
# Expected from the check: silent
#
# Twin: py_seed_race.py
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
    a = torch.empty(rt.K_ELEMS)
    gen = rt.next_generation()
    rt.produce(b, gen)
    temp = b.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    a[:] = temp  # access: consume
    rt.observe("consume", a[0].item(), gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
