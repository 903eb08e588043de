"""Runs one job of a GitHub Actions workflow here, the way a runner would,
for test/integration/workflow.test: its `run:` steps for real (bash, in the
workspace, with the workflow's env, GITHUB_* variables and GITHUB_OUTPUT),
its `if:` conditions evaluated, and the GitHub-only actions stubbed:

  actions/checkout            without `repository`: a clone of --repo (the
                              user's project; fetch-depth honoured); with
                              one: a copy of --tool-source's tracked and
                              untracked-but-not-ignored files (this
                              repository's working tree stands for the
                              pinned tag) at `path`
  actions/cache/restore, actions/cache/save
                              a directory per key under --cache
  github/codeql-action/upload-sarif
                              copies `sarif_file` to --artifacts

The job's container image is not started: the steps run on this machine
(Debian 12 itself in CI). Prints one line per step (ran: exit status, or
skipped) and `job: success` / `job: failure`; exit status 0, or 2 on a
workflow this stub cannot run (an unknown action, an expression it cannot
evaluate). Needs PyYAML (Debian's python3-yaml).

    run_workflow.py WORKFLOW --job lint --workspace DIR --repo GIT_DIR
        --tool-source DIR --cache DIR --artifacts DIR
        --event push|pull_request [--base-ref main] [--ref BRANCH]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml


class Unsupported(Exception):
    pass


EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\))"
                   r"|(?P<call>(?:always|success|failure|cancelled)\(\))"
                   r"|(?P<name>[A-Za-z_][A-Za-z0-9_.-]*))")


def evaluate(expr, ctx, status):
    """A GitHub expression over ctx (a nested dict: github, env, steps,
    runner), as a Python value. Supports what workflows' `if:` and `${{ }}`
    mostly use: context lookups, string literals, ==, !=, &&, ||, !,
    parentheses and the status functions."""
    out, pos = [], 0
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            raise Unsupported("cannot evaluate %r" % expr)
        pos = m.end()
        if m.group("str"):
            out.append(repr(m.group("str")[1:-1].replace("''", "'")))
        elif m.group("op"):
            out.append({"&&": " and ", "||": " or ", "!": " not "}.get(m.group("op"), m.group("op")))
        elif m.group("call"):
            fn = m.group("call")[:-2]
            out.append(repr({"always": True, "success": status == "success",
                             "failure": status == "failure", "cancelled": False}[fn]))
        else:
            name = m.group("name")
            if name in ("true", "false"):
                out.append(repr(name == "true"))
                continue
            value = ctx
            for part in name.split("."):
                value = value.get(part, "") if isinstance(value, dict) else ""
            out.append(repr(value))
    return eval("".join(out), {"__builtins__": {}})  # only literals and operators remain


def substitute(text, ctx, status):
    return EXPR.sub(lambda m: str(evaluate(m.group(1), ctx, status)), text)


def copy_tree(src, dst):
    """src's tracked and untracked-but-not-ignored files, as a checkout of
    its working tree would have them."""
    files = subprocess.run(["git", "-C", src, "ls-files", "-z", "-co", "--exclude-standard"],
                           check=True, capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        s = os.path.join(src, rel)
        if not os.path.isfile(s):
            continue  # deleted in the working tree
        d = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(s, d)


def action(step, uses, w, ns, ctx, outputs):
    name = uses.split("@")[0]
    if name == "actions/checkout":
        path = os.path.join(ns.workspace, w.get("path", "."))
        if w.get("repository"):
            print("  checkout %s at %s -> %s (stub: the tool's working tree)"
                  % (w["repository"], w.get("ref", "?"), w.get("path", ".")))
            os.makedirs(path, exist_ok=True)
            copy_tree(ns.tool_source, path)
            return 0
        depth = str(w.get("fetch-depth", 1))
        cmd = ["git", "clone", "-q", "--branch", ns.ref]
        if depth != "0":
            cmd += ["--depth", depth]
        tmp = tempfile.mkdtemp(dir=ns.workspace)
        rc = subprocess.call(cmd + ["file://" + os.path.abspath(ns.repo), tmp])
        for entry in os.listdir(tmp):
            os.rename(os.path.join(tmp, entry), os.path.join(path, entry))
        os.rmdir(tmp)
        return rc
    if name in ("actions/cache/restore", "actions/cache/save"):
        stored = os.path.join(ns.cache, re.sub(r"[^A-Za-z0-9._-]", "_", w["key"]))
        path = os.path.join(ns.workspace, w["path"])
        if name.endswith("restore"):
            hit = os.path.isdir(stored)
            if hit:
                shutil.copytree(stored, path, symlinks=True)
            outputs["cache-hit"] = "true" if hit else "false"
            print("  cache %s: %s" % (w["key"], "hit" if hit else "miss"))
            return 0
        if os.path.isdir(stored):
            return 0
        shutil.copytree(path, stored, symlinks=True)
        print("  cache %s: saved" % w["key"])
        return 0
    if name == "github/codeql-action/upload-sarif":
        src = os.path.join(ns.workspace, w["sarif_file"])
        if not os.path.isfile(src):
            print("  upload-sarif: %s not found" % w["sarif_file"])
            return 1
        os.makedirs(ns.artifacts, exist_ok=True)
        shutil.copy(src, os.path.join(ns.artifacts, os.path.basename(src)))
        print("  upload-sarif: %s (category %s)" % (w["sarif_file"], w.get("category", "-")))
        return 0
    raise Unsupported("no stub for action %s" % uses)


def run_job(ns, job, workflow_env):
    os.makedirs(ns.workspace, exist_ok=True)
    runner_temp = tempfile.mkdtemp(prefix="runner-temp-")
    ctx = {"github": {"event_name": ns.event, "base_ref": ns.base_ref if ns.event == "pull_request" else "",
                      "ref_name": ns.ref, "workspace": ns.workspace},
           "runner": {"temp": runner_temp, "os": "Linux"},
           "env": {}, "steps": {}}
    env = dict(os.environ, CI="true", GITHUB_ACTIONS="true", GITHUB_WORKSPACE=ns.workspace,
               GITHUB_EVENT_NAME=ns.event, GITHUB_BASE_REF=ctx["github"]["base_ref"],
               GITHUB_REF_NAME=ns.ref, RUNNER_TEMP=runner_temp)
    for k, v in list(workflow_env.items()) + list((job.get("env") or {}).items()):
        env[k] = ctx["env"][k] = substitute(str(v), ctx, "success")
    status = "success"
    for k, step in enumerate(job["steps"], 1):
        label = step.get("name") or step.get("uses") or "step %d" % k
        cond = step.get("if", "success()")
        cond = EXPR.sub(lambda m: m.group(1), str(cond))
        if not re.search(r"\b(always|success|failure|cancelled)\(\)", cond):
            cond = "success() && (%s)" % cond
        if not evaluate(cond, ctx, status):
            print("step %d: %s: skipped" % (k, label))
            continue
        outputs = {}
        if "uses" in step:
            w = {key: substitute(str(v), ctx, status) for key, v in (step.get("with") or {}).items()}
            rc = action(step, step["uses"], w, ns, ctx, outputs)
        else:
            script = substitute(step["run"], ctx, status)
            out_file = os.path.join(runner_temp, "output-%d" % k)
            open(out_file, "w").close()
            with tempfile.NamedTemporaryFile("w", suffix=".sh", dir=runner_temp, delete=False) as f:
                f.write(script)
            shell = step.get("shell", "bash")
            cmd = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail", f.name],
                   "sh": ["sh", "-e", f.name]}.get(shell)
            if cmd is None:
                raise Unsupported("shell %s" % shell)
            sys.stdout.flush()
            rc = subprocess.call(cmd, cwd=os.path.join(ns.workspace, step.get("working-directory", ".")),
                                 env=dict(env, GITHUB_OUTPUT=out_file))
            with open(out_file) as f:
                for line in f:
                    key, sep, value = line.rstrip("\n").partition("=")
                    if sep:
                        outputs[key] = value
        print("step %d: %s: exit %d" % (k, label, rc), flush=True)
        if step.get("id"):
            ctx["steps"][step["id"]] = {"outputs": outputs,
                                        "outcome": "success" if rc == 0 else "failure"}
        if rc != 0 and not step.get("continue-on-error"):
            status = "failure"
    print("job: %s" % status)
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workflow")
    ap.add_argument("--job", required=True)
    ap.add_argument("--workspace", required=True)
    ap.add_argument("--repo", required=True, help="the user's project: a git repository")
    ap.add_argument("--tool-source", required=True, help="stands for the check's repository at its tag")
    ap.add_argument("--cache", required=True)
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--event", choices=("push", "pull_request"), required=True)
    ap.add_argument("--base-ref", default="main")
    ap.add_argument("--ref", default="main", help="the branch checked out")
    ns = ap.parse_args()
    ns.workspace = os.path.abspath(ns.workspace)
    with open(ns.workflow) as f:
        wf = yaml.safe_load(f)
    # PyYAML reads the key `on` as True (YAML 1.1).
    triggers = wf.get("on", wf.get(True))
    if ns.event not in (triggers if isinstance(triggers, (list, dict)) else [triggers]):
        print("the workflow does not run on %s" % ns.event)
        return 2
    try:
        run_job(ns, wf["jobs"][ns.job], wf.get("env") or {})
    except Unsupported as e:
        print("run_workflow: unsupported: %s" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
