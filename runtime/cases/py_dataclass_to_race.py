# A dataclass of tensors with its own .to(), which applies Tensor.to to each
# field (the TensorDict / batch-object idiom): the host reads a field of the
# moved object before a sync.
#
# semantics.md row: Python: a dataclass's own .to(cpu, non_blocking=True), a field read before a sync
# Expected on the GPU: the access reads stale data (the sentinel)
# Expected from the check: warns at the access
#
# Twin: py_dataclass_to_fixed.py
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
    v = h.x[0].item()  # access: read
    # CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
    torch.cuda.synchronize()
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
