# pinned.copy_(gpu, non_blocking=True), then a read with no sync.
#
# semantics.md row: Python: dst.copy_(src, non_blocking=True) into pin_memory=True, read
# Expected on the GPU: the access reads stale data (the sentinel)
# Expected from the check: warns at the access
#
# Twin: py_copy_into_pinned_fixed.py
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
    host = torch.empty(rt.K_ELEMS, pin_memory=True)
    host.fill_(rt.K_SENTINEL)
    gen = rt.next_generation()
    rt.produce(b, gen)
    host.copy_(b, non_blocking=True)
    v = host[0].item()  # access: read
    # CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
