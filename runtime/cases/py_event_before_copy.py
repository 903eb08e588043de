# An event recorded before the copy, then synchronized: it does not wait for the copy.
#
# semantics.md row: Python: torch.cuda.Event recorded before the copy, synchronize()
# Expected on the GPU: the access reads stale data (the sentinel)
# Expected from the check: warns at the access
#
# Twin: py_event_query_loop.py
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
    # Recorded before the producer too: with the producer after it, the window in which the
    # copy is still in flight after e.synchronize() returns is the producer's 30 ms, which
    # Python's own overhead cannot close (recorded between the producer and the copy, the
    # window is the 4 MiB copy alone, and the H200 run showed it closed by the time
    # Python reads: 0/10).
    e.record()
    rt.produce(b, gen)
    temp = b.to("cpu", non_blocking=True)
    e.synchronize()
    v = temp[0].item()  # access: read
    # CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
