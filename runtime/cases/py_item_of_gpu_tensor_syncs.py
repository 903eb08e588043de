# `.item()` of another GPU tensor on the copy's stream blocks until the stream's work,
# the copy included, is done.
#
# semantics.md row: Python: a blocking read (.item()) of a GPU tensor on the copy's stream, then the read
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
    flag = torch.zeros(1, device="cuda")
    gen = rt.next_generation()
    rt.produce(b, gen)
    temp = b.to("cpu", non_blocking=True)
    flag.item()
    v = temp[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
