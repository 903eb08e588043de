# The fix of py_side_stream_no_wait.py: side.wait_stream(torch.cuda.current_stream()) before the
# copy orders it after the producer on the default stream.
#
# semantics.md row: Python, copy under torch.cuda.stream(side) after side.wait_stream(torch.cuda.current_stream())
# Expected on the GPU: fresh data
# Expected from the check: silent (as its libtorch twin, torch_side_stream_copy_event_block.cpp)
#
# Twin: py_side_stream_no_wait.py
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
    rt.produce(b, gen)  # on the current (default) stream
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)  # copy: read
    side.synchronize()
    v = temp[0].item()  # access: read
    rt.observe("read", v, gen)


if __name__ == "__main__":
    sys.exit(rt.main(scenario))
