"""Delta reduction of a generated program over the grammar's choices.

Holds: the one-step simplifications of a program AST (delete a statement;
replace an if, a loop, a helper call or a lambda by one of its statement
lists; call a lambda once; run a constant loop once; drop a runtime int's
branch for its constant), and the greedy reduction that keeps applying the
one that still satisfies a predicate until none does (1-minimal), trying a
whole round of candidates with one clang-tidy run (render.py puts them in one
translation unit). Also: pruning the resources nothing names.
May call: generate.py (AST walks). The predicate is the caller's (compare.py
keeps a disagreement). Python 3 standard library only.
"""

import copy

import generate as G


def _lists(prog):
    """Every statement list of the program, as (path, list): the path is a
    sequence of (list index, key) steps from the body."""
    out = []

    def rec(stmts, path):
        out.append((path, stmts))
        for i, s in enumerate(stmts):
            for k in G.children(s):
                rec(s[k], path + ((i, k),))

    rec(prog["body"], ())
    return out


def _get(prog, path):
    stmts = prog["body"]
    for i, k in path:
        stmts = stmts[i][k]
    return stmts


def candidates(prog, keep_ids):
    """One-step simplifications, the biggest first; none deletes a statement
    whose id is in keep_ids (the disagreement being reduced)."""
    out = []
    for path, stmts in _lists(prog):
        for i, s in enumerate(stmts):
            inner_ids = {x.get("id") for x, _ in G.walk([s])}
            size = G.count_stmts([s])
            if not inner_ids & keep_ids:
                p = copy.deepcopy(prog)
                del _get(p, path)[i]
                out.append((size, "delete %s" % s["op"], p))
            for k in G.children(s):
                # Replace the compound statement by one of its lists. A helper's
                # or lambda's body inlined is a different program for the check:
                # kept only if the disagreement stays.
                lost = inner_ids - {x.get("id") for x, _ in G.walk(s[k])}
                if lost & keep_ids:
                    continue
                p = copy.deepcopy(prog)
                lst = _get(p, path)
                body = lst[i][k]
                lst[i:i + 1] = body
                out.append((size - G.count_stmts(body), "unwrap %s.%s" % (s["op"], k), p))
            if s["op"] == "lambda" and s.get("calls", 1) > 1:
                p = copy.deepcopy(prog)
                _get(p, path)[i]["calls"] = 1
                out.append((1, "call the lambda once", p))
            if s["op"] == "loop" and s["bound"]["kind"] == "const" and s["bound"]["n"] > 1:
                p = copy.deepcopy(prog)
                _get(p, path)[i]["bound"] = {"kind": "const", "n": 1}
                out.append((1, "run the loop once", p))
            if s["op"] == "if" and s["else"]:
                p = copy.deepcopy(prog)
                _get(p, path)[i]["else"] = []
                if not (inner_ids - {x.get("id") for x, _ in G.walk([_get(p, path)[i]])}) & keep_ids:
                    out.append((G.count_stmts(s["else"]), "drop the else", p))
    out.sort(key=lambda c: -c[0])
    return [(what, p) for _, what, p in out]


def prune(prog):
    """The program without resources nothing names (what the reduced
    program's JSON keeps)."""
    p = copy.deepcopy(prog)
    used = G.used_resources(p)
    for key in ("hosts", "devs", "streams", "events", "rvars"):
        p[key] = [r for r in p[key] if r["name"] in used[key]]
    return p


def reduce(prog, keep_ids, holds_batch, max_rounds=200, log=None):
    """Greedy delta reduction. holds_batch(list of programs) -> list of bools
    (whether each still shows the disagreement; one clang-tidy run for the
    list). Returns (reduced program, steps taken, rounds)."""
    cur = prog
    steps = []
    rounds = 0
    while rounds < max_rounds:
        cands = candidates(cur, keep_ids)
        if not cands:
            break
        rounds += 1
        ok = holds_batch([p for _, p in cands])
        pick = next((k for k, good in enumerate(ok) if good), None)
        if pick is None:
            break
        what, cur = cands[pick]
        steps.append(what)
        if log:
            log("    reduce: %s (%d statements left)" % (what, G.count_stmts(cur["body"])))
    return prune(cur), steps, rounds
