# The twin of py_dataclass_to_race: torch.cuda.synchronize() between the
# object's own non-blocking .to() and the host read of its field.
#
# semantics.md row: Python: a dataclass's own .to(cpu, non_blocking=True), torch.cuda.synchronize() before the read
# Expected on the GPU: fresh data
# Expected from the check: silent
#
# Twin: py_dataclass_to_race.py
#
# RUN: %cars_python %s %S/../rt_torch.py | FileCheck %s --allow-empty --implicit-check-not='warning:'
import os
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch  # noqa: E402
import rt_torch as rt  # noqa: E402


@dataclass
class Batch:
    x: torch.Tensor

    def to(self, device, non_blocking=False):
        return Batch(self.x.to(device, non_blocking=non_blocking))


def scenario():
    b = torch.empty(rt.K_ELEMS, device="cuda")
    rt.prime_device(b)
    gen = rt.next_generation()
    rt.produce(b, gen)
    batch = Batch(b)
    h = batch.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    v = h.x[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
