# The twin of py_module_to_race: torch.cuda.synchronize() after the module's
# non-blocking move and before the host reads a weight.
#
# semantics.md row: Python: nn.Module.to(cpu, non_blocking=True), torch.cuda.synchronize() before the read
# Expected on the GPU: fresh data
# Expected from the check: silent
#
# Twin: py_module_to_race.py
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
    torch.cuda.synchronize()
    v = lin.weight[0, 0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
