#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and under ThreadSanitizer, one after the other, each in
# its own scratch directory (they are slow: expect many minutes each on two cores).
#
#   scripts/sanitize.sh [address|thread]… [-- swift test arguments, e.g. --filter PropertyTests]
#
# Exits non-zero if either run fails; the logs are in .build-asan/test.log and .build-tsan/test.log.
set -uo pipefail
cd "$(dirname "$0")/.."

sanitizers=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sanitizers+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#sanitizers[@]} -eq 0 ] && sanitizers=(address thread)

# Leaks in the Swift runtime's one-time caches are not ours; everything else is reported.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1}

status=0
for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
        address) scratch=.build-asan ;;
        thread) scratch=.build-tsan ;;
        *) echo "sanitize.sh: unknown sanitizer '$sanitizer' (address or thread)" >&2; exit 64 ;;
    esac
    mkdir -p "$scratch"
    echo "== swift test --sanitize=$sanitizer ($scratch)"
    start=$(date +%s)
    swift test --sanitize="$sanitizer" --scratch-path "$scratch" "$@" > "$scratch/test.log" 2>&1
    code=$?
    reports=$(grep -c -E "^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer)" "$scratch/test.log" || true)
    summary=$(grep -E "Test run with|Executed [0-9]+ tests" "$scratch/test.log" | tail -2 | tr '\n' ' ')
    echo "   exit $code, $reports sanitizer reports, $(( $(date +%s) - start )) s: $summary"
    if [ "$code" -ne 0 ] || [ "$reports" -ne 0 ]; then status=1; fi
done
exit $status
