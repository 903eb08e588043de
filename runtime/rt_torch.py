"""The Python harness of the runtime cases: rt_torch.h's, for PyTorch programs.

A case (runtime/cases/*.py) defines `scenario()`, primes a CUDA tensor with the
sentinel and waits for it (prime_device), produces fresh data on the device
behind a delay (torch.cuda._sleep, PyTorch's spin kernel, then fill_), issues
the copy with the torch API, and hands the value read at a line marked
`# access: <id>` to observe() on a later line. The output is rt.h's:

    RT access=<id> stale=<k> fresh=<f> other=<o> total=<t>

which runtime/agree.py parses as it does for the C++ cases. Standard library
and torch only; `python3 case.py [-n REPS]` (or RT_REPS).
"""

import os
import sys

import torch

K_ELEMS = 1 << 20
# torch.cuda._sleep spins for SM clock cycles: 60 M cycles last 30 ms at the
# H200's top clock (1.98 GHz), longer at any lower one.
K_DELAY_CYCLES = 60 * 1000 * 1000
# What a destination holds before the copy lands. Exact in bf16, never fresh.
K_SENTINEL = -4096.0

_generation = 0
_records = {}  # id -> [stale, fresh, other, total], in order of first use


def fresh(gen):
    """The fresh value of generation gen: a small integer, exact in bf16."""
    return float(gen % 64 + 1)


def next_generation():
    global _generation
    _generation += 1
    return _generation


def prime_device(d):
    """Fill a device tensor with the sentinel and wait for it."""
    d.fill_(K_SENTINEL)
    torch.cuda.synchronize()


def produce(d, gen):
    """A kernel produces d on the current stream: the delay, then the fill."""
    torch.cuda._sleep(K_DELAY_CYCLES)
    d.fill_(fresh(gen))


def observe(access_id, v, gen):
    r = _records.setdefault(access_id, [0, 0, 0, 0])
    r[3] += 1
    if v == fresh(gen):
        r[1] += 1
    elif v == K_SENTINEL or (gen > 0 and v == fresh(gen - 1)):
        r[0] += 1
    else:
        r[2] += 1


def main(scenario):
    reps = int(os.environ.get("RT_REPS", "5"))
    args = sys.argv[1:]
    if "-n" in args and args.index("-n") + 1 < len(args):
        reps = int(args[args.index("-n") + 1])
    reps = max(reps, 1)
    if not torch.cuda.is_available():
        print("rt: no usable CUDA device", file=sys.stderr)
        return 3
    bad = 0
    try:
        # Load the kernels and warm the allocators up outside the scenario.
        warm = torch.empty(1024, device="cuda")
        torch.cuda._sleep(0)
        warm.fill_(0.0)
        torch.cuda.synchronize()
        for _ in range(reps):
            scenario()
            torch.cuda.synchronize()
    except RuntimeError as e:
        print("rt: torch error: %s" % e, file=sys.stderr)
        bad = 1
    print("RT reps=%d" % reps)
    for access_id, (stale, fr, other, total) in _records.items():
        print("RT access=%s stale=%d fresh=%d other=%d total=%d"
              % (access_id, stale, fr, other, total))
    sys.stdout.flush()
    return 2 if bad else 0
