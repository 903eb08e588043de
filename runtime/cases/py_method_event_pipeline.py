# The vLLM pipeline's shape: one method issues the copy into self.buf and records
# self.event, another synchronizes it; the reader forgets to call it.
#
# semantics.md row: Python: methods: copy into self.buf + self.event.record(); the read without the method that synchronizes
# Expected on the GPU: the access reads stale data (the sentinel)
# Expected from the check: warns at the access
#
# Twin: py_method_event_pipeline_fixed.py
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
        return self.buf[0].item()  # access: read
        # CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}


def scenario():
    b = torch.empty(rt.K_ELEMS, device="cuda")
    rt.prime_device(b)
    gen = rt.next_generation()
    rt.produce(b, gen)
    v = Pipeline().read(b)
    rt.observe("read", v, gen)

if __name__ == "__main__":
    sys.exit(rt.main(scenario))
