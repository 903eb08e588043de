# The seed's fix 2 with its producer in the function: the kernel writes b on the current (default)
# stream, the copy runs on a side stream that nothing made wait for it; the side stream is
# synchronized before the read, which still sees what b held before the kernel.
#
# semantics.md row: Python, b written in place on the default stream, copied under torch.cuda.stream(side) without wait_stream
# Expected on the GPU: the access reads stale data (the sentinel b held before the producer)
# Expected from the check: warns at the copy (the producer diagnostic)
#
# Twins: py_producer_side_copy_wait_stream.py, py_producer_side_copy_event.py
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
    torch.cuda._sleep(rt.K_DELAY_CYCLES)
    b.fill_(rt.fresh(gen))  # the producer, on the current stream
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)  # copy: read
    # CHECK: :[[@LINE-1]]:16: warning: the asynchronous device-to-host copy of 'b' on stream 'side' may read it before the work that writes it on the current stream has finished
    side.synchronize()
    v = temp[0].item()  # access: read
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
