# The other direction: b written on a side stream, copied on the current (default) stream, then
# torch.cuda.synchronize() before the read. The copy ran while the side stream's kernel had not
# written b yet: the device sync waits for both, but the copy already read the old values.
#
# semantics.md row: Python, b written in place under torch.cuda.stream(side), copied on the default stream, torch.cuda.synchronize() before the read
# Expected on the GPU: the access reads stale data (the sentinel b held before the producer)
# Expected from the check: warns at the copy (the producer diagnostic)
#
# Twin: py_producer_written_on_side_synced.py
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
    side = torch.cuda.Stream()  # before the producer: creating it may wait
    gen = rt.next_generation()
    with torch.cuda.stream(side):
        torch.cuda._sleep(rt.K_DELAY_CYCLES)
        b.fill_(rt.fresh(gen))  # the producer, on side
    temp = b.to("cpu", non_blocking=True)  # copy: read
    # CHECK: :[[@LINE-1]]:12: warning: the asynchronous device-to-host copy of 'b' on the current stream may read it before the work that writes it on stream 'side' has finished
    torch.cuda.synchronize()
    v = temp[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
