#!/usr/bin/env python3
"""The ordering model: a happens-before interpreter of generated programs.

Holds: an interpreter of the AST of generate.py (not of C++ text) under
CUDA's documented stream and synchronization rules and the measured rows of
docs/semantics.md, which answers for each marked access "stale possible" or
"ordered" (with a short reason), for each marked copy whether it may read
its source before the device work writing it finished, and, for the GPU
sampler, what value each marked access can observe.
May call: generate.py (AST walks). Python 3 standard library only.

How it works. Every piece of device work is an operation with the set of
operations it is ordered after (`before`, transitively closed, itself
included). Each stream keeps the set the next operation on it must follow
(`pending`). The host keeps the set of operations it knows complete
(`done`, closed under `before`). An access of a host buffer is "stale
possible" when an asynchronous device-to-host copy into it is not in
`done` (the check's claim: a copy into it may be in flight). Branches on
runtime ints are explored by enumerating every value of each runtime int
(0, 1, 2: every condition and every non-constant loop bound of the grammar
has its outcomes there; a loop bound r runs 0, 1 or 2 iterations), so
correlated branches are exact; constant conditions and bounds take their
one path. The verdict of an access is the union over the executions that
reach it; an access no execution reaches is "unreached".

The legacy default stream and the blocking streams: work on stream 0 waits
for the blocking streams' earlier work, and a blocking stream waits for
earlier stream-0 work with its next operation (an event record included);
a host sync or query loop of a blocking stream covers only what its own
operations were ordered after. Measured on an H100 by gpu_sample.py
(2026-12-06, runtime/results/): a copy on stream 0, then
cudaStreamSynchronize or a cudaStreamQuery loop of a blocking stream, read
stale in 3/3 runs (seeds 1460, 4596, 706); an event recorded on the blocking
stream after that copy and synchronized or polled, fresh in 3/3 (seeds 704,
0). `eager_legacy` takes the other reading of the documentation, in which
the host sync of a blocking stream covers earlier stream-0 work too.

Sources cited in the rules: [SM: row] is a row of docs/semantics.md (measured
on an H200); [API-sync] the CUDA Runtime API reference, "API
synchronization behavior"; [Stream-sync] its "Stream synchronization
behavior"; [PG-events] the CUDA Programming Guide, "Events" / "Explicit
Synchronization"; [case: x] runtime/cases/x.cu, measured on a GPU.
"""

import argparse
import itertools
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate as G  # noqa: E402

RUNTIME_VALUES = (0, 1, 2)
STALE = "stale possible"
ORDERED = "ordered"
UNREACHED = "unreached"
UNMEASURED = "unmeasured"


def describe(s, kinds):
    """A statement as the C++ it stands for, short."""
    sx = lambda n: {"legacy": "0", "per_thread": "cudaStreamPerThread"}.get(kinds.get(n), n)
    op = s["op"]
    if op == "stream_sync":
        return "cudaStreamSynchronize(%s)" % sx(s["stream"])
    if op == "device_sync":
        return "cudaDeviceSynchronize()"
    if op == "event_sync":
        return "cudaEventSynchronize(%s)" % s["event"]
    if op == "stream_poll":
        return "a cudaStreamQuery(%s) loop" % sx(s["stream"])
    if op == "event_poll":
        return "a cudaEventQuery(%s) loop" % s["event"]
    if op == "copy":
        return "cudaMemcpyAsync D2H %s on %s (%s)" % (s["id"], sx(s["stream"]), s["host"])
    if op == "copy_blocking":
        return "blocking cudaMemcpy D2H %s (%s)" % (s["id"], s["host"])
    if op == "upload_blocking":
        return "blocking cudaMemcpy H2D into %s" % s["dev"]
    if op == "memset_pinned":
        return "blocking cudaMemset of pinned memory"
    if op == "memset_dev":
        return "cudaMemset of %s" % s["dev"]
    if op == "produce":
        return "rt::produce(%s) on %s" % (s["dev"], sx(s["stream"]))
    if op == "upload":
        return "cudaMemcpyAsync H2D into %s on %s" % (s["dev"], sx(s["stream"]))
    return op


class Exec:
    """One execution (one value of every runtime int)."""

    def __init__(self, prog, env, strict, eager_legacy=False):
        self.p = prog
        self.env = env
        self.strict = strict
        # [Stream-sync] read eagerly (not the default, contradicted on an
        # H100): a host sync of a blocking stream also covers the stream-0
        # work issued before it.
        self.eager_legacy = eager_legacy
        self.last_op = {}
        self.kinds = {s["name"]: s["kind"] for s in prog["streams"]}
        self.hkinds = {h["name"]: h["kind"] for h in prog["hosts"]}
        # [Stream-sync] blocking streams: created without cudaStreamNonBlocking;
        # the per-thread default stream "is not a non-blocking stream and will
        # synchronize with the legacy default stream if both are used".
        self.blocking = [n for n, k in self.kinds.items() if k in ("blocking", "per_thread")]
        self.pending = {n: frozenset() for n in self.kinds}
        self.before = {}        # op -> frozenset
        self.what = {}          # op -> description
        self.done = set()
        self.done_by = {}       # op -> what completed it
        self.captured = {}      # event -> frozenset (last record)
        self.copies = {h: [] for h in self.hkinds}      # async copies into h, in order
        self.producers = {d["name"]: [] for d in prog["devs"]}
        self.last = {h: None for h in self.hkinds}      # ("copy", op) / ("write", id)
        self.lost = {h: None for h in self.hkinds}      # a racy write's id, value unsure
        self.copy_value = {}    # op -> None (fresh) or why its content may be stale
        self.accesses = []      # (id, {"inflight", "value", "reason", "value_reason"})
        self.copy_events = []   # (id, {"early": bool, "reason"})
        self.done_at = {}       # op -> what the host knew complete at its issue
        self.copy_id = {}       # op -> the copy's id
        self.accessed_inflight = set()  # copies in flight at an access so far
        self.n = 0

    # -- device work ------------------------------------------------------------
    def issue(self, stream, what, extra=frozenset()):
        """New device work on `stream`, after `extra` too (an event wait)."""
        self.n += 1
        o = self.n
        deps = set(self.pending[stream]) | set(extra)
        legacy = self.kinds[stream] == "legacy"
        if legacy:
            # [Stream-sync] "the legacy stream first waits on all blocking streams,
            # the action is queued in the legacy stream, and then all blocking
            # streams wait on the legacy stream." [SM: s blocking, then
            # cudaStreamSynchronize(0): 0/5; s non-blocking: 5/5]
            for b in self.blocking:
                deps |= self.pending[b]
        deps.add(o)
        deps = frozenset(deps)
        self.before[o] = deps
        self.done_at[o] = frozenset(self.done)
        self.what[o] = what
        self.pending[stream] = deps
        self.last_op[stream] = o
        if legacy:
            for b in self.blocking:
                self.pending[b] = self.pending[b] | deps
        return o

    def legacy_frontier(self):
        """What a host wait on the legacy default stream covers."""
        legacy = [n for n, k in self.kinds.items() if k == "legacy"]
        deps = set()
        for n in legacy:
            deps |= self.pending[n]
        for b in self.blocking:
            deps |= self.pending[b]
        return deps

    def stream_frontier(self, stream):
        if self.kinds[stream] == "legacy":
            return self.legacy_frontier()
        if not self.eager_legacy:
            # A blocking stream joins earlier stream-0 work with its next
            # operation only (measured, see the module's comment).
            last = self.last_op.get(stream)
            return set(self.before[last]) if last else set()
        return set(self.pending[stream])

    def complete(self, ops, why):
        for o in ops:
            if o not in self.done:
                self.done.add(o)
                self.done_by[o] = why

    def hb(self, o):
        """What is ordered before operation o: device order, or the host knew
        it complete when o was issued (a host wait orders all later work)."""
        return self.before[o] | self.done_at[o]

    # -- statements ---------------------------------------------------------------
    def run(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        op = s["op"]
        desc = describe(s, self.kinds)
        if op in ("produce", "upload"):
            o = self.issue(s["stream"], desc)
            self.producers[s["dev"]].append(o)
        elif op == "delay":
            self.issue(s["stream"], desc)
        elif op == "memset_dev":
            # [API-sync] cudaMemset of device memory is asynchronous with respect
            # to the host; it runs on the legacy default stream. [case:
            # blocking_memset_device: 10/10 stale]
            o = self.issue(self.legacy_name(), desc)
            self.producers[s["dev"]].append(o)
        elif op == "memset_pinned":
            # [API-sync] "fully synchronous" for pinned host memory: legacy-stream
            # work the host waits for. [case: blocking_memset_pinned 0/10,
            # blocking_memset_pinned_nonblocking 10/10]
            o = self.issue(self.legacy_name(), desc)
            self.complete(self.before[o], desc)
        elif op == "upload_blocking":
            # [API-sync] cudaMemcpy from pinned host memory to the device "is
            # synchronous with respect to the host"; it runs on the legacy default
            # stream. [SM: s blocking / non-blocking, then a blocking cudaMemcpy of
            # another buffer: 0/5 / 5/5]
            o = self.issue(self.legacy_name(), desc)
            self.producers[s["dev"]].append(o)
            self.complete(self.before[o], desc)
        elif op in ("copy", "copy_blocking"):
            self.copy(s, desc)
        elif op in ("stream_sync", "stream_poll"):
            # [SM: cudaStreamSynchronize(s) before the read: 0/5]; [SM: while
            # (cudaStreamQuery(s) == cudaErrorNotReady) {}: 0/5]; of another
            # stream [SM: 5/5]; of stream 0 [SM: blocking 0/5, non-blocking 5/5].
            self.complete(self.stream_frontier(s["stream"]), desc)
        elif op == "device_sync":
            # [SM: cudaDeviceSynchronize(): 0/5]
            self.complete(set(self.before), desc)
        elif op == "record":
            # [PG-events] an event completes when all work issued on its stream
            # before the record has completed. The record is an operation in the
            # stream's queue: on stream 0 it waits for the blocking streams, and on
            # a blocking stream for earlier legacy-stream work ([Stream-sync]).
            o = self.issue(s["stream"], desc)
            self.captured[s["event"]] = self.before[o]
        elif op in ("event_sync", "event_poll"):
            # [SM: cudaEventRecord(e, s) after the copy, then cudaEventSynchronize(e):
            # 0/5; recorded before the copy: 5/5]; polling cudaEventQuery [case:
            # event_query_poll]. An event never recorded completes at once.
            self.complete(self.captured.get(s["event"], frozenset()), desc)
        elif op == "wait_event":
            # [SM: cudaStreamWaitEvent(other, e) only: 5/5]: device order only;
            # [Stream-sync] on stream 0 it is a legacy-stream action.
            cap = self.captured.get(s["event"])
            if cap is not None:
                # The wait is an operation in the stream's queue (a sync of the
                # stream waits for it: [case: wait_event_then_sync_other 0/5]).
                self.issue(s["stream"], desc, extra=cap)
        elif op == "query_once":
            # [API-sync / semantics.md] a query is a sync only where it returned
            # cudaSuccess; its result is ignored here.
            pass
        elif op in ("read", "write"):
            self.access(s)
        elif op == "if":
            self.run(s["then"] if self.cond(s["cond"]) else s["else"])
        elif op == "loop":
            b = s["bound"]
            n = b["n"] if b["kind"] == "const" else self.env[b["var"]]
            for _ in range(n):
                self.run(s["body"])
        elif op == "call":
            self.run(s["body"])
        elif op == "lambda":
            for _ in range(s.get("calls", 1)):
                self.run(s["body"])
        else:
            raise ValueError("unknown op %r" % op)

    def legacy_name(self):
        for n, k in self.kinds.items():
            if k == "legacy":
                return n
        # A program without a stream named 0 still has the legacy stream.
        self.kinds["<legacy>"] = "legacy"
        self.pending["<legacy>"] = frozenset()
        return "<legacy>"

    def cond(self, c):
        if c["kind"] == "const":
            return bool(c["value"])
        v = self.env[c["var"]]
        return {"truth": v != 0, "not": v == 0, "eq1": v == 1, "ne0": v != 0,
                "gt0": v > 0}[c["form"]]

    def copy(self, s, desc):
        h, d = s["host"], s["dev"]
        blocking = s["op"] == "copy_blocking"
        o = self.issue(self.legacy_name() if blocking else s["stream"], desc)
        self.copy_id[o] = s["id"]
        # The copy reads d on its stream: every producer of d issued before it
        # must be ordered before it (the check's producer diagnostic).
        hb = self.hb(o)
        early = [p for p in self.producers[d] if p not in hb]
        self.copy_events.append((s["id"], {
            "early": bool(early),
            "reason": ("may read %s before %s finished (not ordered before the copy)"
                       % (d, ", ".join(self.what[p] for p in early))) if early else
                      ("ordered after every producer of %s" % d if self.producers[d] else
                       "%s has no producer before it" % d)}))
        # What the copy brings: the last producer's value, when every producer
        # is ordered before it and the others before the last one.
        value = None
        if early:
            value = "copy %s may read %s before its producer" % (s["id"], d)
        elif len(self.producers[d]) > 1:
            last = self.producers[d][-1]
            ww = [p for p in self.producers[d][:-1] if p not in self.hb(last)]
            if ww:
                value = "two unordered device writes of %s before copy %s" % (d, s["id"])
        # A copy landing on an earlier copy into h that it is not ordered after.
        race = [c for c in self.copies[h] if c not in hb]
        if race and value is None:
            value = "copy %s and an earlier unordered copy into %s" % (s["id"], h)
        self.copy_value[o] = value
        self.copies[h].append(o)
        self.last[h] = ("copy", o)
        self.lost[h] = None
        if blocking:
            # [API-sync] a blocking cudaMemcpy to the host returns once the copy
            # completed; it runs on the legacy default stream. [SM: s blocking,
            # then a blocking cudaMemcpy of another buffer: 0/5]
            self.complete(self.before[o], desc)
        elif self.hkinds[h] == "pageable" and not self.strict:
            # [SM: pageable dst (malloc), 4 MiB and 64 B, no sync: 0/5 (the call
            # returned after the copy)]. StrictMode follows [API-sync] only
            # ("might be synchronous"): the copy stays asynchronous.
            self.complete(self.before[o], "its own return (pageable destination)")
        # pinned [SM: 5/5], registered [SM: cudaHostRegister'ed dst: 5/5],
        # managed (not measured): asynchronous.

    def access(self, s):
        h = s["host"]
        inflight = [c for c in self.copies[h] if c not in self.done]
        if inflight:
            reason = "%s may be in flight" % "; ".join(sorted({self.what[c] for c in inflight}))
        elif self.copies[h]:
            by = []
            for c in self.copies[h]:
                item = "%s by %s" % (self.copy_id[c], self.done_by[c])
                if item not in by:
                    by.append(item)
            reason = "every copy into %s is complete: %s" % (h, "; ".join(by[-2:]))
        else:
            reason = "no copy into %s before it" % h
        value = None
        if inflight:
            value = reason
        elif self.lost[h] is not None:
            value = "the racy write %s may have been overwritten" % self.lost[h]
        elif self.last[h] and self.last[h][0] == "copy" and s["op"] == "read":
            value = self.copy_value[self.last[h][1]]
        # Whether every copy in flight here was in flight at an earlier access
        # of this execution too: the Python front end reports a copy at its
        # first access on a path only (compare.py --python).
        earlier = bool(inflight) and all(c in self.accessed_inflight for c in inflight)
        self.accessed_inflight.update(inflight)
        self.accesses.append((s["id"], {"inflight": bool(inflight), "reason": reason,
                                        "value": value, "earlier": earlier}))
        if s["op"] == "write":
            self.last[h] = ("write", s["id"])
            # A write racing a copy: what a later read sees is unsure.
            self.lost[h] = s["id"] if inflight else None

    def execute(self):
        self.run(self.p["body"])
        return self


def runtime_vars(prog):
    return [r["name"] for r in prog["rvars"]]


def executions(prog, strict=False, env=None, eager_legacy=False):
    """Every execution (env None: all values of the runtime ints), or the one
    of `env` ({name: value}; "gpu": the values the program runs with)."""
    names = runtime_vars(prog)
    if env == "gpu":
        env = {r["name"]: r["value"] for r in prog["rvars"]}
    envs = [env] if env is not None else [
        dict(zip(names, vals)) for vals in itertools.product(RUNTIME_VALUES, repeat=len(names))]
    return [Exec(prog, e, strict, eager_legacy).execute() for e in envs]


def verdicts(prog, strict=False, env=None, include_managed=False, eager_legacy=False):
    """{"accesses": {id: {verdict, reason, value, value_reason, host, kind, op}},
        "copies": {id: {verdict: "early"|"ordered"|"unreached", reason}}}.
    verdict of an access: STALE ("stale possible": a copy into it may be in
    flight, the check's claim), ORDERED, UNREACHED, or UNMEASURED (a managed
    destination: not measured in semantics.md; `model` then holds what the
    rules above would say, treating its copies as asynchronous)."""
    G.validate(prog)
    hk = {h["name"]: h["kind"] for h in prog["hosts"]}
    acc, cop = {}, {}
    for s, _ in G.walk(prog["body"]):
        if s["op"] in ("read", "write"):
            acc[s["id"]] = {"host": s["host"], "kind": hk[s["host"]], "op": s["op"],
                            "hits": 0, "stale": None, "value": None, "ordered": None,
                            "earlier": True}
        elif s["op"] in ("copy", "copy_blocking"):
            cop[s["id"]] = {"hits": 0, "early": None, "ordered": None}
    for ex in executions(prog, strict, env, eager_legacy):
        for ident, r in ex.accesses:
            a = acc[ident]
            a["hits"] += 1
            if r["inflight"] and a["stale"] is None:
                a["stale"] = r["reason"]
            if r["inflight"] and not r["earlier"]:
                a["earlier"] = False
            if not r["inflight"] and a["ordered"] is None:
                a["ordered"] = r["reason"]
            if r["value"] and a["value"] is None:
                a["value"] = r["value"]
        for ident, r in ex.copy_events:
            c = cop[ident]
            c["hits"] += 1
            if r["early"] and c["early"] is None:
                c["early"] = r["reason"]
            if not r["early"] and c["ordered"] is None:
                c["ordered"] = r["reason"]
    out = {"accesses": {}, "copies": {}}
    for ident, a in acc.items():
        if not a["hits"]:
            v, why = UNREACHED, "no execution reaches it"
        elif a["stale"]:
            v, why = STALE, a["stale"]
        else:
            v, why = ORDERED, a["ordered"]
        row = {"verdict": v, "reason": why, "host": a["host"], "kind": a["kind"], "op": a["op"],
               "value": ("stale possible" if a["value"] else "fresh") if a["hits"] else UNREACHED,
               "value_reason": a["value"] or "",
               # stale, and on every execution where it is, each copy in flight
               # was in flight at an earlier access too
               "earlier": bool(a["stale"]) and a["earlier"]}
        if a["kind"] == "managed" and not include_managed and v != UNREACHED:
            row["model"] = v
            row["verdict"] = UNMEASURED
            row["reason"] = "managed destination (not measured in docs/semantics.md); " + why
        out["accesses"][ident] = row
    for ident, c in cop.items():
        if not c["hits"]:
            out["copies"][ident] = {"verdict": UNREACHED, "reason": "no execution reaches it"}
        elif c["early"]:
            out["copies"][ident] = {"verdict": "early", "reason": c["early"]}
        else:
            out["copies"][ident] = {"verdict": ORDERED, "reason": c["ordered"]}
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description="The ordering model's verdicts on a generated "
                                             "program (runtime/gen/).")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--seed", type=int, help="the program of this seed")
    g.add_argument("--json", metavar="FILE", help="an AST saved as JSON")
    ap.add_argument("--size", type=int, default=G.DEFAULT_SIZE)
    ap.add_argument("--strict", action="store_true",
                    help="StrictMode: pageable device-to-host copies stay asynchronous")
    ap.add_argument("--gpu", action="store_true",
                    help="only the execution the GPU runs (the runtime ints' own values)")
    ap.add_argument("--include-managed", action="store_true")
    ap.add_argument("--eager-legacy", action="store_true",
                    help="the other reading of the legacy-stream rule: a host sync of a blocking "
                         "stream also covers earlier stream-0 work (contradicted on an H100)")
    args = ap.parse_args(argv)
    try:
        if args.json:
            with open(args.json, encoding="utf-8") as f:
                prog = json.load(f)
        else:
            prog = G.generate(args.seed, args.size)
        v = verdicts(prog, args.strict, "gpu" if args.gpu else None, args.include_managed,
                     args.eager_legacy)
    except (ValueError, OSError, KeyError, TypeError, AttributeError) as e:
        print("model.py: error: %s" % e, file=sys.stderr)
        return 2
    for ident, a in v["accesses"].items():
        print("%-5s %-6s %-15s %s" % (ident, a["op"], a["verdict"], a["reason"]))
        if a["value_reason"] and a["value_reason"] != a["reason"]:
            print("      value: %s" % a["value_reason"])
    for ident, c in v["copies"].items():
        print("%-5s copy   %-15s %s" % (ident, c["verdict"], c["reason"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
