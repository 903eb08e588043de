#!/usr/bin/env python3
"""The seeded grammar of generated CUDA host scenarios (runtime/gen/).

Holds: the program AST (plain dicts and lists, JSON as is), the grammar
that draws one program from an integer seed, the AST walks the model and
the reducer share, and the command line that prints a program or a batch.
May call: render.py (AST -> CUDA C++ on runtime/rt.h and gen.h). Python 3
standard library only.

A program is a dict:
  seed, size            the seed it was drawn from, the size bound
  hosts   [{name, kind}]      host destinations: pinned (cudaMallocHost),
                              pageable (malloc), registered
                              (malloc + cudaHostRegister), managed
                              (cudaMallocManaged)
  devs    [{name}]            device buffers (cudaMalloc)
  streams [{name, kind}]      legacy (0), per_thread (cudaStreamPerThread),
                              blocking (cudaStreamCreate), nonblocking
                              (cudaStreamCreateWithFlags(.., cudaStreamNonBlocking))
  events  [{name, flags}]     default (cudaEventCreate) / disable_timing
  rvars   [{name, value}]     runtime ints (gen::rt_int(value)): the check
                              cannot know them, the GPU run has `value`
  body    [stmt]
A statement is a dict with "op" (STMT_OPS below); compound ones hold lists:
`if` (then, else), `loop` (body), `call` (a static helper: body), `lambda`
(body, calls). Deleting any statement, or replacing a compound statement
by one of its lists, leaves a valid program: that is what the reducer does.
"""

import argparse
import json
import os
import sys

HOST_KINDS = ("pinned", "pageable", "registered", "managed")
STREAM_KINDS = ("legacy", "per_thread", "blocking", "nonblocking")
EVENT_FLAGS = ("default", "disable_timing")
COND_FORMS = ("truth", "not", "eq1", "ne0", "gt0")

# op -> (fields naming resources, one-line description)
STMT_OPS = {
    "produce": "rt::produce(d, n, s, gen): the 30 ms delay kernel on s, then d := generation gen",
    "delay": "gen::spin<<<1, 1, 0, s>>>(gen::kSpinNs): 10 ms of device work on s writing nothing",
    "upload": "cudaMemcpyAsync(d, up, .., cudaMemcpyHostToDevice, s) from the pinned upload buffer",
    "upload_blocking": "cudaMemcpy(d, up, .., cudaMemcpyHostToDevice)",
    "memset_dev": "cudaMemset(d, 0, ..) of device memory (not a host sync)",
    "memset_pinned": "cudaMemset(scratch, 0, ..) of pinned host memory (a host sync)",
    "copy": "cudaMemcpyAsync(h, d, .., cudaMemcpyDeviceToHost, s)",
    "copy_blocking": "cudaMemcpy(h, d, .., cudaMemcpyDeviceToHost)",
    "stream_sync": "cudaStreamSynchronize(s)",
    "device_sync": "cudaDeviceSynchronize()",
    "record": "cudaEventRecord(e, s)",
    "event_sync": "cudaEventSynchronize(e)",
    "wait_event": "cudaStreamWaitEvent(s, e, 0)",
    "stream_poll": "while (cudaStreamQuery(s) == cudaErrorNotReady) {}",
    "event_poll": "while (cudaEventQuery(e) == cudaErrorNotReady) {}",
    "query_once": "(void)cudaStreamQuery(s): one query, result ignored",
    "read": "float v = h[0]; // access",
    "write": "h[0] = value; // access",
    "if": "if (cond) { then } else { else }",
    "loop": "for (int i = 0; i < bound; ++i) { body }",
    "call": "a static helper taking the buffers, created streams and events it uses as "
            "parameters (pass_handles: stream 0 and cudaStreamPerThread too)",
    "lambda": "auto l = [&]() { body }; l(); (called 1 or 2 times; capture handles: "
              "[&, s1, e0], created streams and events by value)",
}
# Statements allowed in helpers and lambdas (no control flow, no nesting).
# Helpers take no produce/upload (the generation counter stays the caller's).
HELPER_OPS = ("delay", "copy", "copy_blocking", "stream_sync", "device_sync", "record", "event_sync",
              "wait_event", "stream_poll", "event_poll", "query_once", "read", "write")
LAMBDA_OPS = HELPER_OPS + ("produce",)


class Rng:
    """A seeded generator whose draws are the same on every Python 3
    (random.Random(int).random() is; choice() and randrange() changed)."""

    def __init__(self, seed):
        import random
        self._r = random.Random(seed)

    def unit(self):
        return self._r.random()

    def below(self, n):
        return min(n - 1, int(self._r.random() * n))

    def chance(self, p):
        return self._r.random() < p

    def pick(self, items):
        return items[self.below(len(items))]

    def weighted(self, table):
        """table: [(weight, value)]."""
        total = sum(w for w, _ in table)
        x = self._r.random() * total
        for w, v in table:
            x -= w
            if x < 0:
                return v
        return table[-1][1]


# ---------------------------------------------------------------------------
# Walks

def children(stmt):
    """The statement lists inside a compound statement, by key."""
    return [k for k in ("then", "else", "body") if k in stmt]


def walk(stmts, depth=0):
    """Every statement, pre-order, with its nesting depth."""
    for s in stmts:
        yield s, depth
        for k in children(s):
            yield from walk(s[k], depth + 1)


def ids_of(stmts, op_kinds=("read", "write")):
    return [s["id"] for s, _ in walk(stmts) if s["op"] in op_kinds and "id" in s]


def used_resources(prog):
    """{"hosts": set, "devs": set, "streams": set, "events": set, "rvars": set}
    named by the body (what the renderer declares)."""
    used = {"hosts": set(), "devs": set(), "streams": set(), "events": set(), "rvars": set()}
    for s, _ in walk(prog["body"]):
        for field, kind in (("host", "hosts"), ("dev", "devs"), ("stream", "streams"),
                            ("event", "events")):
            if field in s:
                used[kind].add(s[field])
        for key in ("cond", "bound"):
            if key in s and s[key].get("var"):
                used["rvars"].add(s[key]["var"])
    return used


def stream_kind(prog, name):
    for st in prog["streams"]:
        if st["name"] == name:
            return st["kind"]
    raise KeyError(name)


def host_kind(prog, name):
    for h in prog["hosts"]:
        if h["name"] == name:
            return h["kind"]
    raise KeyError(name)


def count_stmts(stmts):
    return sum(1 for _ in walk(stmts))


def validate(prog):
    """Raises ValueError where the program names what it does not declare
    (a hand-written or edited AST)."""
    if not isinstance(prog, dict) or not isinstance(prog.get("body"), list):
        raise ValueError("a program is a JSON object with a \"body\" list (generate.py --ast "
                         "prints one)")
    names = {k: {r["name"] for r in prog.get(k, [])}
             for k in ("hosts", "devs", "streams", "events", "rvars")}
    seen = set()
    for s, depth in walk(prog.get("body", [])):
        op = s.get("op")
        if op not in STMT_OPS:
            raise ValueError("unknown statement op %r" % (op,))
        for field, kind in (("host", "hosts"), ("dev", "devs"), ("stream", "streams"),
                            ("event", "events")):
            if field in s and s[field] not in names[kind]:
                raise ValueError("%s names undeclared %s %r" % (op, field, s[field]))
        for key in ("cond", "bound"):
            var = s.get(key, {}).get("var")
            if var and var not in names["rvars"]:
                raise ValueError("%s names undeclared runtime int %r" % (op, var))
        if "id" in s:
            if s["id"] in seen and op in ("read", "write", "copy", "copy_blocking"):
                raise ValueError("duplicate id %r" % s["id"])
            seen.add(s["id"])
        if op in ("call", "lambda"):
            allowed = HELPER_OPS if op == "call" else LAMBDA_OPS
            for inner in s["body"]:
                if inner["op"] not in allowed:
                    raise ValueError("%s may not hold %s" % (op, inner["op"]))
            if op == "call" and sum(1 for x in s["body"] if x["op"] == "read") > 1:
                raise ValueError("a helper holds at most one read")


# ---------------------------------------------------------------------------
# The grammar

class Grammar:
    def __init__(self, seed, size):
        self.r = Rng(seed)
        self.seed = seed
        self.size = size
        self.next_id = {"a": 0, "c": 0}
        self.helpers = 0

    def fresh_id(self, prefix):
        self.next_id[prefix] += 1
        return "%s%d" % (prefix, self.next_id[prefix])

    def resources(self):
        r = self.r
        kinds = []
        for _ in range(1 + r.below(3)):
            k = r.weighted([(3, "blocking"), (3, "nonblocking"), (2, "legacy"), (1, "per_thread")])
            if k in ("legacy", "per_thread") and k in kinds:
                k = "blocking"
            kinds.append(k)
        streams, made = [], 0
        for k in kinds:
            if k == "legacy":
                streams.append({"name": "s0", "kind": k})
            elif k == "per_thread":
                streams.append({"name": "spt", "kind": k})
            else:
                made += 1
                streams.append({"name": "s%d" % made, "kind": k})
        hosts = [{"name": "h%d" % i,
                  "kind": r.weighted([(6, "pinned"), (2, "pageable"), (2, "registered"),
                                      (1, "managed")])}
                 for i in range(1 + (1 if r.chance(0.35) else 0))]
        devs = [{"name": "d%d" % i} for i in range(1 + (1 if r.chance(0.3) else 0))]
        events = [{"name": "e%d" % i, "flags": r.pick(EVENT_FLAGS)}
                  for i in range(r.weighted([(2, 0), (4, 1), (2, 2)]))]
        rvars = [{"name": "r%d" % i, "value": r.pick([0, 1, 1, 2])}
                 for i in range(r.weighted([(3, 0), (4, 1), (2, 2)]))]
        return hosts, devs, streams, events, rvars

    # -- leaves -------------------------------------------------------------
    def stream(self):
        return self.r.pick(self.streams)["name"]

    def staged_copy(self, blocking=False):
        """A producer of d, then the copy of d into h: what makes the copy's
        result tell stale from fresh on the GPU."""
        r = self.r
        d = r.pick(self.devs)["name"]
        h = r.pick(self.hosts)["name"]
        s = self.stream()
        out = []
        ps = s if (not blocking and r.chance(0.7)) else self.stream()
        producer = r.weighted([(8, "produce"), (1, "upload"), (1, "memset_dev")])
        if producer == "produce":
            out.append({"op": "produce", "dev": d, "stream": ps})
        elif producer == "upload":
            out.append({"op": "upload", "dev": d, "stream": ps})
        else:
            out.append({"op": "memset_dev", "dev": d})
            ps = None
        if not blocking and ps != s:
            out.append({"op": "delay", "stream": s})
        if blocking:
            out.append({"op": "copy_blocking", "host": h, "dev": d, "id": self.fresh_id("c")})
        else:
            out.append({"op": "copy", "host": h, "dev": d, "stream": s, "id": self.fresh_id("c")})
        return out

    def sync(self):
        r = self.r
        ev = self.events
        table = [(4, "stream_sync"), (1, "device_sync"), (1, "stream_poll"), (1, "query_once"),
                 (1, "memset_pinned"), (1, "upload_blocking")]
        if ev:
            table += [(3, "event_pair"), (2, "wait_pair"), (1, "event_poll_pair"),
                      (1, "record"), (1, "event_sync")]
        k = r.weighted(table)
        if k in ("stream_sync", "stream_poll", "query_once"):
            return [{"op": k, "stream": self.stream()}]
        if k == "device_sync" or k == "memset_pinned":
            return [{"op": k}]
        if k == "upload_blocking":
            return [{"op": k, "dev": r.pick(self.devs)["name"]}]
        e = r.pick(ev)["name"]
        if k == "record":
            return [{"op": "record", "event": e, "stream": self.stream()}]
        if k == "event_sync":
            return [{"op": "event_sync", "event": e}]
        rec = {"op": "record", "event": e, "stream": self.stream()}
        if k == "event_pair":
            return [rec, {"op": "event_sync", "event": e}]
        if k == "event_poll_pair":
            return [rec, {"op": "event_poll", "event": e}]
        out = [rec, {"op": "wait_event", "stream": self.stream(), "event": e}]
        if r.chance(0.6):
            out.append({"op": "stream_sync", "stream": out[1]["stream"]})
        return out

    def access(self):
        h = self.r.pick(self.hosts)["name"]
        op = "write" if self.r.chance(0.2) else "read"
        return [{"op": op, "host": h, "id": self.fresh_id("a")}]

    def simple(self, ops, reads_left):
        """One statement of a helper or lambda body."""
        r = self.r
        while True:
            k = r.weighted([(4, "copy"), (3, "sync"), (3, "read"), (1, "write"), (1, "produce"),
                            (1, "copy_blocking")])
            if k == "read" and reads_left <= 0:
                continue
            if k == "produce" and "produce" not in ops:
                continue
            break
        if k == "copy":
            return [x for x in self.staged_copy() if x["op"] in ops]
        if k == "copy_blocking":
            return [x for x in self.staged_copy(blocking=True) if x["op"] in ops]
        if k == "produce":
            return [{"op": "produce", "dev": r.pick(self.devs)["name"], "stream": self.stream()}]
        if k == "sync":
            return [x for x in self.sync() if x["op"] in ops]
        return [{"op": k, "host": r.pick(self.hosts)["name"], "id": self.fresh_id("a")}]

    def small_body(self, ops, n):
        body, reads = [], 1
        while len(body) < n:
            got = self.simple(ops, reads)
            reads -= sum(1 for x in got if x["op"] == "read")
            body += got
        return body

    # -- blocks -------------------------------------------------------------
    def cond(self):
        r = self.r
        if self.rvars and r.chance(0.75):
            return {"kind": "runtime", "var": r.pick(self.rvars)["name"], "form": r.pick(COND_FORMS)}
        return {"kind": "const", "value": r.chance(0.6), "form": r.pick(["literal", "local"])}

    def block(self, budget, depth):
        r = self.r
        out = []
        while budget > 0:
            table = [(6, "copy"), (1, "copy_blocking"), (5, "sync"), (6, "access"), (1, "call"),
                     (1, "lambda")]
            if depth < 2:
                table += [(2, "if"), (2, "loop")]
            k = r.weighted(table)
            if k == "copy":
                got = self.staged_copy()
            elif k == "copy_blocking":
                got = self.staged_copy(blocking=True)
            elif k == "sync":
                got = self.sync()
            elif k == "access":
                got = self.access()
            elif k == "call":
                got = [{"op": "call", "body": self.small_body(HELPER_OPS, 1 + r.below(3)),
                        "pass_handles": r.chance(0.4)}]
            elif k == "lambda":
                got = [{"op": "lambda", "body": self.small_body(LAMBDA_OPS, 1 + r.below(3)),
                        "calls": 1 + (1 if r.chance(0.3) else 0),
                        "capture": "handles" if r.chance(0.5) else "ref"}]
            elif k == "if":
                n = 1 + r.below(max(1, min(4, budget)))
                got = [{"op": "if", "cond": self.cond(), "then": self.block(n, depth + 1),
                        "else": self.block(1 + r.below(2), depth + 1) if r.chance(0.4) else []}]
            else:
                if self.rvars and r.chance(0.5):
                    bound = {"kind": "runtime", "var": r.pick(self.rvars)["name"]}
                else:
                    bound = {"kind": "const", "n": 1 + r.below(3)}
                n = 1 + r.below(max(1, min(4, budget)))
                got = [{"op": "loop", "bound": bound, "body": self.block(n, depth + 1)}]
            out += got
            budget -= count_stmts(got)
        return out

    def program(self):
        hosts, devs, streams, events, rvars = self.resources()
        self.hosts, self.devs, self.streams, self.events, self.rvars = (
            hosts, devs, streams, events, rvars)
        body = self.block(self.size, 0)
        kinds = {s["op"] for s, _ in walk(body)}
        if not kinds & {"copy", "copy_blocking"}:
            body = self.staged_copy() + body
        if not kinds & {"read", "write"}:
            body.append({"op": "read", "host": body[-1].get("host", hosts[0]["name"])
                         if body[-1]["op"] == "copy" else hosts[0]["name"],
                         "id": self.fresh_id("a")})
        return {"seed": self.seed, "size": self.size, "hosts": hosts, "devs": devs,
                "streams": streams, "events": events, "rvars": rvars, "body": body}


DEFAULT_SIZE = 10


def generate(seed, size=DEFAULT_SIZE):
    """The program of `seed` (an int >= 0); the same on every run."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError("the seed must be an integer >= 0, not %r" % (seed,))
    if not isinstance(size, int) or size < 1 or size > 200:
        raise ValueError("the size bound must be an integer from 1 to 200, not %r" % (size,))
    prog = Grammar(seed, size).program()
    validate(prog)
    return prog


# ---------------------------------------------------------------------------
# Command line

def parse_seeds(text):
    """"N", "A:B" (A..B-1), "A-B" (A..B inclusive), or a comma-separated list
    of these."""
    seeds = []
    for item in str(text).split(","):
        item = item.strip()
        try:
            if ":" in item:
                a, b = item.split(":", 1)
                got = list(range(int(a), int(b)))
            elif "-" in item.strip("-"):
                a, b = item.split("-", 1)
                got = list(range(int(a), int(b) + 1))
            else:
                got = [int(item)]
        except ValueError:
            raise ValueError("not a seed or a seed range: %r (N, A:B, A-B, or a list of them "
                             "separated by commas)" % item)
        if not got or min(got) < 0:
            raise ValueError("empty or negative seed range: %r" % item)
        seeds += got
    seen = set()
    return [x for x in seeds if not (x in seen or seen.add(x))]


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    import render
    ap = argparse.ArgumentParser(
        description="Print a generated CUDA scenario (runtime/gen/): one program for --seed, "
                    "or many scenarios in one translation unit for --seeds.")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--seed", help="one seed: a complete program running scenario_<seed>")
    g.add_argument("--seeds", help="a range A:B (B excluded), A-B, or a comma-separated list: "
                                   "one translation unit, run one with `prog -s SEED`")
    g.add_argument("--from-json", metavar="FILE", help="render an AST saved as JSON")
    ap.add_argument("--size", type=int, default=DEFAULT_SIZE,
                    help="the size bound: statements per program (default %d)" % DEFAULT_SIZE)
    ap.add_argument("--ast", action="store_true", help="print the AST as JSON instead of C++")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    args = ap.parse_args(argv)
    try:
        if args.from_json:
            with open(args.from_json, encoding="utf-8") as f:
                progs = [json.load(f)]
            for p in progs:
                validate(p)
        else:
            seeds = parse_seeds(args.seed if args.seed is not None else args.seeds)
            if args.seed is not None and len(seeds) != 1:
                raise ValueError("--seed takes one seed; use --seeds for a range")
            progs = [generate(s, args.size) for s in seeds]
    except json.JSONDecodeError as e:
        print("generate.py: error: %s is not JSON: %s" % (args.from_json, e), file=sys.stderr)
        return 2
    except (ValueError, OSError, KeyError, TypeError, AttributeError) as e:
        print("generate.py: error: %s" % e, file=sys.stderr)
        return 2
    if args.ast:
        text = json.dumps(progs[0] if len(progs) == 1 else progs, indent=1) + "\n"
    else:
        text = render.render_unit(progs).text
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
