# An event recorded after the copy, polled with `while not e.query(): pass`.
#
# semantics.md row: Python: torch.cuda.Event recorded after the copy, a query() loop
# Expected on the GPU: fresh data
# Expected from the check: silent
#
# Twin: py_event_before_copy.py
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
    e = torch.cuda.Event()
    gen = rt.next_generation()
    rt.produce(b, gen)
    temp = b.to("cpu", non_blocking=True)
    e.record()
    while not e.query():
        pass
    v = temp[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
