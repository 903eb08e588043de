"""Summaries across translation units, computed for the launcher, the gate
and the pre-commit hook (docs/integration.md, "Summaries across translation
units").

The check writes what each translation unit's functions do for other units
(its option SummaryExportDirectory, or the environment variable
CARS_SUMMARY_EXPORT_DIRECTORY) and applies what other units wrote
(SummaryImportPaths / CARS_SUMMARY_IMPORT_PATHS). This module decides when:

  refresh(...)   runs every translation unit of a (translated) compile
                 database whose summary is missing or stale with the export
                 on, in parallel, into a cache under the build directory
                 (<build>/cars-summaries: units/ holds one summary file per
                 unit, index.json what each was computed from). A unit is
                 stale when its command, the plugin or one of its own files
                 (its main file and the project headers it includes, as its
                 summary file lists them) changed, or -- a bounded fixpoint
                 for chains across units -- when a function it calls without
                 a body got a different summary in this refresh (at most
                 MAX_ROUNDS rounds).
  import_env()   the environment under which the check then applies them.
  merge(...)     the caches of several shards of a matrix job, into one.
  results(...)   the check's own findings from the same runs (same parse:
                 each summary run is a full run of the check, its
                 diagnostics kept in results/ beside units/), for the units
                 whose last run saw the summaries now in the cache: after a
                 refresh that converged, every unit. The gate uses them and
                 runs clang-tidy again only on the units it lacks.

Standard library only. Errors that stop the summaries (an unreadable
database, an unwritable cache) raise SummaryError; the callers then say so
and run the check without summaries.
"""
import concurrent.futures
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

CHECK = "cuda-async-read-before-sync"
FORMAT = "cuda-async-read-before-sync-summaries"
# The cache's own layout; a change of it or of the plugin empties the cache.
CACHE_VERSION = 4
MAX_ROUNDS = 3


class SummaryError(Exception):
    pass


def disabled():
    """CARS_SUMMARIES=0 turns the summaries off (the check then sees each
    unit alone, as with plain clang-tidy)."""
    return os.environ.get("CARS_SUMMARIES", "1").strip() in ("0", "off", "no", "false")


def cache_dir(database):
    """The cache of a compile database: <its directory>/cars-summaries, or
    $CARS_SUMMARY_CACHE."""
    return os.environ.get("CARS_SUMMARY_CACHE") or os.path.join(
        os.path.dirname(os.path.abspath(database)), "cars-summaries")


def import_env(units_dir, env=None):
    """The environment for a check run that applies the summaries."""
    env = dict(os.environ if env is None else env)
    env["CARS_SUMMARY_IMPORT_PATHS"] = units_dir
    env.pop("CARS_SUMMARY_EXPORT_DIRECTORY", None)
    return env


def _digest(data):
    return hashlib.sha256(data).hexdigest()


def _file_digest(path, memo):
    if path not in memo:
        try:
            with open(path, "rb") as f:
                memo[path] = _digest(f.read())
        except OSError:
            memo[path] = None  # gone: the unit is stale
    return memo[path]


def _plugin_identity(plugin):
    """The plugin by its contents (so that a cache restored on another CI
    machine, or merged from shards that each built the same plugin, stays
    valid), with the cache's layout version."""
    try:
        with open(plugin, "rb") as f:
            return "%s:%d" % (_digest(f.read()), CACHE_VERSION)
    except OSError:
        return "%s:?:%d" % (plugin, CACHE_VERSION)


def _units(database):
    """{real path of the main file: the entry} of a compile database (the
    first entry of a file that has several)."""
    try:
        with open(database) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        raise SummaryError("cannot read compile database %s: %s" % (database, e))
    units = {}
    for e in entries:
        if not isinstance(e, dict) or "file" not in e:
            continue
        path = os.path.realpath(os.path.join(e.get("directory", "."), e["file"]))
        units.setdefault(path, e)
    return units


def _command_digest(entry):
    return _digest(json.dumps([entry.get("directory"), entry.get("arguments"),
                               entry.get("command")], sort_keys=True).encode())


def _name_of(unit):
    return hashlib.sha1(unit.encode()).hexdigest()[:16] + "-" + os.path.basename(unit) + ".json"


def _functions(path):
    """{USR: the function's JSON, canonical}, the unit's dependencies and
    its own files, of a summary file; ({}, [], []) when it cannot be read.
    The dependencies are keys: a USR of "calls" (every function the unit
    calls without a body: the shape of its summary decides which callables
    the check analyses) and "=" + a USR of "consults" (those whose summary
    the analysis applied or looked for: its content decides). Keys of
    stream members ("%" + USR) map to this unit's origin of the member, and
    those of library handle members to the stream this unit gives it, not
    to JSON: several units may write one member (_join_members)."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}, [], []
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}, [], []
    funcs = {f["usr"]: json.dumps(f, sort_keys=True)
             for f in data.get("functions", []) if isinstance(f, dict) and "usr" in f}
    # A stream member's origin as this unit's writes give it, under "%" +
    # its USR (the key its consults use); _join_members joins the units'.
    funcs.update({"%" + m["usr"]: m.get("origin", "unknown")
                  for m in data.get("streamMembers", [])
                  if isinstance(m, dict) and isinstance(m.get("usr"), str)})
    # A library handle member's stream (by the stream's USR) likewise.
    funcs.update({"%" + m["usr"]: "stream %s%s" % (m.get("stream", "unknown"),
                                                  " same" if m.get("sameObject") else "")
                  for m in data.get("handleMembers", [])
                  if isinstance(m, dict) and isinstance(m.get("usr"), str)})
    deps = [u for u in data.get("calls", []) if isinstance(u, str)]
    if "consults" in data:
        deps += ["=" + u for u in data["consults"] if isinstance(u, str)]
    else:  # a file without the distinction: every call counts in full
        deps += ["=" + u for u in deps]
    return funcs, deps, list(data.get("inputs", []))


@functools.lru_cache(maxsize=None)
def _text_digest(text):
    return _digest(text.encode())


# The fields of a summary that say who it is, not what the function does.
_IDENTITY = ("usr", "name", "params")


@functools.lru_cache(maxsize=None)
def _shape(summary_json):
    """What the selection of callables reads of a summary: none (absent),
    "copies" (it leaves copies in flight), "effects" (anything else), or
    "inert" (nothing: the call is known to do nothing the check models)."""
    if summary_json is None:
        return None
    f = json.loads(summary_json)
    if f.get("copies"):
        return "copies"
    return "effects" if any(v for k, v in f.items() if k not in _IDENTITY) else "inert"


def _dependency(key, known):
    """The value of a dependency key (see _functions) under the summaries
    known (USR -> canonical JSON)."""
    if key.startswith("="):
        s = known.get(key[1:])
        return _text_digest(s) if s is not None else None
    shape = _shape(known.get(key))
    return None if shape == "inert" else shape  # selection: inert as none


def _join_members(known, by_unit, unit, funcs):
    """Records unit's stream-member origins (its "%" keys of funcs) in
    by_unit ({key: {unit: origin}}) and sets known[key] to the join of every
    unit's origin of that member (the sorted distinct origins, as JSON), as
    the check joins them; the keys whose join changed."""
    changed = set()
    mine = [k for k in by_unit if unit in by_unit[k]]
    for key in mine + [k for k in funcs if k.startswith("%")]:
        origins = by_unit.setdefault(key, {})
        if key in funcs:
            origins[unit] = funcs[key]
        else:
            origins.pop(unit, None)
        joined = json.dumps(sorted(set(origins.values()))) if origins else None
        if known.get(key) != joined:
            changed.add(key)
            if joined is None:
                known.pop(key, None)
            else:
                known[key] = joined
    return changed


_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def _providers_first(units):
    """The units in the order to run them cold: those likely to define what
    the others call first, so that their summaries are published before
    their callers start and the callers need no second run -- a unit whose
    name, without its extension, is that of a header at least two other
    units' main files include (the more, the earlier), then the larger main
    files (a project's hub, and the longest runs first). Only an order: the
    fixpoint makes the result the same."""
    stems, included, size = {}, {}, {}
    for u in units:
        stems[u] = os.path.splitext(os.path.basename(u))[0]
        try:
            with open(u, errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        size[u] = len(text)
        for h in set(_INCLUDE.findall(text)):
            stem = os.path.splitext(os.path.basename(h))[0]
            if stem != stems[u]:
                included[stem] = included.get(stem, 0) + 1

    def shared(u):
        n = included.get(stems[u], 0)
        return n if n >= 2 else 0
    return sorted(units, key=lambda u: (-shared(u), -size.get(u, 0), u))


def _config_files(unit):
    """The .clang-tidy files clang-tidy may read for a unit (in its
    directory and every directory above): their options change both its
    summary and its findings. Files that do not exist are listed too, so
    that one created later makes the unit stale."""
    out, d = [], os.path.dirname(unit)
    while True:
        out.append(os.path.join(d, ".clang-tidy"))
        up = os.path.dirname(d)
        if up == d:
            return out
        d = up


def _run_one(clang_tidy, plugin, db_dir, unit, out_dir, units_dir):
    """The check over one unit with the export on: (the summary file it
    wrote or None, the diagnostics it exported (-export-fixes; absent when
    it had none), its output, its exit status; None when it did not finish)."""
    env = dict(os.environ)
    env["CARS_SUMMARY_EXPORT_DIRECTORY"] = out_dir
    env["CARS_SUMMARY_IMPORT_PATHS"] = units_dir
    fixes = os.path.join(out_dir, "fixes.yaml")
    cmd = [clang_tidy, "--load=" + plugin, "--checks=-*," + CHECK, "--quiet",
           "-export-fixes", fixes, "-p", db_dir, unit]
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True, errors="replace", timeout=int(
                               os.environ.get("CARS_SUMMARY_TIMEOUT", "600")))
    except (OSError, subprocess.TimeoutExpired):
        return None, None, "", None
    written = [os.path.join(out_dir, n) for n in os.listdir(out_dir) if n.endswith(".json")]
    return (written[0] if len(written) == 1 else None, fixes, p.stdout, p.returncode)


def refresh(database, db_dir, clang_tidy, plugin, jobs=None, log=None, only=None):
    """Brings the summary cache of the compile database `database` (its
    translated copy in db_dir, which clang-tidy reads) up to date and
    returns its units directory. log(message) gets one line per round.
    With only (a collection of units), only those are run: a shard of a
    matrix job (the gate's --shard), the other units' summaries read from
    the cache as they are."""
    try:
        return _refresh(database, db_dir, clang_tidy, plugin, jobs, log, only)
    except OSError as e:  # the cache's files: one message, never a traceback
        raise SummaryError("the summary cache %s: %s" % (cache_dir(database), e))


def _refresh(database, db_dir, clang_tidy, plugin, jobs, log, only):
    log = log or (lambda m: None)
    root = cache_dir(database)
    units_dir = os.path.join(root, "units")
    results_dir = os.path.join(root, "results")
    index_path = os.path.join(root, "index.json")
    try:
        os.makedirs(units_dir, exist_ok=True)
        os.makedirs(results_dir, exist_ok=True)
    except OSError as e:
        raise SummaryError("cannot create the summary cache %s: %s" % (root, e))
    plugin_id = _plugin_identity(plugin)
    try:
        with open(index_path) as f:
            index = json.load(f)
        if index.get("plugin") != plugin_id:
            index = {}
    except (OSError, ValueError):
        index = {}
    if not index:
        # Another plugin's (or an unreadable index's) files would be read by
        # the runs as if they were current: the cache starts empty.
        for d in (units_dir, results_dir):
            for name in os.listdir(d):
                os.remove(os.path.join(d, name))
    entries = index.get("units", {}) if index else {}
    units = _units(os.path.join(db_dir, "compile_commands.json"))
    memo = {}

    def fresh(unit):
        e = entries.get(unit)
        if not e or e.get("command") != _command_digest(units[unit]):
            return False
        if e.get("summary") and not os.path.isfile(os.path.join(units_dir, e["summary"])):
            return False
        if e.get("rc") is None or not os.path.isfile(os.path.join(results_dir, e["output"])):
            return False
        return all(_file_digest(p, memo) == d for p, d in e.get("inputs", {}).items())

    def saw_current(unit):
        """Did the unit's last run read the summaries now known of the
        functions it depends on? (Its entry's "seen": what each was when the
        run began.)"""
        seen = entries.get(unit, {}).get("seen", {})
        return all(_dependency(k, known) == seen.get(k) for k in calls.get(unit, ()))

    # Units gone from the database take their summaries with them.
    for unit in list(entries):
        if unit not in units:
            _forget(entries.pop(unit), root)
    known = {}  # USR -> canonical JSON, of the cached summaries
    members = {}  # "%" + USR -> {unit: origin} (_join_members)
    calls = {}  # unit -> its dependency keys (_functions)
    for unit, e in entries.items():
        if e.get("summary"):
            funcs, called, _ = _functions(os.path.join(units_dir, e["summary"]))
            known.update((k, v) for k, v in funcs.items() if not k.startswith("%"))
            _join_members(known, members, unit, funcs)
            calls[unit] = set(called)
    # A shard (only: the units it may run) leaves the others' entries as
    # they are, and reads their summaries from the cache.
    mine = set(units) if only is None else set(units) & set(only)
    todo = sorted(u for u in mine if not fresh(u) or not saw_current(u))
    jobs = max(1, jobs or os.cpu_count() or 1)
    rounds = 0
    # Each unit's summary is published into units/ as soon as its run ends,
    # so that a unit started later already reads it. Each unit's entry keeps
    # what the summaries of the functions it calls were when its run began
    # ("seen"; epochs count the runs that ended, history what changed when),
    # and a unit runs again while one of them differs from the one now
    # known: within this refresh (a bounded fixpoint), and in a later one,
    # also with a cache merged from shards (merge()).
    epoch, started = 0, {}
    history = {}  # USR -> [(epoch, its JSON or None)] of its changes in this refresh
    base = dict(known)

    def seen_at(key, when):
        usr = key.lstrip("=")
        value = base.get(usr)
        for e, summary in history.get(usr, ()):
            if e <= when:
                value = summary
        return _dependency(key, {usr: value} if value is not None else {})
    while todo and rounds < MAX_ROUNDS:
        rounds += 1
        work = tempfile.mkdtemp(prefix="cars-summaries-", dir=root)
        changed = set()

        def publish(unit, written):
            old = entries.get(unit, {}).get("summary")
            old_funcs = _functions(os.path.join(units_dir, old))[0] if old else {}
            new, fixes, output, rc = written
            funcs, called, inputs = _functions(new) if new else ({}, [], [])
            name = _name_of(unit)
            if new:
                shutil.move(new, os.path.join(units_dir, name))
            elif old:
                os.remove(os.path.join(units_dir, old))
            for key in _join_members(known, members, unit, funcs):
                changed.add(key)
                history.setdefault(key, []).append((epoch, known.get(key)))
            for usr in set(old_funcs) | set(funcs):
                if usr.startswith("%"):
                    continue  # stream members: joined above
                if usr in funcs:
                    known[usr] = funcs[usr]
                else:
                    known.pop(usr, None)
                if old_funcs.get(usr) != funcs.get(usr):
                    changed.add(usr)
                    history.setdefault(usr, []).append((epoch, known.get(usr)))
            calls[unit] = set(called)
            # The findings of this run (same parse as the summary).
            result = name[:-len(".json")]
            with open(os.path.join(results_dir, result + ".out"), "w") as f:
                f.write(output)
            kept = os.path.join(results_dir, result + ".yaml")
            if fixes and os.path.isfile(fixes):
                shutil.move(fixes, kept)
            elif os.path.exists(kept):
                os.remove(kept)
            files = set(inputs) | {unit} | set(_config_files(unit))
            entries[unit] = {
                "command": _command_digest(units[unit]),
                "summary": name if new else None,
                "inputs": {p: _file_digest(p, memo) for p in sorted(files)},
                "output": result + ".out",
                "fixes": result + ".yaml" if os.path.isfile(kept) else None,
                "rc": rc,
                "seen": {k: seen_at(k, started[unit]) for k in sorted(called)},
                "time": time.time(),
            }

        try:
            waiting, running = _providers_first(todo), {}
            with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
                while waiting or running:
                    while waiting and len(running) < jobs:
                        unit = waiting.pop(0)
                        out = os.path.join(work, str(epoch) + "-" + str(len(running)))
                        os.makedirs(out)
                        started[unit] = epoch
                        running[pool.submit(_run_one, clang_tidy, plugin, db_dir, unit, out,
                                            units_dir)] = unit
                    done, _ = concurrent.futures.wait(
                        running, return_when=concurrent.futures.FIRST_COMPLETED)
                    for future in done:
                        epoch += 1
                        publish(running.pop(future), future.result())
        finally:
            shutil.rmtree(work, ignore_errors=True)
        log("summaries: round %d: %d translation unit%s, %d function summar%s changed"
            % (rounds, len(todo), "" if len(todo) == 1 else "s", len(changed),
               "y" if len(changed) == 1 else "ies"))
        # The units whose last run did not see a summary now known see it next.
        todo = sorted(u for u in mine if u in entries and not saw_current(u))
    if todo:
        log("summaries: stopped after %d rounds; %d translation unit%s may still see "
            "an older summary of a function they call"
            % (MAX_ROUNDS, len(todo), "" if len(todo) == 1 else "s"))
        for unit in todo:  # computed again next time; their findings are not final
            entries[unit]["rc"] = None
    try:
        with open(index_path + ".tmp", "w") as f:
            json.dump({"plugin": plugin_id, "units": entries}, f, indent=1, sort_keys=True)
        os.replace(index_path + ".tmp", index_path)
    except OSError as e:
        raise SummaryError("cannot write the summary cache %s: %s" % (index_path, e))
    return units_dir


def _cached_files(entry):
    """The files of a unit's cache entry, as (folder, name): its summary
    under units/, its output and its exported diagnostics under results/."""
    return [(sub, entry[key]) for sub, key in
            (("units", "summary"), ("results", "output"), ("results", "fixes"))
            if entry.get(key)]


def _forget(entry, root):
    """Removes the cached files of a unit gone from the database."""
    for sub, name in _cached_files(entry):
        try:
            os.remove(os.path.join(root, sub, name))
        except OSError:
            pass


def results(database, db_dir, regexes=(), only=None):
    """The check's findings from the runs of the last refresh, for the units
    of the translated database in db_dir that run-clang-tidy would select
    with the file regexes (every unit without any), and of only (a
    shard's units) when given. Returns (the units it has final findings
    for, the paths of their exported diagnostics, their clang-tidy output,
    the highest exit status, the units it has no final findings for: a unit
    that did not finish, or one the fixpoint stopped short of). Call it right after
    refresh(): the findings are final when the summaries each unit saw are
    those in the cache."""
    root = cache_dir(database)
    results_dir = os.path.join(root, "results")
    try:
        with open(os.path.join(root, "index.json")) as f:
            entries = json.load(f).get("units", {})
    except (OSError, ValueError, AttributeError):
        entries = {}
    patterns = [re.compile(r) for r in regexes]
    done, fixes, output, rc, missing = [], [], [], 0, []
    for unit in database_units(db_dir):
        if (patterns and not any(p.search(unit) for p in patterns)) or (
                only is not None and unit not in only):
            continue
        e = entries.get(unit) or {}
        out = os.path.join(results_dir, e.get("output") or "-")
        if e.get("rc") is None or not os.path.isfile(out):
            missing.append(unit)
            continue
        done.append(unit)
        with open(out, errors="replace") as f:
            output.append(f.read())
        if e.get("fixes"):
            fixes.append(os.path.join(results_dir, e["fixes"]))
        rc = max(rc, e["rc"] if e["rc"] >= 0 else 1)
    return done, fixes, "".join(output), rc, missing


def shard(units, spec):
    """The units of shard K of N (spec "K/N", 1 <= K <= N): every Nth of
    the sorted units, from the Kth. ValueError on a malformed spec."""
    k, _, n = spec.partition("/")
    k, n = int(k), int(n)
    if not 1 <= k <= n:
        raise ValueError("shard %s: K must be between 1 and N" % spec)
    return [u for i, u in enumerate(sorted(units)) if i % n == k - 1]


def database_units(db_dir):
    """The units (real paths of main files) of the compile database in
    db_dir, as refresh and results name them."""
    return sorted(_units(os.path.join(db_dir, "compile_commands.json")))


def merge(sources, database, log=None):
    """Merges summary caches (each a cars-summaries directory, e.g. the
    shards' of a matrix job) into the cache of `database`: per unit, the
    entry of the run that ended last (its summary and findings with it).
    Caches of another plugin or cache version are skipped with a message
    (log). Returns the number of units merged."""
    log = log or (lambda m: None)
    root = cache_dir(database)
    index_path = os.path.join(root, "index.json")
    try:
        return _merge(sources, root, index_path, log)
    except OSError as e:
        raise SummaryError("merging into the summary cache %s: %s" % (root, e))


def _merge(sources, root, index_path, log):
    target = os.path.realpath(root)

    def is_target(src):
        return os.path.realpath(src) == target

    if os.path.isfile(index_path):  # the cache merged into takes part too
        sources = [root] + [s for s in sources if not is_target(s)]
    loaded = []
    for src in sources:
        try:
            with open(os.path.join(src, "index.json")) as f:
                loaded.append((src, json.load(f)))
        except (OSError, ValueError) as e:
            log("summaries: %s is not a summary cache (%s): skipped" % (src, e))
    if not loaded:
        return 0
    # The plugin is the first given cache's: the one merged into may hold an
    # older plugin's (a build before an upgrade), whose files then go.
    given = [(src, index) for src, index in loaded if not is_target(src)]
    plugin = (given or loaded)[0][1].get("plugin")
    best = {}
    for src, index in loaded:
        if index.get("plugin") != plugin:
            log("summaries: %s was computed by another plugin or cache version: skipped" % src)
            if is_target(src):
                for sub in ("units", "results"):
                    shutil.rmtree(os.path.join(root, sub), ignore_errors=True)
            continue
        for unit, e in index.get("units", {}).items():
            if e.get("rc") is not None and (unit not in best or
                                            e.get("time", 0) > best[unit][1].get("time", 0)):
                best[unit] = (src, e)
    for sub in ("units", "results"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    for unit, (src, e) in best.items():
        if not is_target(src):
            for sub, name in _cached_files(e):
                shutil.copyfile(os.path.join(src, sub, name), os.path.join(root, sub, name))
    with open(index_path + ".tmp", "w") as f:
        json.dump({"plugin": plugin, "units": {u: e for u, (_, e) in best.items()}}, f,
                  indent=1, sort_keys=True)
    os.replace(index_path + ".tmp", index_path)
    return len(best)
