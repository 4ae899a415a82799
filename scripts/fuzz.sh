#!/usr/bin/env bash
# Fuzzes reading mesh.json and everything meshgeo computes with what parses (validate, the numeric
# range, info, tessellate and its writers, sort, hit, fit, interpolate, render), checking that errors
# are clean and numbers finite, with libFuzzer and AddressSanitizer, for a bounded time.
#
#   scripts/fuzz.sh [SECONDS] [JOBS]      default 600 seconds, 1 job (a process at a time)
#
# Builds Fuzz/ (a separate package, since libFuzzer brings its own main) into .build-fuzz, seeds
# Fuzz/corpus from Fuzz/Seeds and the small Examples, and runs. Crashing, hanging and leaking
# inputs are left in Fuzz/artifacts/; turn each into a regression test before fixing it.
# Replay one input with:  .build-fuzz/debug/MeshFuzz Fuzz/artifacts/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
jobs=${2:-1}
scratch=.build-fuzz

swift build -c debug --scratch-path "$scratch" --package-path Fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
    -Xcc -fsanitize=fuzzer-no-link,address 2>&1 | grep -v "Cannot export local symbol" || true
binary="$scratch/debug/MeshFuzz"
[ -x "$binary" ] || { echo "fuzz.sh: build failed" >&2; exit 1; }

mkdir -p Fuzz/corpus Fuzz/artifacts
cp -n Fuzz/Seeds/*.json Fuzz/corpus/ 2>/dev/null || true
# The big ripple (1 MiB) would only be cut short by -max_len; the small examples are real meshes.
for f in Examples/*.json; do
    if [ "$(wc -c < "$f")" -le 32768 ]; then cp -n "$f" Fuzz/corpus/; fi
done

# -timeout: an input taking longer than this is a hang (a finding); -rss_limit_mb: so is one that
# needs more memory; -max_len: inputs up to 16 KiB, enough for a few hundred faces.
args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384
      -dict=Fuzz/mesh.dict -artifact_prefix=Fuzz/artifacts/ -print_final_stats=1)
# Fork mode keeps going after a finding (each is saved in Fuzz/artifacts/), so one run covers the
# whole time; FUZZ_STOP_ON_FIRST=1 stops at the first finding instead.
if [ "${FUZZ_STOP_ON_FIRST:-0}" != 1 ]; then
    args+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
exec "$binary" "${args[@]}" Fuzz/corpus
