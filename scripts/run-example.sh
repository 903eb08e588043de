#!/usr/bin/env bash
# Quick start, step 1: install what is missing, build the plugin, and run the
# check on the bundled example (the seed's racy loop and its two fixes, in
# CUDA C++ and in PyTorch Python).
# Prints the check's warnings and a one-line summary; exits 0.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$ROOT/scripts/setup.sh"

# The real CUDA headers where the toolkit is installed, the mock ones
# (test/Inputs) elsewhere: the check itself needs no GPU and no toolkit.
if [ -f /usr/local/cuda/include/cuda_runtime.h ]; then
  CUDA_FLAGS=(-x cuda --cuda-path=/usr/local/cuda --cuda-host-only -nocudalib
              --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version)
else
  CUDA_FLAGS=(-x cuda --cuda-host-only -nocudainc -nocudalib
              -isystem "$ROOT/test/Inputs")
fi
total=0 warned=() silent=()
for f in seed_race.cu seed_fixed_sync.cu seed_fixed_event.cu; do
  echo "== examples/$f"
  out=$("$CLANG_TIDY" --quiet --load="$PLUGIN" \
    -checks='-*,cuda-async-read-before-sync' \
    "$ROOT/examples/$f" -- "${CUDA_FLAGS[@]}" 2>/dev/null || true)
  [ -n "$out" ] && printf '%s\n' "$out"
  n=$(printf '%s\n' "$out" | grep -c ': warning: ' || true)
  total=$((total + n))
  if [ "$n" -gt 0 ]; then warned+=("$f ($n)"); else silent+=("$f"); fi
done
# The same seed in PyTorch Python, through the launcher (the Python front
# end: no plugin or toolkit needed for it).
for f in seed_race.py seed_fixed_sync.py seed_fixed_side_stream.py seed_fix2_no_wait.py; do
  echo "== examples/$f"
  out=$(/usr/bin/python3 "$ROOT/tools/cuda-async-read-before-sync" --quiet "$ROOT/examples/$f" 2>/dev/null || true)
  [ -n "$out" ] && printf '%s\n' "$out"
  n=$(printf '%s\n' "$out" | grep -c ': warning: ' || true)
  total=$((total + n))
  if [ "$n" -gt 0 ]; then warned+=("$f ($n)"); else silent+=("$f"); fi
done
echo "== summary: $total warning(s): ${warned[*]:-none}; silent: ${silent[*]:-none}"
