# The seed: a[:] = b.to('cpu', non_blocking=True); torch.cuda.synchronize().
#
# semantics.md row: Python: the seed, the non_blocking result consumed before torch.cuda.synchronize()
# Expected on the GPU: the access reads stale data (the sentinel)
# Expected from the check: warns at the access
#
# Twin: py_seed_fixed_sync.py, py_seed_fixed_side_stream.py
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
    a[:] = b.to("cpu", non_blocking=True)  # access: consume
    # CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
    torch.cuda.synchronize()
    rt.observe("consume", a[0].item(), gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
