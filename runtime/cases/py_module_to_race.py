# torch.nn.Module.to(cpu, non_blocking=True) moves the module's parameters in
# place, each with Tensor.to: the host reads a weight before a sync.
#
# semantics.md row: Python: nn.Module.to(cpu, non_blocking=True), a parameter read before a sync
# Expected on the GPU: the access reads stale data (the sentinel)
# Expected from the check: warns at the access
#
# Twin: py_module_to_fixed.py
#
# RUN: %cars_python %s %S/../rt_torch.py | FileCheck %s --allow-empty --implicit-check-not='warning:'
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch  # noqa: E402
import rt_torch as rt  # noqa: E402

def scenario():
    lin = torch.nn.Linear(1024, rt.K_ELEMS // 1024, bias=False, device="cuda")
    lin.requires_grad_(False)
    w = lin.weight
    rt.prime_device(w)
    gen = rt.next_generation()
    rt.produce(w, gen)
    lin.to("cpu", non_blocking=True)
    v = lin.weight[0, 0].item()  # access: read
    # CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
    torch.cuda.synchronize()
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
