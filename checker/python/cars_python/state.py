"""The Python front end's state at a program point, and what it reports:
the copies in flight (Copy, Info, State) and findings (Finding). Plain data
with the join and the literal bookkeeping; no analysis.

State at a program point (State):
  names     path ('temp', 'self.buf') -> the copies whose destination it names
  live      the copies not yet known to be complete (may: a copy in flight on
            some path), each with an Info of what holds on every path where
            it is in flight (must: intersected at joins): the events recorded
            after it, the streams ordered after it (its own; those made to
            wait for it), the branch literals since it was issued
  elems     container path ('outs', 'self.bufs') -> the copies among its
            elements (containers.py)
  writes    device work on a tensor (the producer diagnostic) not yet known
            to be complete, each with an Info as a copy's
  recorded  event paths recorded on some path / on every path (the notes)
  conds     literals on every path: name -> ("is", constant) where a
            constant was assigned, ("truth", bool) where a branch tested it
  cur       the current stream, a stack (`with torch.cuda.stream(s):`)
  misses    copy -> the last call that looked like a sync and did not cover
            it, for the note

May call: model.
"""

from . import model

class OverBudget(Exception):
    """The analysis budget (module.MAX_COST) is spent."""


EMPTY = frozenset()


class Copy:
    """An asynchronous device-to-host copy: its call, the destination's
    name, the stream it was issued on, the copied tensor's name, the file
    of the module it is in (None outside a project), and the part of the
    destination it writes where a subscript says it (region)."""
    __slots__ = ("id", "node", "name", "stream", "line", "col", "source", "file", "region")

    def __init__(self, node, name, stream, source=None, file=None):
        self.id = id(node)
        self.node, self.name, self.stream = node, name, stream
        self.line, self.col = node.lineno, node.col_offset + 1
        self.source = source  # the dotted name of the copied tensor, if it has one
        self.file = file
        # Into a subscript of a named tensor: (its name, model.slice_region).
        self.region = None


class Finding:
    """A warning at `node`, with notes [(line, col, text)] and, beside them,
    note_files: the file of each note where it is in another module of the
    project than the finding (a helper's body), else None. A note given as
    (line, col, text, file) sets both."""

    def __init__(self, node, message, notes):
        self.line, self.col = node.lineno, node.col_offset + 1
        self.end_col = (node.end_col_offset + 1
                        if getattr(node, "end_lineno", None) == node.lineno else None)
        self.message = message
        self.notes = [n[:3] for n in notes]
        self.note_files = [n[3] if len(n) > 3 else None for n in notes]

    def key(self):
        return (self.line, self.col, self.message)


class Info:
    """What is known of one copy in flight on every path to a point (must:
    intersected at joins): the events recorded after it on a stream that
    orders it, the streams it is ordered before (its own, and those made to
    wait for it: wait_stream, wait_event), and the branch literals that
    held where it was issued or since (name, truth)."""
    __slots__ = ("events", "streams", "conds")

    def __init__(self, events, streams, conds):
        self.events, self.streams, self.conds = events, streams, conds

    def key(self):
        return (self.events, self.streams, self.conds)

    def meet(self, other):
        if other is self:
            return self
        return Info(self.events & other.events, self.streams & other.streams,
                    self.conds & other.conds)

    def replace(self, events=None, streams=None, conds=None):
        return Info(self.events if events is None else events,
                    self.streams if streams is None else streams,
                    self.conds if conds is None else conds)


class State:
    """The state at a program point (this module's docstring says what
    each part holds)."""
    __slots__ = ("names", "live", "recorded", "recorded_all", "cur", "misses", "conds", "wnames",
                 "elems")

    def __init__(self, names=None, live=None, recorded=EMPTY, cur=(model.CURRENT,), misses=None,
                 conds=None, recorded_all=EMPTY, wnames=None, elems=None):
        self.names = names or {}
        self.elems = elems or {}        # container path -> the copies among its elements
        self.live = live or {}          # copy or write id -> Info
        self.wnames = wnames or {}      # path -> the writes on it (producers.py)
        self.recorded = recorded        # event paths recorded on some path here
        self.recorded_all = recorded_all  # ... on every path here
        self.cur = cur
        self.misses = misses or {}
        self.conds = conds or {}        # name -> truth, on every path here

    def copy(self):
        return State(dict(self.names), dict(self.live), self.recorded, self.cur,
                     dict(self.misses), dict(self.conds), self.recorded_all, dict(self.wnames),
                     dict(self.elems))

    def current(self):
        return self.cur[-1]

    def key(self):
        return (frozenset(self.names.items()),
                frozenset((c, i.key()) for c, i in self.live.items()),
                self.recorded, self.recorded_all, self.cur, frozenset(self.conds.items()),
                frozenset(self.wnames.items()), frozenset(self.elems.items()))

    def join(self, other):
        names, wnames = dict(self.names), dict(self.wnames)
        for k, v in other.names.items():
            names[k] = names.get(k, EMPTY) | v
        for k, v in other.wnames.items():
            wnames[k] = wnames.get(k, EMPTY) | v
        elems = dict(self.elems)
        for k, v in other.elems.items():
            elems[k] = elems.get(k, EMPTY) | v
        live = dict(other.live)
        for c, info in self.live.items():
            live[c] = info.meet(live[c]) if c in live else info
        misses = dict(other.misses)
        misses.update(self.misses)
        conds = {k: v for k, v in self.conds.items() if other.conds.get(k) == v}
        return State(names, live, self.recorded | other.recorded, self.cur, misses, conds,
                     self.recorded_all & other.recorded_all, wnames, elems)

    def forget(self, path):
        """path names something else now: drop it from events and literals."""
        self.conds.pop(path, None)
        for c, info in list(self.live.items()):
            if path in info.events or any(n == path for n, _ in info.conds):
                self.live[c] = info.replace(
                    events=info.events - {path},
                    conds=frozenset(x for x in info.conds if x[0] != path))

    def set_literal(self, name, lit):
        """On this path, what name holds is known (a constant assigned, a
        branch taken): every copy in flight holds it."""
        self.conds[name] = lit
        done = {}  # old literals -> new: copies issued alike share them
        for c, info in list(self.live.items()):
            conds = done.get(info.conds)
            if conds is None:
                conds = done[info.conds] = frozenset(
                    x for x in info.conds if x[0] != name) | {(name, lit)}
            self.live[c] = info.replace(conds=conds)

    def known_false(self, node):
        """Whether a name or attribute holds a false value on every path
        here (assigned a constant, or tested): `non_blocking = False`."""
        lit = self.conds.get(model.dotted(node)) if node is not None else None
        return lit is not None and not lit[1]

    def learn(self, name, test):
        """A branch on name was taken with `test` (see contradicts): drop
        the copies and writes issued only where name held something else,
        and remember what is known now."""
        for c, info in list(self.live.items()):
            if any(n == name and contradicts(lit, test) for n, lit in info.conds):
                del self.live[c]
        old = self.conds.get(name)
        if test[0] == "truth":
            if old is None or old[0] != "is":
                self.set_literal(name, test)
        elif test[2]:
            self.set_literal(name, ("is", test[1]))  # name == c held


def contradicts(lit, test):
    """Whether a literal (("is", value): name was assigned the constant
    value; ("truth", t): name tested t) rules out a branch test (("truth",
    T): `if name:` taken with T; ("eq", c, T): `name == c` was T)."""
    if test[0] == "truth":
        held = bool(lit[1])
        return held != test[1]
    if lit[0] != "is":
        return False  # only its truth is known
    try:
        return (lit[1] == test[1]) != test[2]
    except Exception:  # a constant that does not compare
        return False
