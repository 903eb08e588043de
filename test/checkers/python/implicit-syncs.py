# Calls that synchronize without saying so: a blocking copy to the host
# (torchtitan's token dispatcher: the input splits non_blocking, then the
# output splits blocking, then both read), ops whose result size depends on
# the data (nonzero, masked_select, unique: lmdeploy's permute), and methods
# inherited from a class of another module, whose bodies are not seen.
# Methods of base classes in the module are looked through.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch
from elsewhere import DispatcherBase


def blocking_copy_after(counts_a, counts_b):
    input_splits = counts_a.sum(dim=1).to(torch.device("cpu"), non_blocking=True)
    output_splits = counts_b.sum(dim=1).to(torch.device("cpu"), non_blocking=False)
    return input_splits.tolist(), output_splits.tolist()


def nonzero_after(g, mask):
    t = g.to("cpu", non_blocking=True)
    idx = mask.nonzero()
    return t.tolist(), idx


def masked_select_after(g, tokens, mask):
    t = g.to("cpu", non_blocking=True)
    sel = torch.masked_select(tokens, mask)
    return t.tolist(), sel


class Dispatcher(DispatcherBase):
    def dispatch(self, counts, tokens, mask):
        self.splits = counts.to(torch.device("cpu"), non_blocking=True)
        permuted = super().permute(tokens, mask)  # not seen: may synchronize
        return self.splits.tolist(), permuted

    def other(self, counts):
        self.splits = counts.to(torch.device("cpu"), non_blocking=True)
        self.prepare()  # inherited, not seen
        return self.splits.tolist()


class LocalBase:
    def log(self, x):
        return x


class Local(LocalBase):
    def run(self, counts):
        splits = counts.to("cpu", non_blocking=True)
        self.log(1)  # LocalBase.log, seen: it does not synchronize
        return splits.tolist()
        # CHECK: implicit-syncs.py:[[@LINE-1]]:16: warning: 'splits' is read before

    def run_super(self, counts):
        splits = counts.to("cpu", non_blocking=True)
        super().log(1)
        return splits.tolist()
        # CHECK: implicit-syncs.py:[[@LINE-1]]:16: warning: 'splits' is read before


# Still warned: a blocking copy on another stream does not cover a side
# stream's copy... and a non_blocking one covers nothing.
def non_blocking_after(counts_a, counts_b):
    input_splits = counts_a.to("cpu", non_blocking=True)
    more = counts_b.to("cpu", non_blocking=True)
    return input_splits.tolist(), more
    # CHECK: implicit-syncs.py:[[@LINE-1]]:12: warning: 'input_splits' is read before


def blocking_copy_other_stream(counts_a, counts_b):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        t = counts_a.to("cpu", non_blocking=True)
    u = counts_b.to("cpu")
    return t.tolist(), u
    # CHECK: implicit-syncs.py:[[@LINE-1]]:12: warning: 't' is read before
    # CHECK: implicit-syncs.py:[[@LINE-3]]:9: note: this synchronizes the current stream, not stream 'side', the copy's stream
