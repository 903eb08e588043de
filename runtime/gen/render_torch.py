"""Generated program AST -> a PyTorch program (issue 25 item 5: the same for Python).

Holds: the PyTorch subset of the grammar (to_torch: a program rewritten into
the constructs PyTorch has, with the same meaning under the ordering model),
and the printer of many scenarios into one Python module on rt_torch.py and
gen_torch.py, with the same line map as render.py's (render.Unit), which
compare.py matches the Python front end's findings against, and a
`python3 unit.py -s SEED [-n REPS]` runner for the GPU.
May call: generate.py (AST walks), render.py (Unit, the books' conventions).
Python 3 standard library only; the rendered module needs torch.

What each statement becomes (PyTorch 2.x, `torch.cuda`):
  legacy default stream   the current stream of the scenario (PyTorch's default
                          stream is the legacy default stream): no `with`;
                          `torch.cuda.current_stream()` where it is named
  created streams         `torch.cuda.Stream()` (a pool stream: non-blocking);
                          statements on one run in `with torch.cuda.stream(s):`
  produce / delay         `torch.cuda._sleep(cycles)`, then `d.fill_(fresh)`
  upload / upload_blocking  `d.copy_(up, non_blocking=True)` / `d.copy_(up)`
  memset_dev              `d.zero_()` on the current (legacy) stream
  copy / copy_blocking    `h.copy_(d, non_blocking=True)` / `h.copy_(d)` (a copy
                          on the current stream, then its synchronization:
                          PyTorch's blocking copy)
  stream_sync, device_sync, record, event_sync, wait_event, polls, query_once
                          `s.synchronize()`, `torch.cuda.synchronize()`,
                          `e.record(s)`, `e.synchronize()`, `s.wait_event(e)`,
                          `while not s.query(): pass`, `s.query()`
  read / write            `v = h[0].item()` / `h[0] = 1003.0`
  helpers / lambdas       module functions / nested functions (`nonlocal` books)
The rewrite (to_torch) for what PyTorch has not: registered and managed
destinations become pinned (`pin_memory=True`), blocking and per-thread
streams become created streams (PyTorch creates none that are blocking),
and `cudaMemset` of pinned memory, a host-synchronous operation on the legacy
stream, becomes a sync of the legacy stream (the same, where no stream is
blocking).
"""

import copy

import generate as G
import render

INDENT = "    "


def to_torch(prog):
    """prog rewritten into the PyTorch subset (a new AST; prog is unchanged;
    a program already in it comes back equal)."""
    p = copy.deepcopy(prog)
    for h in p["hosts"]:
        if h["kind"] in ("registered", "managed"):
            h["kind"] = "pinned"
    names = {s["name"] for s in p["streams"]}
    rename = {}
    made = 1 + max([int(n[1:]) for n in names if n[1:].isdigit()] + [0])
    for st in p["streams"]:
        if st["kind"] in ("blocking", "per_thread"):
            st["kind"] = "nonblocking"
        if st["name"] == "spt":
            rename["spt"] = "s%d" % made
            st["name"] = rename["spt"]
            made += 1
    legacy = next((s["name"] for s in p["streams"] if s["kind"] == "legacy"), None)
    for s, _ in G.walk(p["body"]):
        if s.get("stream") in rename:
            s["stream"] = rename[s["stream"]]
        if s["op"] == "memset_pinned":
            if legacy is None:
                legacy = "s0"
                p["streams"].append({"name": legacy, "kind": "legacy"})
            s.clear()
            s.update({"op": "stream_sync", "stream": legacy})
    p["torch"] = True
    G.validate(p)
    return p


class TorchPrinter(render.ScenarioPrinter):
    """One scenario (`def scenario_<tag>()`) and its helpers, as Python."""
    TRUE, FALSE, NOT, CONST_LOCAL = "True", "False", "not ", "%s = %s"

    def __init__(self, prog, tag):
        super().__init__(prog, tag)
        self.books = []  # the scenario's book variables, for `nonlocal`

    def sx(self, name):
        """The stream expression, or None for the current (legacy) stream."""
        if name in self.param_streams:
            return name
        return None if self.kinds[name] == "legacy" else name

    def named(self, name):
        return self.sx(name) or "torch.cuda.current_stream()"

    def on(self, out, ind, stream, rows):
        """rows [(text, marks)] on `stream`: inside its `with` unless current."""
        sx = self.sx(stream)
        if sx is not None:
            out.emit(ind + "with torch.cuda.stream(%s):" % sx)
            ind += INDENT
        for text, marks in rows:
            out.emit(ind + text, marks)

    # -- the books (plain host variables, as render.py's) ---------------------
    def book_copy(self, out, ind, s):
        out.emit(ind + "ex_%s = gen.value_of(g%s)" % (s["host"], s["dev"]))
        out.emit(ind + "lw_%s = None" % s["host"])

    def book_write(self, out, ind, s):
        out.emit(ind + "ex_%s = %d.0" % (s["host"], 1000 + render._num(s["id"])))
        out.emit(ind + 'lw_%s = "%s"' % (s["host"], self.gid(s["id"])))

    def tally(self, out, ind, s, v):
        k = render._num(s["id"])
        if k >= render.SLOTS:
            raise ValueError("access %s: gen_torch tallies at most %d accesses"
                             % (s["id"], render.SLOTS))
        out.emit(ind + "gen.hits[%d] += %s == ex_%s" % (k, v, s["host"]))
        out.emit(ind + "gen.seen[%d] += 1" % k)

    # -- statements -------------------------------------------------------------
    def stmt(self, out, ind, s, books=True):
        op = s["op"]
        if op == "produce":
            g = "g%s" % s["dev"]
            if books:
                out.emit(ind + "gk += 1")
                out.emit(ind + "%s = gk" % g)
            value = "gen.fresh(%s)" % g if books else "1.0"
            self.on(out, ind, s["stream"], [("torch.cuda._sleep(gen.K_DELAY_CYCLES)", []),
                                            ("%s.fill_(%s)" % (s["dev"], value), [])])
        elif op == "delay":
            self.on(out, ind, s["stream"], [("torch.cuda._sleep(gen.K_SPIN_CYCLES)", [])])
        elif op in ("upload", "upload_blocking"):
            if op == "upload":
                self.on(out, ind, s["stream"], [("%s.copy_(up, non_blocking=True)" % s["dev"], [])])
            else:
                out.emit(ind + "%s.copy_(up)" % s["dev"])
            if books:
                out.emit(ind + "g%s = -3" % s["dev"])
        elif op == "memset_dev":
            out.emit(ind + "%s.zero_()" % s["dev"])
            if books:
                out.emit(ind + "g%s = -1" % s["dev"])
        elif op in ("copy", "copy_blocking"):
            mark = [("copy", s["id"], self.copy_key(s))]
            tail = "  # copy: " + self.gid(s["id"])
            if op == "copy":
                self.on(out, ind, s["stream"],
                        [("%s.copy_(%s, non_blocking=True)%s" % (s["host"], s["dev"], tail), mark)])
            else:
                out.emit(ind + "%s.copy_(%s)%s" % (s["host"], s["dev"], tail), mark)
            if books:
                self.book_copy(out, ind, s)
        elif op == "stream_sync":
            out.emit(ind + "%s.synchronize()" % self.named(s["stream"]))
        elif op == "device_sync":
            out.emit(ind + "torch.cuda.synchronize()")
        elif op == "record":
            sx = self.sx(s["stream"])
            out.emit(ind + "%s.record(%s)" % (s["event"], sx or ""))
        elif op == "event_sync":
            out.emit(ind + "%s.synchronize()" % s["event"])
        elif op == "wait_event":
            out.emit(ind + "%s.wait_event(%s)" % (self.named(s["stream"]), s["event"]))
        elif op in ("stream_poll", "event_poll"):
            what = self.named(s["stream"]) if op == "stream_poll" else s["event"]
            out.emit(ind + "while not %s.query():" % what)
            out.emit(ind + INDENT + "pass")
        elif op == "query_once":
            out.emit(ind + "%s.query()" % self.named(s["stream"]))
        elif op == "read":
            v = "v%d" % render._num(s["id"])
            out.emit(ind + "%s = %s[0].item()  # access: %s" % (v, s["host"], self.gid(s["id"])),
                     [("access", s["id"], s["host"])])
            if books:
                self.tally(out, ind, s, v)
        elif op == "write":
            value = 1000 + render._num(s["id"])
            out.emit(ind + "%s[0] = %d.0  # access: %s" % (s["host"], value, self.gid(s["id"])),
                     [("access", s["id"], s["host"])])
            if books:
                self.book_write(out, ind, s)
        elif op == "if":
            out.emit(ind + "if %s:" % self.cond(out, ind, s["cond"]))
            self.block(out, ind + INDENT, s["then"])
            if s["else"]:
                out.emit(ind + "else:")
                self.block(out, ind + INDENT, s["else"])
        elif op == "loop":
            self.locals += 1
            out.emit(ind + "for i%d in range(%s):" % (self.locals, self.bound(s["bound"])))
            self.block(out, ind + INDENT, s["body"])
        elif op == "call":
            self.call(out, ind, s)
        elif op == "lambda":
            self.lambda_(out, ind, s)
        else:
            raise ValueError("unknown op %r" % op)

    def block(self, out, ind, stmts):
        for s in stmts:
            self.stmt(out, ind, s)
        if not stmts:
            out.emit(ind + "pass")

    def copy_key(self, s):
        """"<device buffer> <stream>" as the front end's producer message names
        them (tidy.message_keys: the current and default streams are legacy)."""
        if s["op"] == "copy_blocking" or self.kinds[s["stream"]] == "legacy":
            return s["dev"] + " legacy"
        return s["dev"] + " " + s["stream"]

    def call_tail(self, marks, comment=" #"):
        return super().call_tail(marks, comment)

    def call(self, out, ind, s):
        body = s["body"]
        name = "scenario_%s_helper%d" % (self.tag, len(self.helpers) + 1)
        params, args, handles = [], [], set()
        for field in ("host", "dev", "stream", "event"):
            for x in body:
                n = x.get(field)
                if n is None or n in params:
                    continue
                if field == "stream" and self.kinds[n] == "legacy":
                    if not s.get("pass_handles"):
                        continue  # the helper runs it on its current stream
                    handles.add(n)
                    args.append("torch.cuda.current_stream()")
                else:
                    args.append(n)
                params.append(n)
        read = [x for x in body if x["op"] == "read"]
        h = render._Out()
        h.emit("def %s(%s):" % (name, ", ".join(params)))
        self.param_streams = handles
        for x in body:
            self.stmt(h, INDENT, x, books=False)
        self.param_streams = set()
        if read:
            h.emit(INDENT + "return v%d" % render._num(read[0]["id"]))
        elif not body:
            h.emit(INDENT + "pass")
        self.helpers.append(h)
        marks = self.marks_of(body)
        call = "%s(%s)%s" % (name, ", ".join(args), self.call_tail(marks))
        out.emit(ind + ("v%d = " % render._num(read[0]["id"]) if read else "") + call, marks)
        self.books_after_call(out, ind, body)

    def lambda_(self, out, ind, s):
        self.lambdas += 1
        name = "l%d" % self.lambdas
        out.emit(ind + "def %s():" % name)
        if self.books:
            out.emit(ind + INDENT + "nonlocal " + ", ".join(self.books))
        self.block(out, ind + INDENT, s["body"])
        marks = self.marks_of(s["body"])
        for _ in range(s.get("calls", 1)):
            out.emit(ind + "%s()%s" % (name, self.call_tail(marks)), marks)

    # -- the function -------------------------------------------------------------
    def scenario(self):
        p = self.p
        used = G.used_resources(p)
        ops = {s["op"] for s, _ in G.walk(p["body"])}
        out = render._Out()
        out.emit("def scenario_%s():" % self.tag)
        ind = INDENT
        for r in p["rvars"]:
            if r["name"] in used["rvars"]:
                out.emit(ind + "%s = gen.rt_int(%d)" % (r["name"], r["value"]))
        for st in p["streams"]:
            if st["name"] in used["streams"] and st["kind"] != "legacy":
                out.emit(ind + "%s = torch.cuda.Stream()" % st["name"])
        for e in p["events"]:
            if e["name"] in used["events"]:
                out.emit(ind + "%s = torch.cuda.Event(enable_timing=%s)"
                         % (e["name"], "True" if e["flags"] == "default" else "False"))
        devs = [d["name"] for d in p["devs"] if d["name"] in used["devs"]]
        for d in devs:
            out.emit(ind + '%s = torch.empty(gen.K_ELEMS, device="cuda")' % d)
        hosts = [h for h in p["hosts"] if h["name"] in used["hosts"]]
        for h in hosts:
            if h["kind"] not in ("pinned", "pageable"):
                raise ValueError("%s destination %s: to_torch() first" % (h["kind"], h["name"]))
            out.emit(ind + "%s = torch.empty(gen.K_ELEMS%s)"
                     % (h["name"], ", pin_memory=True" if h["kind"] == "pinned" else ""))
        if ops & {"upload", "upload_blocking"}:
            out.emit(ind + "up = torch.full((gen.K_ELEMS,), gen.K_UPLOAD, pin_memory=True)")
        for h in hosts:
            out.emit(ind + "%s.fill_(gen.K_SENTINEL)" % h["name"])
        for d in devs:
            out.emit(ind + "gen.prime_device(%s)" % d)
        self.books = []
        if "produce" in ops:
            out.emit(ind + "gk = 0")
            self.books.append("gk")
        for d in devs:
            out.emit(ind + "g%s = -2" % d)
            self.books.append("g" + d)
        for h in hosts:
            out.emit(ind + "ex_%s = gen.K_SENTINEL" % h["name"])
            out.emit(ind + "lw_%s = None" % h["name"])
            self.books += ["ex_" + h["name"], "lw_" + h["name"]]
        self.block(out, ind, p["body"])
        out.emit(ind + "torch.cuda.synchronize()")
        for h in hosts:
            out.emit(ind + "gen.observe_last_write(lw_%s, %s[0].item(), ex_%s)"
                     % (h["name"], h["name"], h["name"]))
        for r in G.ids_of(p["body"], ("read",)):
            out.emit(ind + 'gen.flush(%d, "%s")' % (render._num(r), self.gid(r)))
        return self.helpers, out


def render_module(progs, tags=None, header=None):
    """One Python module with every program of progs (each to_torch()'ed) as
    scenario_<tag>() (tag: the seed unless given), and a table keyed by the
    seed (by the position where tags are given) for `-s`."""
    progs = [to_torch(p) for p in progs]
    by_seed = tags is None
    tags = [str(p["seed"]) for p in progs] if by_seed else [str(t) for t in tags]
    if len(set(tags)) != len(tags):
        raise ValueError("two scenarios share a tag")
    if header is None:
        header = ("# Generated by runtime/gen/render_torch.py: %d scenario(s), PyTorch.\n"
                  "# Run one: PYTHONPATH=<repo>/runtime/gen:<repo>/runtime python3 THIS -s SEED "
                  "[-n REPS]" % len(progs))
    rows = [(line, None, []) for line in header.splitlines()]
    rows += [("import sys", None, []), ("", None, []), ("import torch", None, []),
             ("", None, []), ("import gen_torch as gen", None, []), ("", None, []), ("", None, [])]
    keys = {}
    for k, (p, tag) in enumerate(zip(progs, tags)):
        helpers, body = TorchPrinter(p, tag).scenario()
        for h in helpers + [body]:
            rows += [(t, tag, m) for t, m in h.rows]
            rows += [("", None, []), ("", None, [])]
        keys[tag] = p["seed"] if len(progs) == 1 or by_seed else k
    rows.append(("SCENARIOS = {%s}" % ", ".join("%s: scenario_%s" % (keys[t], t) for t in tags),
                 None, []))
    rows += [("", None, []), ('if __name__ == "__main__":', None, []),
             (INDENT + "sys.exit(gen.main(SCENARIOS))", None, [])]
    return render.assemble(rows, keys)
