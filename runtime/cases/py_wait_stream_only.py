# wait_stream after the copy: the current stream waits for the side stream on the
# device; the host does not.
#
# semantics.md row: Python: copy under torch.cuda.stream(side), current_stream().wait_stream(side), read
# Expected on the GPU: the access reads stale data (the sentinel)
# Expected from the check: warns at the access
#
# Twin: py_side_stream_side_sync.py
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
    side = torch.cuda.Stream()
    gen = rt.next_generation()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        rt.produce(b, gen)
        temp = b.to("cpu", non_blocking=True)
    torch.cuda.current_stream().wait_stream(side)
    v = temp[0].item()  # access: read
    # CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
