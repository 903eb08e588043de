#!/usr/bin/env bash
# Quick start, step 2 (and CI): install what is missing, build the plugin,
# and run every test: the lit suites (test/ and runtime/cases/) and, where
# present, the runtime corpus's agreement check against the committed GPU
# verdicts. Exits non-zero on any failure.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CARS_TEST_PACKAGES=1
source "$ROOT/scripts/setup.sh" || exit 1

status=0
suites=("$BUILD_DIR/test/checker")
[ -d "$BUILD_DIR/test/runtime-cases" ] && suites+=("$BUILD_DIR/test/runtime-cases")
log=$(mktemp)
"$LIT" -sv "${suites[@]}" 2>&1 | tee "$log" || status=1
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
echo "lit: ${passed:-0} passed, ${failed:-0} failed"
rm -f "$log"

# The GPU verdicts need nvcc (and clang 22 for CUDA 13's headers).
if [ -f "$ROOT/runtime/agree.py" ] && [ "$LLVM_MAJOR" -ge 22 ]; then
  python3 "$ROOT/runtime/agree.py" --plugin "$PLUGIN" --clang-tidy "$CLANG_TIDY" \
    || status=1
fi
exit $status
