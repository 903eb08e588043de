# The fix of py_method_event_pipeline.py: the reader calls wait() first.
#
# semantics.md row: Python: methods: copy into self.buf + self.event.record(); wait() synchronizes self.event; the read
# Expected on the GPU: fresh data
# Expected from the check: silent
#
# Twin: py_method_event_pipeline.py
#
# RUN: %cars_python %s %S/../rt_torch.py | FileCheck %s --allow-empty --implicit-check-not='warning:'
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch  # noqa: E402
import rt_torch as rt  # noqa: E402

class Pipeline:
    def __init__(self):
        self.event = torch.cuda.Event()

    def start(self, b):
        self.buf = b.to("cpu", non_blocking=True)
        self.event.record()

    def wait(self):
        self.event.synchronize()

    def read(self, b):
        self.start(b)
        self.wait()
        return self.buf[0].item()  # access: read


def scenario():
    b = torch.empty(rt.K_ELEMS, device="cuda")
    rt.prime_device(b)
    gen = rt.next_generation()
    rt.produce(b, gen)
    v = Pipeline().read(b)
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
