#!/usr/bin/env bash
# Drives the real pre-commit for precommit.test: a throw-away copy of this
# repository's hook (its .pre-commit-hooks.yaml and tools/, committed, as
# pre-commit needs a rev), a throw-away project that adds it to its
# .pre-commit-config.yaml, a racy commit that must be refused, a fixed one
# that must go through.
#
#   precommit.sh WORKDIR REPO_ROOT "MOCK CUDA FLAGS"
set -uo pipefail
work=$1 root=$2 flags=$3
rm -rf "$work" && mkdir -p "$work"
export HOME=$work/home PRE_COMMIT_HOME=$work/cache
mkdir -p "$HOME"
git config --global user.name test && git config --global user.email test@localhost
git config --global init.defaultBranch main

hooks=$work/hook-repo
mkdir -p "$hooks/checker" && cp -r "$root/.pre-commit-hooks.yaml" "$root/tools" "$hooks/"
cp -r "$root/checker/python" "$hooks/checker/"
find "$hooks" -name __pycache__ -prune -exec rm -rf {} +
git -C "$hooks" init -q && git -C "$hooks" add -A && git -C "$hooks" commit -qm hook
rev=$(git -C "$hooks" rev-parse HEAD)

proj=$work/project
mkdir -p "$proj/build" && cd "$proj" && git init -q
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: cuda-async-read-before-sync
        args: [-p, build]
YAML
echo build/ > .gitignore
/usr/bin/python3 "$root/test/integration/Inputs/make_db.py" build $flags -- "$proj/copy.cu" "$proj/notes.txt"
git add .pre-commit-config.yaml .gitignore && git commit -qm config
pre-commit install >/dev/null || exit 1

echo "== racy commit"
cp "$root/examples/seed_race.cu" copy.cu && echo "not C++" > notes.txt
git add copy.cu notes.txt
git commit -m racy 2>&1
echo "commit status $?"
echo "== fixed commit"
cp "$root/examples/seed_fixed_sync.cu" copy.cu && git add copy.cu
git commit -m fixed 2>&1
echo "commit status $?"
git log --format='log: %s'

# A clean source staged alone, including an unstaged header with a finding:
# the hook lints what is staged, so the commit goes through.
echo "== clean source, racy header not staged"
cp "$root/test/integration/Inputs/header-finding/download.cuh" download.cuh
printf '#include "download.cuh"\nint clean() { return 0; }\n' > uses.cu
/usr/bin/python3 "$root/test/integration/Inputs/make_db.py" build $flags -- "$proj/copy.cu" "$proj/uses.cu"
git add uses.cu
git commit -m uses 2>&1
echo "commit status $?"
echo "== the racy header staged"
git add download.cuh
git commit -m header 2>&1
echo "commit status $?"
git reset -q HEAD download.cuh

echo "== no compile database"
mv build build.away
touch other.cu && git add other.cu
git commit -m other 2>&1
echo "commit status $?"
mv build.away build

# Python files: the Python front end, with no compile database and no plugin.
echo "== racy python commit, no compile database"
git reset -q HEAD other.cu && rm -f other.cu
mv build build.away
cp "$root/examples/seed_race.py" train.py && git add train.py
CARS_PLUGIN=/nonexistent git commit -m racy-python 2>&1
echo "commit status $?"
echo "== fixed python commit"
cp "$root/examples/seed_fixed_sync.py" train.py && git add train.py
CARS_PLUGIN=/nonexistent git commit -m fixed-python 2>&1
echo "commit status $?"
mv build.away build
