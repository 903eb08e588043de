#!/usr/bin/env python3
"""Self-tests of the ordering model (model.py) on hand-written programs.

Holds: small ASTs in the grammar of generate.py, one per measured row of
docs/semantics.md (and a few of runtime/cases that extend them, and two
generated programs measured on an H100), each with the verdict measured; and the checks that the generator is
deterministic, that rendering a program and reducing it keep it valid, that
the PyTorch rendering stays in its subset and compiles, and that bad input
gives a message, not a traceback.
May call: generate.py, model.py, render.py, render_torch.py, reduce.py. Python 3 standard
library only. Exit status 0 when every test passes, 1 otherwise.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate as G  # noqa: E402
import model as M  # noqa: E402
import reduce as R  # noqa: E402
import render  # noqa: E402
import render_torch as RT  # noqa: E402

S, O, U, E = M.STALE, M.ORDERED, M.UNREACHED, "early"


def prog(body, streams=("blocking",), hosts=("pinned",), events=0, rvars=0, devs=1):
    names = {"legacy": "s0", "per_thread": "spt"}
    st, made = [], 0
    for k in streams:
        if k in names:
            st.append({"name": names[k], "kind": k})
        else:
            made += 1
            st.append({"name": "s%d" % made, "kind": k})
    return {"seed": 0, "size": 0,
            "hosts": [{"name": "h%d" % i, "kind": k} for i, k in enumerate(hosts)],
            "devs": [{"name": "d%d" % i} for i in range(devs)],
            "streams": st,
            "events": [{"name": "e%d" % i, "flags": "default"} for i in range(events)],
            "rvars": [{"name": "r%d" % i, "value": 1} for i in range(rvars)],
            "body": body}


def produce(s="s1", d="d0"):
    return {"op": "produce", "dev": d, "stream": s}


def copy(s="s1", h="h0", d="d0", i="c1"):
    return {"op": "copy", "host": h, "dev": d, "stream": s, "id": i}


def read(h="h0", i="a1"):
    return {"op": "read", "host": h, "id": i}


def op(name, **kw):
    return dict({"op": name}, **kw)


# (name, program, {id: verdict}, strict)
CASES = [
    ("SM pinned dst, read right after the copy: 5/5",
     prog([produce(), copy(), read()]), {"a1": S}, False),
    ("SM pinned dst, cudaStreamSynchronize(s) before the read: 0/5",
     prog([produce(), copy(), op("stream_sync", stream="s1"), read()]), {"a1": O}, False),
    ("SM pageable dst, no sync: 0/5 (the call returned after the copy)",
     prog([produce(), copy(), read()], hosts=("pageable",)), {"a1": O}, False),
    ("StrictMode: pageable dst, no sync: asynchronous as documented",
     prog([produce(), copy(), read()], hosts=("pageable",)), {"a1": S}, True),
    ("SM cudaHostRegister'ed dst, no sync: 5/5",
     prog([produce(), copy(), read()], hosts=("registered",)), {"a1": S}, False),
    ("SM cudaStreamSynchronize(other stream): 5/5",
     prog([produce(), copy(), op("stream_sync", stream="s2"), read()],
          streams=("blocking", "blocking")), {"a1": S}, False),
    ("SM cudaEventRecord after the copy, cudaEventSynchronize: 0/5",
     prog([produce(), copy(), op("record", event="e0", stream="s1"),
           op("event_sync", event="e0"), read()], events=1), {"a1": O}, False),
    ("SM cudaEventRecord before the copy, cudaEventSynchronize: 5/5",
     prog([op("record", event="e0", stream="s1"), produce(), copy(),
           op("event_sync", event="e0"), read()], events=1), {"a1": S}, False),
    ("SM cudaStreamWaitEvent(other, e) only: 5/5",
     prog([produce(), copy(), op("record", event="e0", stream="s1"),
           op("wait_event", stream="s2", event="e0"), read()],
          streams=("blocking", "blocking"), events=1), {"a1": S}, False),
    ("case wait_event_then_sync_other: the wait, then other synchronized: 0/5",
     prog([produce(), copy(), op("record", event="e0", stream="s1"),
           op("wait_event", stream="s2", event="e0"), op("stream_sync", stream="s2"), read()],
          streams=("blocking", "blocking"), events=1), {"a1": O}, False),
    ("SM cudaDeviceSynchronize(): 0/5",
     prog([produce(), copy(), op("device_sync"), read()]), {"a1": O}, False),
    ("SM while (cudaStreamQuery(s) == cudaErrorNotReady) {}: 0/5",
     prog([produce(), copy(), op("stream_poll", stream="s1"), read()]), {"a1": O}, False),
    ("case query_once: one ignored query",
     prog([produce(), copy(), op("query_once", stream="s1"), read()]), {"a1": S}, False),
    ("SM s blocking, cudaStreamSynchronize(0): 0/5",
     prog([produce(), copy(), op("stream_sync", stream="s0"), read()],
          streams=("blocking", "legacy")), {"a1": O}, False),
    ("SM s non-blocking, cudaStreamSynchronize(0): 5/5",
     prog([produce(), copy(), op("stream_sync", stream="s0"), read()],
          streams=("nonblocking", "legacy")), {"a1": S}, False),
    ("gen H100: copy on stream 0, then cudaStreamSynchronize(blocking s): 3/3 (seed 1460)",
     prog([produce("s0"), copy("s0"), op("stream_sync", stream="s1"), read()],
          streams=("blocking", "legacy")), {"a1": S}, False),
    ("gen H100: copy on stream 0, event recorded on blocking s, synchronized: 0/3 (seed 704)",
     prog([produce("s0"), copy("s0"), op("record", event="e0", stream="s1"),
           op("event_sync", event="e0"), read()], streams=("blocking", "legacy"), events=1),
     {"a1": O}, False),
    ("SM copy on stream 0, no sync: 5/5",
     prog([produce("s0"), copy("s0"), read()], streams=("legacy",)), {"a1": S}, False),
    ("SM s blocking, a blocking cudaMemcpy of another buffer: 0/5",
     prog([produce(), copy(), op("copy_blocking", host="h1", dev="d1", id="c2"), read()],
          hosts=("pinned", "pinned"), devs=2), {"a1": O}, False),
    ("SM s non-blocking, a blocking cudaMemcpy of another buffer: 5/5",
     prog([produce(), copy(), op("copy_blocking", host="h1", dev="d1", id="c2"), read()],
          streams=("nonblocking",), hosts=("pinned", "pinned"), devs=2), {"a1": S}, False),
    ("SM host WRITES dst after the copy, then syncs: lost 5/5",
     prog([produce(), copy(), op("write", host="h0", id="a1"), op("stream_sync", stream="s1")]),
     {"a1": S}, False),
    ("case blocking_memset_pinned: blocking s 0/10",
     prog([produce(), copy(), op("memset_pinned"), read()]), {"a1": O}, False),
    ("case blocking_memset_pinned_nonblocking: 10/10",
     prog([produce(), copy(), op("memset_pinned"), read()], streams=("nonblocking",)),
     {"a1": S}, False),
    ("case blocking_memset_device: not a host sync",
     prog([produce(), copy(), op("memset_dev", dev="d1"), read()], devs=2), {"a1": S}, False),
    ("case loop_next_iteration: the previous step's copy read at the top",
     prog([op("loop", bound={"kind": "const", "n": 3},
              body=[read(), produce(), copy()])]), {"a1": S}, False),
    ("a constant loop of one iteration: no earlier copy",
     prog([op("loop", bound={"kind": "const", "n": 1},
              body=[read(), produce(), copy()])]), {"a1": O}, False),
    ("case sync_on_one_branch: runtime branch, sync on one side",
     prog([produce(), copy(), op("if", cond={"kind": "runtime", "var": "r0", "form": "gt0"},
                                  then=[op("stream_sync", stream="s1")], **{"else": []}), read()],
          rvars=1), {"a1": S}, False),
    ("correlated runtime branches: copy and sync under the same condition",
     prog([op("if", cond={"kind": "runtime", "var": "r0", "form": "truth"},
              then=[produce(), copy()], **{"else": []}),
           op("if", cond={"kind": "runtime", "var": "r0", "form": "ne0"},
              then=[op("stream_sync", stream="s1")], **{"else": []}), read()], rvars=1),
     {"a1": O}, False),
    ("a runtime loop bound: 0, 1 or 2 iterations",
     prog([op("loop", bound={"kind": "runtime", "var": "r0"}, body=[produce(), copy()]), read()],
          rvars=1), {"a1": S}, False),
    ("if (false): unreached",
     prog([produce(), copy(), op("if", cond={"kind": "const", "value": False, "form": "literal"},
                                  then=[read()], **{"else": []})]), {"a1": U}, False),
    ("managed destination: not measured",
     prog([produce(), copy(), read()], hosts=("managed",)), {"a1": M.UNMEASURED}, False),
    ("producer: the copy on s2 before the kernel on s1 (copy_other_stream_no_wait 10/10)",
     prog([produce("s1"), copy("s2"), op("stream_sync", stream="s2"), read()],
          streams=("blocking", "blocking")), {"c1": E, "a1": O}, False),
    ("producer: an event wait orders it (copy_other_stream_event_wait 0/10)",
     prog([produce("s1"), op("record", event="e0", stream="s1"),
           op("wait_event", stream="s2", event="e0"), copy("s2")],
          streams=("blocking", "blocking"), events=1), {"c1": O}, False),
    ("producer: copy on stream 0 after a non-blocking kernel (copy_legacy_after_nonblocking)",
     prog([produce("s1"), copy("s0")], streams=("nonblocking", "legacy")), {"c1": E}, False),
    ("producer: copy on stream 0 after a blocking kernel (copy_legacy_after_blocking)",
     prog([produce("s1"), copy("s0")], streams=("blocking", "legacy")), {"c1": O}, False),
    ("producer: legacy work joins blocking streams (legacy_work_joins_blocking 0/10)",
     prog([produce("s1"), op("memset_dev", dev="d1"), copy("s2")],
          streams=("blocking", "blocking"), devs=2), {"c1": O}, False),
    ("producer: non-blocking streams (legacy_work_nonblocking_streams 10/10)",
     prog([produce("s1"), op("memset_dev", dev="d1"), copy("s2")],
          streams=("nonblocking", "nonblocking"), devs=2), {"c1": E}, False),
    ("producer: blocking copy after a non-blocking kernel (blocking_copy_after_nonblocking)",
     prog([produce("s1"), op("copy_blocking", host="h0", dev="d0", id="c1")],
          streams=("nonblocking",)), {"c1": E}, False),
]


def test_model():
    bad = 0
    for name, p, want, strict in CASES:
        v = M.verdicts(p, strict=strict)
        got = {}
        for i in want:
            got[i] = (v["accesses"].get(i) or v["copies"].get(i))["verdict"]
        ok = got == want
        bad += not ok
        print("%s model: %s%s" % ("ok  " if ok else "FAIL", name,
                                  "" if ok else "  want %s got %s" % (want, got)))
    return bad


def test_generator():
    bad = 0
    a = [G.generate(s) for s in range(40)]
    b = [G.generate(s) for s in range(40)]
    if a != b:
        print("FAIL generator: not deterministic")
        bad += 1
    for p in a:
        try:
            G.validate(p)
            render.render_unit([p])
            M.verdicts(p)
            for _, q in R.candidates(p, set())[:8]:
                G.validate(q)
                render.render_unit([q])
                M.verdicts(q)
        except Exception as e:  # noqa: BLE001  (a test: report any failure)
            print("FAIL generator/reducer on seed %s: %r" % (p["seed"], e))
            bad += 1
    unit = render.render_unit(a[10:15])
    if len(unit.spans) != 5 or "GEN_MAIN({10L, scenario_10}, {11L," not in unit.text:
        print("FAIL render: a batch of 5 scenarios, run by seed")
        bad += 1
    print("%s generator: deterministic, every candidate of the reducer renders"
          % ("ok  " if not bad else "FAIL"))
    return bad


def test_torch_rendering():
    """The PyTorch subset: to_torch() is idempotent, leaves only what
    PyTorch has, and every program's module compiles."""
    bad = 0
    progs = [G.generate(s) for s in range(200)]
    for p in progs:
        q = RT.to_torch(p)
        kinds = {h["kind"] for h in q["hosts"]} | {st["kind"] for st in q["streams"]}
        ops = {s["op"] for s, _ in G.walk(q["body"])}
        if RT.to_torch(q) != q or kinds - {"pinned", "pageable", "legacy", "nonblocking"} \
                or "memset_pinned" in ops:
            print("FAIL torch rendering: seed %s is not in the PyTorch subset" % p["seed"])
            bad += 1
    text = RT.render_module(progs).text
    try:
        compile(text, "<generated torch module>", "exec")
    except SyntaxError as e:
        print("FAIL torch rendering: the module does not compile: %s" % e)
        bad += 1
    print("%s torch rendering: 200 programs in the PyTorch subset, their module compiles"
          % ("ok  " if not bad else "FAIL"))
    return bad


def test_bad_input():
    bad = 0
    py = sys.executable
    for args in (["generate.py", "--seed", "-3"], ["generate.py", "--seed", "x"],
                 ["generate.py", "--seeds", "5:2"], ["model.py", "--json", "/nonexistent"],
                 ["compare.py", "--seeds", "0:2", "--plugin", "/nonexistent.so"]):
        p = subprocess.run([py, os.path.join(HERE, args[0])] + args[1:],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        ok = p.returncode == 2 and "Traceback" not in p.stderr and "error" in p.stderr
        bad += not ok
        print("%s bad input: %s -> %d %s" % ("ok  " if ok else "FAIL", " ".join(args),
                                            p.returncode, p.stderr.strip().splitlines()[-1:]))
    return bad


def main():
    bad = test_model() + test_generator() + test_torch_rendering() + test_bad_input()
    print("selftest: %s" % ("all passed" if not bad else "%d failed" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
