"""gen.h's Python twin: what the generated PyTorch programs need on top of rt_torch.py.

Holds: a runtime int the check cannot see through (rt_int), a device tensor
primed with the sentinel before the scenario's first copy (prime_device),
the value a generation leaves in element 0 (value_of), the tally of each
marked read against the value expected in program order (hits, seen, flush;
observe_last_write for writes), and the runner of one scenario of a module
chosen on the command line (main: `python3 unit.py -s SEED [-n REPS]`).
May call: rt_torch.py (records, the fresh pattern, its runner) and torch.
Nothing here issues a device-to-host copy, and the check's Python front end
is never handed this file, so, as gen.h, it stays invisible to the check:
prime_device synchronizes, but before the scenario's first copy.
"""

import sys

import rt_torch as rt

K_ELEMS = rt.K_ELEMS
K_SENTINEL = rt.K_SENTINEL
fresh = rt.fresh  # the value generation g writes: 1 to 64
# The producer's delay (rt_torch's 30 ms at the H200's top clock) and the
# delay that writes nothing, a third of it (gen.h's kSpinNs), in SM cycles
# for torch.cuda._sleep.
K_DELAY_CYCLES = rt.K_DELAY_CYCLES
K_SPIN_CYCLES = rt.K_DELAY_CYCLES // 3
# What the pinned upload tensor (the source of host-to-device copies) holds:
# neither the sentinel nor a value of rt.fresh (1 to 64).
K_UPLOAD = 0.5

SLOTS = 256
hits = [0] * SLOTS
seen = [0] * SLOTS


def rt_int(v):
    """An int the check cannot know (a call into a module it is not given)."""
    return int(v)


def prime_device(d):
    """d := the sentinel, and the device idle; before the first copy."""
    rt.prime_device(d)


def value_of(g):
    """What element 0 holds after the device tensor got generation g: g >= 0
    the fresh value, -1 the zeros of zero_(), -2 the sentinel of
    prime_device, -3 the upload tensor's value."""
    return rt.fresh(g) if g >= 0 else 0.0 if g == -1 else K_SENTINEL if g == -2 else K_UPLOAD


def _record(ident):
    return rt._records.setdefault(ident, [0, 0, 0, 0])  # stale, fresh, other, total


def flush(k, ident):
    """Slot k's reads as access `ident` (fresh: saw the value program order
    expected; stale: anything else). Resets the slot."""
    if seen[k] > 0:
        r = _record(ident)
        r[3] += seen[k]
        r[1] += hits[k]
        r[0] += seen[k] - hits[k]
    hits[k] = seen[k] = 0


def observe_last_write(ident, now, expected):
    """After the final synchronization: `ident` the marked write that last
    touched the buffer in program order (None: a copy did), `now` element 0
    read back, `expected` the value written."""
    if ident is None:
        return
    r = _record(ident)
    r[3] += 1
    if now == expected:
        r[1] += 1
    else:
        r[0] += 1


def run_all(table):
    """Every scenario of table, each -n REPS times (rt_torch's runner, once
    for all of them): a scenario that raises prints `GEN failed=<seed>` and
    the next one runs."""
    def scenarios():
        for seed, fn in table.items():
            print("GEN scenario=%s" % seed, flush=True)
            try:
                fn()
            except RuntimeError as e:
                print("GEN failed=%s %s" % (seed, str(e).splitlines()[0] if str(e) else ""),
                      flush=True)
    return rt.main(scenarios)


def main(table):
    """table: {seed: scenario function}. `-s SEED` picks one (default the
    first), `-s all` runs each, `-l` lists them; rt_torch's runner does the
    rest (-n REPS)."""
    args = sys.argv[1:]
    if "-l" in args:
        for seed in table:
            print(seed)
        return 0
    want = next(iter(table), None)
    if "-s" in args and args[args.index("-s") + 1:args.index("-s") + 2] == ["all"]:
        return run_all(table)
    if "-s" in args and args.index("-s") + 1 < len(args):
        try:
            want = int(args[args.index("-s") + 1])
        except ValueError:
            print("gen: -s takes a seed, not %r" % args[args.index("-s") + 1], file=sys.stderr)
            return 2
    if want not in table:
        print("gen: no scenario %s in this module (-l lists them)" % want, file=sys.stderr)
        return 2
    print("GEN scenario=%s" % want)
    return rt.main(table[want])
