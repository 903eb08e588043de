"""Generated program AST -> CUDA C++ on runtime/rt.h and runtime/gen/gen.h.

Holds: the printer of one scenario (`static void scenario_<tag>()` and its
helpers `scenario_<tag>_helper<k>`), of a translation unit holding many
scenarios with a GEN_MAIN table (run one with `prog -s KEY`), and the map
from each line to the marked accesses and copies on it, which compare.py
matches the check's warnings against.
May call: generate.py (AST walks). Python 3 standard library only.

What the GPU sees (gen.h): each host destination is primed with the sentinel
and each device buffer with the sentinel before the body; every producer
writes a new generation (a runtime counter `gk`); after every copy the
program notes, in plain host variables the check does not look at, what
element 0 of the destination holds in program order (`ex_<h>`) and which
marked write was the last to touch it (`lw_<h>`). A marked read hands the
value it read, on later lines, to plain tallies (gen::hits, gen::seen: no
call, see gen.h) against `ex_<h>`, flushed into rt.h's records after the
final cudaDeviceSynchronize; a marked write is observed there too when it was
the last to touch its buffer.
"""

import generate as G

SLOTS = 256  # gen.h's kSlots
STREAM_EXPR = {"legacy": "0", "per_thread": "cudaStreamPerThread"}


class Unit:
    """text: the translation unit; lines: {line: [(tag, "access"|"copy", id,
    key)]} (key: the host buffer accessed; "<device buffer> <stream>" copied);
    keys: {tag: the GEN_MAIN key that runs it}; spans: {tag: (first line,
    last line)} of its scenario and helpers."""

    def __init__(self, text, lines, keys, spans):
        self.text = text
        self.lines = lines
        self.keys = keys
        self.spans = spans

    def tag_of_line(self, line):
        for tag, (a, b) in self.spans.items():
            if a <= line <= b:
                return tag
        return None


class _Out:
    def __init__(self):
        self.rows = []    # (text, [(kind, id)])

    def emit(self, text, marks=()):
        self.rows.append((text, list(marks)))


def _num(ident):
    return int(ident[1:])


class ScenarioPrinter:
    """One scenario (`static void scenario_<tag>()`) and its helpers, as
    CUDA C++. render_torch.TorchPrinter prints the same in PyTorch: what
    does not depend on the language is here, for both."""
    # How a condition is spelled: true, false, not x, a constant local.
    TRUE, FALSE, NOT, CONST_LOCAL = "true", "false", "!", "const bool %s = %s;"

    def __init__(self, prog, tag):
        self.p = prog
        self.tag = str(tag)
        self.kinds = {s["name"]: s["kind"] for s in prog["streams"]}
        self.helpers = []       # [_Out]
        self.lambdas = 0
        self.locals = 0
        self.param_streams = set()

    def gid(self, ident):
        return "s%s_%s" % (self.tag, ident)

    def sx(self, name):
        if name in self.param_streams:
            return name  # a helper's parameter (the caller passes 0 or the handle)
        return STREAM_EXPR.get(self.kinds[name], name)

    # -- statements -----------------------------------------------------------
    def book_copy(self, out, ind, s):
        out.emit(ind + "ex_%s = gen::value_of(g%s);" % (s["host"], s["dev"]))
        out.emit(ind + "lw_%s = nullptr;" % s["host"])

    def book_write(self, out, ind, s):
        out.emit(ind + "ex_%s = %d.0f;" % (s["host"], 1000 + _num(s["id"])))
        out.emit(ind + 'lw_%s = "%s";' % (s["host"], self.gid(s["id"])))

    def tally(self, out, ind, s, v):
        k = _num(s["id"])
        if k >= SLOTS:
            raise ValueError("access %s: gen.h tallies at most %d accesses" % (s["id"], SLOTS))
        out.emit(ind + "gen::hits[%d] += %s == ex_%s;" % (k, v, s["host"]))
        out.emit(ind + "gen::seen[%d] += 1;" % k)

    def stmt(self, out, ind, s, books=True):
        """One statement; books=False inside a helper (the caller keeps the
        books after the call)."""
        op = s["op"]
        if op == "produce":
            if books:
                out.emit(ind + "g%s = ++gk;" % s["dev"])
                out.emit(ind + "rt::produce(%s, rt::kElems, %s, g%s);"
                         % (s["dev"], self.sx(s["stream"]), s["dev"]))
            else:
                out.emit(ind + "rt::produce(%s, rt::kElems, %s);" % (s["dev"], self.sx(s["stream"])))
        elif op == "delay":
            out.emit(ind + "gen::spin<<<1, 1, 0, %s>>>(gen::kSpinNs);" % self.sx(s["stream"]))
        elif op == "upload":
            out.emit(ind + "cudaMemcpyAsync(%s, up, rt::kBytes, cudaMemcpyHostToDevice, %s);"
                     % (s["dev"], self.sx(s["stream"])))
            if books:
                out.emit(ind + "g%s = -3;" % s["dev"])
        elif op == "upload_blocking":
            out.emit(ind + "cudaMemcpy(%s, up, rt::kBytes, cudaMemcpyHostToDevice);" % s["dev"])
            if books:
                out.emit(ind + "g%s = -3;" % s["dev"])
        elif op == "memset_dev":
            out.emit(ind + "cudaMemset(%s, 0, rt::kBytes);" % s["dev"])
            if books:
                out.emit(ind + "g%s = -1;" % s["dev"])
        elif op == "memset_pinned":
            out.emit(ind + "cudaMemset(scratch, 0, rt::kBytes);")
        elif op in ("copy", "copy_blocking"):
            if op == "copy":
                call = "cudaMemcpyAsync(%s, %s, rt::kBytes, cudaMemcpyDeviceToHost, %s);" % (
                    s["host"], s["dev"], self.sx(s["stream"]))
            else:
                call = "cudaMemcpy(%s, %s, rt::kBytes, cudaMemcpyDeviceToHost);" % (
                    s["host"], s["dev"])
            out.emit(ind + call + " // copy: " + self.gid(s["id"]), [("copy", s["id"], self.copy_key(s))])
            if books:
                self.book_copy(out, ind, s)
        elif op == "stream_sync":
            out.emit(ind + "cudaStreamSynchronize(%s);" % self.sx(s["stream"]))
        elif op == "device_sync":
            out.emit(ind + "cudaDeviceSynchronize();")
        elif op == "record":
            out.emit(ind + "cudaEventRecord(%s, %s);" % (s["event"], self.sx(s["stream"])))
        elif op == "event_sync":
            out.emit(ind + "cudaEventSynchronize(%s);" % s["event"])
        elif op == "wait_event":
            out.emit(ind + "cudaStreamWaitEvent(%s, %s, 0);" % (self.sx(s["stream"]), s["event"]))
        elif op == "stream_poll":
            out.emit(ind + "while (cudaStreamQuery(%s) == cudaErrorNotReady) {" % self.sx(s["stream"]))
            out.emit(ind + "}")
        elif op == "event_poll":
            out.emit(ind + "while (cudaEventQuery(%s) == cudaErrorNotReady) {" % s["event"])
            out.emit(ind + "}")
        elif op == "query_once":
            out.emit(ind + "(void)cudaStreamQuery(%s);" % self.sx(s["stream"]))
        elif op == "read":
            v = "v%d" % _num(s["id"])
            out.emit(ind + "float %s = %s[0]; // access: %s" % (v, s["host"], self.gid(s["id"])),
                     [("access", s["id"], s["host"])])
            if books:
                self.tally(out, ind, s, v)
        elif op == "write":
            out.emit(ind + "%s[0] = %d.0f; // access: %s" % (s["host"], 1000 + _num(s["id"]),
                                                           self.gid(s["id"])),
                     [("access", s["id"], s["host"])])
            if books:
                self.book_write(out, ind, s)
        elif op == "if":
            out.emit(ind + "if (%s) {" % self.cond(out, ind, s["cond"]))
            self.block(out, ind + "  ", s["then"])
            if s["else"]:
                out.emit(ind + "} else {")
                self.block(out, ind + "  ", s["else"])
            out.emit(ind + "}")
        elif op == "loop":
            self.locals += 1
            i = "i%d" % self.locals
            bound = self.bound(s["bound"])
            out.emit(ind + "for (int %s = 0; %s < %s; ++%s) {" % (i, i, bound, i))
            self.block(out, ind + "  ", s["body"])
            out.emit(ind + "}")
        elif op == "call":
            self.call(out, ind, s)
        elif op == "lambda":
            self.lambda_(out, ind, s)
        else:
            raise ValueError("unknown op %r" % op)

    @staticmethod
    def bound(b):
        """A loop's bound: its constant, or its runtime int."""
        return str(b["n"]) if b["kind"] == "const" else b["var"]

    def cond(self, out, ind, c):
        if c["kind"] == "const":
            lit = self.TRUE if c["value"] else self.FALSE
            if c["form"] == "literal":
                return lit
            self.locals += 1
            k = "k%d" % self.locals
            out.emit(ind + self.CONST_LOCAL % (k, lit))
            return k
        v = c["var"]
        return {"truth": v, "not": self.NOT + v, "eq1": v + " == 1", "ne0": v + " != 0",
                "gt0": v + " > 0"}[c["form"]]

    def call_tail(self, marks, comment="//"):
        """The mark of a helper's or lambda's call line: the ids it touches."""
        return " %s call: %s" % (comment, " ".join(self.gid(m[1]) for m in marks)) if marks else ""

    def books_after_call(self, out, ind, body):
        """The caller's books after a helper's call, in the helper's order
        (a helper produces nothing)."""
        for x in body:
            if x["op"] in ("copy", "copy_blocking"):
                self.book_copy(out, ind, x)
            elif x["op"] == "write":
                self.book_write(out, ind, x)
            elif x["op"] == "read":
                self.tally(out, ind, x, "v%d" % _num(x["id"]))

    def block(self, out, ind, stmts):
        for s in stmts:
            self.stmt(out, ind, s)

    def copy_key(self, s):
        """"<device buffer> <stream>" of a copy, as the check's producer message
        names them (legacy / per-thread for the default streams)."""
        if s["op"] == "copy_blocking":
            return s["dev"] + " legacy"
        kind = self.kinds[s["stream"]]
        return s["dev"] + " " + {"legacy": "legacy", "per_thread": "per-thread"}.get(kind, s["stream"])

    def marks_of(self, body):
        return [("access", x["id"], x["host"]) if x["op"] in ("read", "write") else
                ("copy", x["id"], self.copy_key(x))
                for x in body if x["op"] in ("read", "write", "copy", "copy_blocking")]

    def call(self, out, ind, s):
        body = s["body"]
        k = len(self.helpers) + 1
        name = "scenario_%s_helper%d" % (self.tag, k)
        params, args, names, handles = [], [], [], set()
        for field, ctype in (("host", "float *"), ("dev", "float *"), ("stream", "cudaStream_t "),
                             ("event", "cudaEvent_t ")):
            for x in body:
                n = x.get(field)
                if n is None or n in names:
                    continue
                if field == "stream" and self.kinds[n] in STREAM_EXPR:
                    if not s.get("pass_handles"):
                        continue  # the legacy / per-thread handle is written in the helper
                    handles.add(n)
                params.append(ctype + n)
                names.append(n)
                args.append(self.sx(n) if field == "stream" else n)
        read = [x for x in body if x["op"] == "read"]
        h = _Out()
        ret = "float" if read else "void"
        h.emit("static %s %s(%s) {" % (ret, name, ", ".join(params)))
        self.param_streams = handles
        for x in body:
            self.stmt(h, "  ", x, books=False)
        self.param_streams = set()
        if read:
            h.emit("  return v%d;" % _num(read[0]["id"]))
        h.emit("}")
        self.helpers.append(h)
        marks = self.marks_of(body)
        tail = self.call_tail(marks)
        if read:
            out.emit(ind + "float v%d = %s(%s);%s" % (_num(read[0]["id"]), name, ", ".join(args),
                                                      tail), marks)
        else:
            out.emit(ind + "%s(%s);%s" % (name, ", ".join(args), tail), marks)
        self.books_after_call(out, ind, body)

    def lambda_(self, out, ind, s):
        self.lambdas += 1
        name = "l%d" % self.lambdas
        capture = "&"
        if s.get("capture") == "handles":
            # Created streams and events by value: the check takes a handle a
            # lambda captures by reference for one it may change.
            byval = []
            for x in s["body"]:
                for n in (x.get("stream"), x.get("event")):
                    if n and n not in byval and self.kinds.get(n) not in ("legacy", "per_thread"):
                        byval.append(n)
            capture = ", ".join(["&"] + byval)
        out.emit(ind + "auto %s = [%s]() {" % (name, capture))
        self.block(out, ind + "  ", s["body"])
        out.emit(ind + "};")
        marks = self.marks_of(s["body"])
        tail = self.call_tail(marks)
        for _ in range(s.get("calls", 1)):
            out.emit(ind + "%s();%s" % (name, tail), marks)

    # -- the function -----------------------------------------------------------
    def scenario(self):
        p = self.p
        used = G.used_resources(p)
        ops = {s["op"] for s, _ in G.walk(p["body"])}
        out = _Out()
        out.emit("static void scenario_%s() {" % self.tag)
        ind = "  "
        for r in p["rvars"]:
            if r["name"] in used["rvars"]:
                out.emit(ind + "const int %s = gen::rt_int(%d);" % (r["name"], r["value"]))
        for st in p["streams"]:
            if st["name"] in used["streams"] and st["kind"] not in STREAM_EXPR:
                out.emit(ind + "cudaStream_t %s;" % st["name"])
                if st["kind"] == "blocking":
                    out.emit(ind + "cudaStreamCreate(&%s);" % st["name"])
                else:
                    out.emit(ind + "cudaStreamCreateWithFlags(&%s, cudaStreamNonBlocking);"
                             % st["name"])
        for e in p["events"]:
            if e["name"] in used["events"]:
                out.emit(ind + "cudaEvent_t %s;" % e["name"])
                if e["flags"] == "default":
                    out.emit(ind + "cudaEventCreate(&%s);" % e["name"])
                else:
                    out.emit(ind + "cudaEventCreateWithFlags(&%s, cudaEventDisableTiming);"
                             % e["name"])
        for d in p["devs"]:
            if d["name"] in used["devs"]:
                out.emit(ind + "float *%s;" % d["name"])
                out.emit(ind + "cudaMalloc(&%s, rt::kBytes);" % d["name"])
        hosts = [h for h in p["hosts"] if h["name"] in used["hosts"]]
        for h in hosts:
            n, k = h["name"], h["kind"]
            if k == "pinned":
                out.emit(ind + "float *%s;" % n)
                out.emit(ind + "cudaMallocHost(&%s, rt::kBytes);" % n)
            elif k == "managed":
                out.emit(ind + "float *%s;" % n)
                out.emit(ind + "cudaMallocManaged(&%s, rt::kBytes);" % n)
            else:
                out.emit(ind + "float *%s = static_cast<float *>(malloc(rt::kBytes));" % n)
                if k == "registered":
                    out.emit(ind + "cudaHostRegister(%s, rt::kBytes, cudaHostRegisterDefault);" % n)
        if ops & {"upload", "upload_blocking"}:
            out.emit(ind + "float *up;")
            out.emit(ind + "cudaMallocHost(&up, rt::kBytes);")
            out.emit(ind + "gen::fill_upload(up, rt::kElems);")
        if "memset_pinned" in ops:
            out.emit(ind + "float *scratch;")
            out.emit(ind + "cudaMallocHost(&scratch, rt::kBytes);")
        for h in hosts:
            out.emit(ind + "rt::prime(%s, rt::kElems);" % h["name"])
        for d in p["devs"]:
            if d["name"] in used["devs"]:
                out.emit(ind + "gen::prime_device(%s, rt::kElems);" % d["name"])
        # The books: plain host variables (gen.h's header says why).
        if "produce" in ops:
            out.emit(ind + "int gk = 0;")
        for d in p["devs"]:
            if d["name"] in used["devs"]:
                out.emit(ind + "[[maybe_unused]] int g%s = -2;" % d["name"])
        for h in hosts:
            out.emit(ind + "[[maybe_unused]] float ex_%s = rt::kSentinel;" % h["name"])
            out.emit(ind + "[[maybe_unused]] const char *lw_%s = nullptr;" % h["name"])
        self.block(out, ind, p["body"])
        out.emit(ind + "cudaDeviceSynchronize();")
        for h in hosts:
            out.emit(ind + "gen::observe_last_write(lw_%s, %s[0], ex_%s);"
                     % (h["name"], h["name"], h["name"]))
        for r in G.ids_of(p["body"], ("read",)):
            out.emit(ind + 'gen::flush(%d, "%s");' % (_num(r), self.gid(r)))
        for h in hosts:
            n, k = h["name"], h["kind"]
            if k in ("pinned",):
                out.emit(ind + "cudaFreeHost(%s);" % n)
            elif k == "managed":
                out.emit(ind + "cudaFree(%s);" % n)
            else:
                if k == "registered":
                    out.emit(ind + "cudaHostUnregister(%s);" % n)
                out.emit(ind + "free(%s);" % n)
        if ops & {"upload", "upload_blocking"}:
            out.emit(ind + "cudaFreeHost(up);")
        if "memset_pinned" in ops:
            out.emit(ind + "cudaFreeHost(scratch);")
        for d in p["devs"]:
            if d["name"] in used["devs"]:
                out.emit(ind + "cudaFree(%s);" % d["name"])
        for e in p["events"]:
            if e["name"] in used["events"]:
                out.emit(ind + "cudaEventDestroy(%s);" % e["name"])
        for st in p["streams"]:
            if st["name"] in used["streams"] and st["kind"] not in STREAM_EXPR:
                out.emit(ind + "cudaStreamDestroy(%s);" % st["name"])
        out.emit("}")
        return self.helpers, out


def render_unit(progs, tags=None, header=None):
    """One translation unit with every program of progs as
    scenario_<tag>() (tag: the seed unless given), and a GEN_MAIN table
    keyed by the seed (by the position where tags are given)."""
    by_seed = tags is None
    tags = [str(p["seed"]) for p in progs] if by_seed else [str(t) for t in tags]
    if len(set(tags)) != len(tags):
        raise ValueError("two scenarios share a tag")
    rows = []
    if header is None:
        if len(progs) == 1:
            header = ("// Generated by runtime/gen/generate.py from seed %s (size bound %s).\n"
                      "// Run: prog [-n REPS]; build: nvcc -std=c++17 -I<repo>/runtime"
                      % (progs[0]["seed"], progs[0].get("size")))
        else:
            header = ("// Generated by runtime/gen/generate.py: %d scenarios.\n"
                      "// Run one: prog -s SEED [-n REPS]; build: nvcc -std=c++17 -I<repo>/runtime"
                      % len(progs))
    for line in header.splitlines():
        rows.append((line, None, []))
    rows.append(('#include "gen/gen.h"', None, []))
    rows.append(("", None, []))
    keys = {}
    for k, (p, tag) in enumerate(zip(progs, tags)):
        pr = ScenarioPrinter(p, tag)
        helpers, body = pr.scenario()
        for h in helpers:
            rows += [(t, tag, m) for t, m in h.rows]
            rows.append(("", None, []))
        rows += [(t, tag, m) for t, m in body.rows]
        rows.append(("", None, []))
        keys[tag] = p["seed"] if len(progs) == 1 or by_seed else k
    entries = ", ".join("{%sL, scenario_%s}" % (keys[t], t) for t in tags)
    rows.append(("GEN_MAIN(%s)" % entries, None, []))
    return assemble(rows, keys)


def assemble(rows, keys):
    """The Unit of rows [(text, tag or None, marks)] (one per line)."""
    text_lines, lines, spans = [], {}, {}
    for no, (text, tag, marks) in enumerate(rows, 1):
        text_lines.append(text)
        if marks:
            lines[no] = [(tag,) + tuple(m) for m in marks]
        if tag is not None:
            a, b = spans.get(tag, (no, no))
            spans[tag] = (min(a, no), max(b, no))
    return Unit("\n".join(text_lines) + "\n", lines, keys, spans)
