#!/usr/bin/env bash
# Drives the real pre-commit for precommit-prefix.test: the hook, run from
# pre-commit's clone (which has no build), finds a plugin installed with
# `cmake --install BUILD --prefix PREFIX` when PREFIX/bin is on PATH, or
# when the hook is given `--plugin=PREFIX`; without either, the error lists
# where it looked. CARS_PLUGIN is unset throughout.
#
#   precommit-prefix.sh WORKDIR REPO_ROOT BUILD_DIR "MOCK CUDA FLAGS"
set -uo pipefail
work=$1 root=$2 build=$3 flags=$4
unset CARS_PLUGIN CARS_BUILD_DIR
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
echo "hook rev: $rev"

config() {  # the project's .pre-commit-config.yaml, with these hook args
  cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: cuda-async-read-before-sync
        args: [$1]
YAML
}
proj=$work/project
mkdir -p "$proj/build" && cd "$proj" && git init -q
config "-p, build"
echo build/ > .gitignore
/usr/bin/python3 "$root/test/integration/Inputs/make_db.py" build $flags -- "$proj/copy.cu"
git add .pre-commit-config.yaml .gitignore && git commit -qm config
pre-commit install >/dev/null || exit 1
cp "$root/examples/seed_race.cu" copy.cu && git add copy.cu

echo "== not installed"
if [ -e /usr/lib/cuda-async-read-before-sync/CudaAsyncReadBeforeSync.so ] ||
   [ -e /usr/local/lib/cuda-async-read-before-sync/CudaAsyncReadBeforeSync.so ]; then
  echo "skipped: a plugin is installed under /usr"
else
  git commit -m racy 2>&1
fi
echo "commit status $?"

cmake --install "$build" --prefix "$work/prefix" >/dev/null || exit 1
echo "== installed to a prefix, PREFIX/bin on PATH"
PATH=$work/prefix/bin:$PATH git commit -m racy 2>&1
echo "commit status $?"

echo "== installed to a prefix, args: [--plugin=PREFIX]"
config "-p, build, --plugin=$work/prefix" && git add .pre-commit-config.yaml
git commit -m racy 2>&1
echo "commit status $?"

echo "== the installed plugin built from another commit"
tc=$work/prefix/lib/cuda-async-read-before-sync/CudaAsyncReadBeforeSync.toolchain.json
/usr/bin/python3 -c "import json, sys; t = json.load(open(sys.argv[1])); t['commit'] = '0' * 40; \
json.dump(t, open(sys.argv[1], 'w'))" "$tc"
git commit -m racy 2>&1
echo "commit status $?"
