"""One clang-tidy process, measured: shared by bench/real_tus.py and
bench/long_functions.py (import it from the same folder).

run_tidy() runs clang-tidy with the plugin loaded and exactly one check
enabled, and returns the check's own time (from --store-check-profile:
user + system seconds of its matchers and callbacks, end of translation
unit included), the whole process's CPU seconds and peak resident memory
(from wait4), its output, and the plugin's CARS_PROFILE line when asked
for. A process that exits non-zero is returned as such (rc), not raised.
"""
import collections
import json
import os
import re
import subprocess
import tempfile
import time

Result = collections.namedtuple(
    "Result", "check_s cpu_s peak_mib rc stdout stderr profile")

PROFILE_RE = re.compile(r"^cuda-async-read-before-sync profile: (.*)$", re.M)


def parse_profile(line):
    """The key=value fields of a CARS_PROFILE line (numbers as floats)."""
    out = {}
    for item in (line or "").split():
        if "=" in item:
            k, v = item.split("=", 1)
            try:
                out[k] = float(v)
            except ValueError:
                out[k] = v
    return out


def _wait(proc, timeout):
    """Reaps the child with wait4: (exit status, CPU s, peak RSS MiB);
    past timeout seconds it is killed (status -9)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        flags = 0 if deadline is None else os.WNOHANG
        pid, status, ru = os.wait4(proc.pid, flags)
        if pid == proc.pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            deadline = None
        else:
            time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def run_tidy(clang_tidy, plugin, check, path, flags, cwd=None,
             profile=False, timeout=None):
    env = dict(os.environ)
    env.pop("CARS_PROFILE", None)
    if profile:
        env["CARS_PROFILE"] = "1"
    with tempfile.TemporaryDirectory() as store, \
            tempfile.TemporaryFile("w+") as out, \
            tempfile.TemporaryFile("w+") as err:
        cmd = [clang_tidy, "--load=" + plugin, "-checks=-*," + check,
               "--quiet", "--enable-check-profile",
               "--store-check-profile=" + store, path, "--"] + list(flags)
        proc = subprocess.Popen(cmd, cwd=cwd or os.path.dirname(path),
                                env=env, stdout=out, stderr=err, text=True)
        rc, cpu, peak = _wait(proc, timeout)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
        check_s = 0.0
        for name in os.listdir(store):
            with open(os.path.join(store, name)) as f:
                prof = json.load(f).get("profile", {})
            for key in ("user", "sys"):
                check_s += prof.get("time.clang-tidy.%s.%s" % (check, key),
                                    0.0)
    m = PROFILE_RE.search(stderr)
    return Result(check_s, cpu, peak, rc, stdout, stderr,
                  parse_profile(m.group(1)) if m else None)
