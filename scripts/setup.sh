#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages), configures and builds the
# plugin. Sourced by the other scripts; safe to run again (it only installs
# what is absent and rebuilds what changed).
#
# Environment: CARS_LLVM_MAJOR (default 22), BUILD_DIR (default ./build).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LLVM_MAJOR=${CARS_LLVM_MAJOR:-22}
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
PACKAGES=(cmake make python3 "clang-$LLVM_MAJOR" "clang-tidy-$LLVM_MAJOR"
          "libclang-$LLVM_MAJOR-dev" "llvm-$LLVM_MAJOR-dev"
          "llvm-$LLVM_MAJOR-tools"
          # omp.h for clang -fopenmp: code built with -Xcompiler -fopenmp
          # (tools/cars_compdb.py). One libomp-N-dev at a time: installing
          # another major's replaces it.
          "libomp-$LLVM_MAJOR-dev"
          # test/integration: the pre-commit hook, the CI gate's SARIF, git.
          git pre-commit python3-yaml python3-jsonschema)

# Only for the test suite (scripts/run-tests.sh sets CARS_TEST_PACKAGES=1):
# the real HIP and libtorch headers that the real-header tests parse, and
# flake8 for the Python front end's plugin tests (python3-venv,
# python3-wheel and python3-setuptools: flake8-venv.test installs the
# plugin into a venv, offline).
if [ "${CARS_TEST_PACKAGES:-0}" = 1 ]; then
  PACKAGES+=(libamdhip64-dev libtorch-dev flake8 python3-venv python3-wheel python3-setuptools)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

mkdir -p "$BUILD_DIR"
LLVM_ROOT=/usr/lib/llvm-$LLVM_MAJOR
export CLANG_TIDY=$LLVM_ROOT/bin/clang-tidy
export PLUGIN=$BUILD_DIR/checker/CudaAsyncReadBeforeSync.so
export LIT=$LLVM_ROOT/bin/lit
[ -x "$LIT" ] || LIT=$LLVM_ROOT/build/utils/lit/lit.py # LLVM 19

cmake -S "$ROOT" -B "$BUILD_DIR" -DCARS_LLVM_MAJOR="$LLVM_MAJOR" \
  -DCMAKE_BUILD_TYPE=Release >"$BUILD_DIR/configure.log" 2>&1 \
  || { cat "$BUILD_DIR/configure.log" >&2; exit 1; }
cmake --build "$BUILD_DIR" -j"$(nproc)" >"$BUILD_DIR/build.log" 2>&1 \
  || { cat "$BUILD_DIR/build.log" >&2; exit 1; }
echo "setup: built $PLUGIN" >&2
