# The seed's second fix: the copy on a side stream that waits for the producer, that stream
# synchronized before a[:] = temp.
#
# semantics.md row: Python: copy under torch.cuda.stream(side) after wait_stream, side.synchronize() before the read
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
    side = torch.cuda.Stream()
    gen = rt.next_generation()
    rt.produce(b, gen)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    a[:] = temp  # access: consume
    rt.observe("consume", a[0].item(), gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
