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

Standard library only. Errors that stop the summaries (an unreadable
database, an unwritable cache) raise SummaryError; the callers then say so
and run the check without summaries.
"""
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import tempfile

CHECK = "cuda-async-read-before-sync"
FORMAT = "cuda-async-read-before-sync-summaries"
# The cache's own layout; a change of it or of the plugin empties the cache.
CACHE_VERSION = 1
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
    try:
        st = os.stat(plugin)
        return "%s:%d:%d:%d" % (os.path.realpath(plugin), st.st_size, st.st_mtime_ns,
                                CACHE_VERSION)
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
    """{USR: the function's JSON, canonical} and the called USRs of a summary
    file, or ({}, []) when it cannot be read."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}, [], []
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}, [], []
    funcs = {f["usr"]: json.dumps(f, sort_keys=True)
             for f in data.get("functions", []) if isinstance(f, dict) and "usr" in f}
    return funcs, list(data.get("calls", [])), list(data.get("inputs", []))


def _run_one(clang_tidy, plugin, db_dir, unit, out_dir, units_dir):
    """The check over one unit with the export on (its output dropped):
    the summary file it wrote, or None."""
    env = dict(os.environ)
    env["CARS_SUMMARY_EXPORT_DIRECTORY"] = out_dir
    env["CARS_SUMMARY_IMPORT_PATHS"] = units_dir
    cmd = [clang_tidy, "--load=" + plugin, "--checks=-*," + CHECK, "--quiet",
           "-p", db_dir, unit]
    try:
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=int(
                           os.environ.get("CARS_SUMMARY_TIMEOUT", "600")))
    except (OSError, subprocess.TimeoutExpired):
        return None
    written = [os.path.join(out_dir, n) for n in os.listdir(out_dir) if n.endswith(".json")]
    return written[0] if len(written) == 1 else None


def refresh(database, db_dir, clang_tidy, plugin, jobs=None, log=None):
    """Brings the summary cache of the compile database `database` (its
    translated copy in db_dir, which clang-tidy reads) up to date and
    returns its units directory. log(message) gets one line per round."""
    log = log or (lambda m: None)
    root = cache_dir(database)
    units_dir = os.path.join(root, "units")
    index_path = os.path.join(root, "index.json")
    try:
        os.makedirs(units_dir, exist_ok=True)
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
    entries = index.get("units", {}) if index else {}
    units = _units(os.path.join(db_dir, "compile_commands.json"))
    memo = {}

    def fresh(unit):
        e = entries.get(unit)
        if not e or e.get("command") != _command_digest(units[unit]):
            return False
        if e.get("summary") and not os.path.isfile(os.path.join(units_dir, e["summary"])):
            return False
        return all(_file_digest(p, memo) == d for p, d in e.get("inputs", {}).items())

    # Units gone from the database take their summaries with them.
    for unit in list(entries):
        if unit not in units:
            if entries[unit].get("summary"):
                try:
                    os.remove(os.path.join(units_dir, entries[unit]["summary"]))
                except OSError:
                    pass
            del entries[unit]
    known = {}  # USR -> canonical JSON, of the cached summaries
    calls = {}  # unit -> USRs it calls without a body
    for unit, e in entries.items():
        if e.get("summary"):
            funcs, called, _ = _functions(os.path.join(units_dir, e["summary"]))
            known.update(funcs)
            calls[unit] = set(called)
    todo = sorted(u for u in units if not fresh(u))
    jobs = max(1, jobs or os.cpu_count() or 1)
    rounds = 0
    while todo and rounds < MAX_ROUNDS:
        rounds += 1
        work = tempfile.mkdtemp(prefix="cars-summaries-", dir=root)
        try:
            outs = {}
            for n, unit in enumerate(todo):
                outs[unit] = os.path.join(work, str(n))
                os.makedirs(outs[unit])
            with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
                written = dict(zip(todo, pool.map(
                    lambda u: _run_one(clang_tidy, plugin, db_dir, u, outs[u], units_dir),
                    todo)))
            changed = set()
            for unit in todo:
                old = entries.get(unit, {}).get("summary")
                old_funcs = _functions(os.path.join(units_dir, old))[0] if old else {}
                new = written[unit]
                funcs, called, inputs = _functions(new) if new else ({}, [], [])
                name = _name_of(unit)
                if new:
                    shutil.move(new, os.path.join(units_dir, name))
                elif old:
                    os.remove(os.path.join(units_dir, old))
                for usr in set(old_funcs) | set(funcs):
                    if old_funcs.get(usr) != funcs.get(usr):
                        changed.add(usr)
                    if usr in funcs:
                        known[usr] = funcs[usr]
                    else:
                        known.pop(usr, None)
                calls[unit] = set(called)
                files = set(inputs) | {unit}
                entries[unit] = {
                    "command": _command_digest(units[unit]),
                    "summary": name if new else None,
                    "inputs": {p: _file_digest(p, memo) for p in sorted(files)},
                }
        finally:
            shutil.rmtree(work, ignore_errors=True)
        log("summaries: round %d: %d translation unit%s, %d function summar%s changed"
            % (rounds, len(todo), "" if len(todo) == 1 else "s", len(changed),
               "y" if len(changed) == 1 else "ies"))
        # The units that call a function whose summary changed see it next.
        todo = sorted(u for u, c in calls.items() if c & changed)
    if todo:
        log("summaries: stopped after %d rounds; %d translation unit%s may still see "
            "an older summary of a function they call"
            % (MAX_ROUNDS, len(todo), "" if len(todo) == 1 else "s"))
        for unit in todo:  # computed again next time
            entries.pop(unit, None)
    try:
        with open(index_path + ".tmp", "w") as f:
            json.dump({"plugin": plugin_id, "units": entries}, f, indent=1, sort_keys=True)
        os.replace(index_path + ".tmp", index_path)
    except OSError as e:
        raise SummaryError("cannot write the summary cache %s: %s" % (index_path, e))
    return units_dir
