"""A control-flow graph of one Python function (or a module's top level),
built from its `ast`: what the flow analysis (analysis.py) walks.

A Block holds Elements in evaluation order and Edges to its successors. An
Element is one of

  ("stmt", node)            a simple statement (Assign, Expr, Return, ...)
  ("test", expr)            a branch or loop condition, evaluated
  ("iter", for_node)        a for loop's iterable, evaluated once before the loop
  ("subject", expr)         a match statement's subject, evaluated (not read:
                            class patterns test its type)
  ("bind", for_node)        a for loop's target, bound to the next item
  ("enter", withitem)       a `with` item entered (its context expression evaluated)
  ("exit", withitem)        the same item left, on every way out of the body
  ("def", node)             a nested def/class/lambda-free definition: binds a name

and an Edge carries what is known on it: `assume` is (expr, truth) when the
edge is taken only if the branch condition expr evaluated to truth (the
analysis uses it for `while not e.query():` loops and `if s.query():`; a
for loop's edge into its body over `range(n)` carries (range(n), True)).

Modelled: if/elif/else, while and for (with else, break, continue; a for
over a literal or a `range` of constants runs its body as often as it says:
at least once, and `range(1)` once only), try /
except / else / finally (a handler is reached from the try body's start and
end: an exception may leave it at any statement), with (its exits on every
way out), return (to the exit, through the enclosing `with` exits and
finally bodies), raise (the same inside a try; elsewhere to `raised`, not
the exit), match (each case a branch), and nested function and class bodies
(not entered: the analysis looks into them as helpers). Standard library
only; it never fails on valid syntax (unknown statements are simple ones).
"""

import ast



def ranged_name(it):
    """The name n of `range(n)`, else None."""
    if (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            and len(it.args) == 1 and not it.keywords and isinstance(it.args[0], ast.Name)):
        return it.args[0].id
    return None


def trip_count(it):
    """How many times a `for` over `it` runs its body, where the text says:
    a literal tuple or list (without `*x`), `range(n)` / `range(a, b)` of
    integer constants; else None."""
    if isinstance(it, (ast.Tuple, ast.List)):
        return None if any(isinstance(e, ast.Starred) for e in it.elts) else len(it.elts)
    if (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            and not it.keywords and 1 <= len(it.args) <= 2
            and all(isinstance(a, ast.Constant) and type(a.value) is int for a in it.args)):
        bounds = [a.value for a in it.args]
        return max(0, bounds[-1] - (bounds[0] if len(bounds) == 2 else 0))
    return None

class Edge:
    __slots__ = ("target", "assume")

    def __init__(self, target, assume=None):
        self.target = target
        self.assume = assume


class Block:
    __slots__ = ("id", "elements", "succs", "preds")

    def __init__(self, id_):
        self.id = id_
        self.elements = []
        self.succs = []
        self.preds = []


class CFG:
    """entry and exit blocks, and every block in creation order. `exit` is
    where the function returns (or falls off its end); `raised` is where an
    exception leaves it with no try around the raise, a dead end: a caller
    that looks through the function continues from `exit` only."""

    def __init__(self):
        self.blocks = []
        self.entry = self.new()
        self.exit = self.new()
        self.raised = self.new()

    def release(self):
        """Unlink the blocks (they refer to each other, and to the
        function's statements): a CFG no longer used is then freed at once,
        not by Python's cycle collector, whose full passes cost a run of
        many files most of its time (bench/python_front_end.py)."""
        for b in self.blocks:
            b.succs, b.preds = [], []

    def new(self):
        b = Block(len(self.blocks))
        self.blocks.append(b)
        return b

    def link(self, a, b, assume=None):
        if a is None:
            return
        a.succs.append(Edge(b, assume))
        b.preds.append(a)

    def reverse_post_order(self):
        seen, order = set(), []
        stack = [(self.entry, iter(self.entry.succs))]
        seen.add(self.entry.id)
        while stack:
            block, it = stack[-1]
            for e in it:
                if e.target.id not in seen:
                    seen.add(e.target.id)
                    stack.append((e.target, iter(e.target.succs)))
                    break
            else:
                stack.pop()
                order.append(block)
        order.reverse()
        return order


class _Builder:
    def __init__(self):
        self.cfg = CFG()
        # (continue target, break target, with-depth at the loop)
        self.loops = []
        # the `with` items open around the current point, innermost last
        self.withs = []
        # the finally bodies around the current point, innermost last, and
        # the entry of each one's copy on the way out of a return
        self.finals = []
        self.final_entries = {}
        # how many try bodies are around the current point
        self.tries = 0

    def build(self, body):
        end = self.stmts(body, self.cfg.entry)
        self.cfg.link(end, self.cfg.exit)
        return self.cfg

    def stmts(self, body, cur):
        for s in body:
            if cur is None:  # unreachable code after return/break/...
                cur = self.cfg.new()
            cur = self.stmt(s, cur)
        return cur

    def leave_withs(self, cur, depth):
        """Exits of the `with` items opened since depth, innermost first."""
        for item in reversed(self.withs[depth:]):
            cur.elements.append(("exit", item))
        return cur

    def branch(self, cur, test):
        """Two blocks after evaluating test: (taken if true, taken if false).
        A constant test has one edge (`while True:` leaves by break only)."""
        cur.elements.append(("test", test))
        t, f = self.cfg.new(), self.cfg.new()
        const = isinstance(test, ast.Constant)
        if not const or test.value:
            self.cfg.link(cur, t, (test, True))
        if not const or not test.value:
            self.cfg.link(cur, f, (test, False))
        return t, f

    def leaving(self, depth):
        """Where a return inside the first `depth` enclosing try/finally
        statements goes: the innermost finally body, built once for all
        the returns that leave through it, and from its end the next one
        out, then the exit."""
        if depth == 0:
            return self.cfg.exit
        key = id(self.finals[depth - 1])
        if key not in self.final_entries:
            entry = self.cfg.new()
            self.final_entries[key] = entry
            saved = self.finals
            self.finals = self.finals[:depth - 1]
            end = self.stmts(saved[depth - 1], entry)
            self.finals = saved
            self.cfg.link(end, self.leaving(depth - 1))
        return self.final_entries[key]

    def loop(self, s, head, body, other):
        """A loop's body from body back to head, its else from other (the
        exit when the condition fails or the iterable is done), and the
        block after it, where break goes."""
        after = self.cfg.new()
        self.loops.append((head, after, len(self.withs)))
        self.cfg.link(self.stmts(s.body, body), head)
        self.loops.pop()
        self.cfg.link(self.stmts(s.orelse, other), after)
        return after

    def stmt(self, s, cur):
        cfg = self.cfg
        if isinstance(s, ast.If):
            t, f = self.branch(cur, s.test)
            t_end = self.stmts(s.body, t)
            f_end = self.stmts(s.orelse, f)
            join = cfg.new()
            cfg.link(t_end, join)
            cfg.link(f_end, join)
            return join
        if isinstance(s, ast.While):
            head = cfg.new()
            cfg.link(cur, head)
            body, other = self.branch(head, s.test)
            return self.loop(s, head, body, other)
        if isinstance(s, (ast.For, ast.AsyncFor)):
            cur.elements.append(("iter", s))
            head = cfg.new()
            body, other = cfg.new(), cfg.new()
            trips = trip_count(s.iter)
            # range(n) of a name: the body runs only where n is not falsy
            # (the analysis drops the edge where n is known to be 0)
            nonempty = (s.iter, True) if trips is None and ranged_name(s.iter) else None
            if trips == 0:
                cfg.link(cur, other)  # range(0), (): the body never runs
            elif trips is not None:
                cfg.link(cur, body)  # a non-empty literal, range(3): the body runs once at least
            else:
                cfg.link(cur, head)
            if trips != 1:
                cfg.link(head, body, nonempty)  # range(1), [x]: no second iteration
            cfg.link(head, other)
            body.elements.append(("bind", s))
            return self.loop(s, head, body, other)
        if isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                cur.elements.append(("enter", item))
                self.withs.append(item)
            end = self.stmts(s.body, cur)
            for item in reversed(s.items):
                self.withs.pop()
                if end is not None:
                    end.elements.append(("exit", item))
            return end
        if isinstance(s, ast.Try) or type(s).__name__ == "TryStar":
            start = cfg.new()
            cfg.link(cur, start)
            if s.finalbody:
                self.finals.append(s.finalbody)
            self.tries += 1
            body_end = self.stmts(s.body, start)
            self.tries -= 1
            if s.finalbody:
                self.finals.pop()
            else_end = self.stmts(s.orelse, body_end) if body_end is not None else None
            join = cfg.new()
            cfg.link(else_end, join)
            for h in s.handlers:
                hb = cfg.new()
                cfg.link(cur, hb)           # raised before anything in the body ran
                cfg.link(body_end, hb)      # raised after all of it
                if h.name:
                    hb.elements.append(("def", h))
                cfg.link(self.stmts(h.body, hb), join)
            if s.finalbody:
                if not s.handlers:
                    cfg.link(cur, join)     # an exception leaves the body at once
                return self.stmts(s.finalbody, join)
            return join
        if type(s).__name__ == "Match":
            cur.elements.append(("subject", s.subject))
            join = cfg.new()
            exhaustive = False
            for case in s.cases:
                b = cfg.new()
                cfg.link(cur, b)
                if case.guard is not None:
                    b.elements.append(("test", case.guard))
                cfg.link(self.stmts(case.body, b), join)
                exhaustive |= (isinstance(case.pattern, ast.MatchAs) and case.pattern.pattern is None
                               and case.guard is None)
            if not exhaustive:
                cfg.link(cur, join)
            return join
        if isinstance(s, (ast.Return, ast.Raise)):
            cur.elements.append(("stmt", s))
            self.leave_withs(cur, 0)
            if isinstance(s, ast.Raise) and not self.tries and not self.finals:
                cfg.link(cur, cfg.raised)  # the exception leaves the function
            else:
                cfg.link(cur, self.leaving(len(self.finals)))
            return None
        if isinstance(s, ast.Break):
            if self.loops:
                _, after, depth = self.loops[-1]
                self.leave_withs(cur, depth)
                cfg.link(cur, after)
            return None
        if isinstance(s, ast.Continue):
            if self.loops:
                head, _, depth = self.loops[-1]
                self.leave_withs(cur, depth)
                cfg.link(cur, head)
            return None
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            cur.elements.append(("def", s))
            return cur
        cur.elements.append(("stmt", s))
        return cur


def build_cfg(body):
    """The CFG of a list of statements (a function's or module's body)."""
    return _Builder().build(body)
