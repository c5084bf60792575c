#!/usr/bin/env bash
# Peak memory and time of the built `patchbay check` on the hostile manifest
# (440,000 bindings {"protocol":"P<i>","factory":"f"}, one file under the
# 16 MiB limit, a copy of the repository's Manifests/catalog.json beside it):
# the files the benchmark case "check a hostile manifest" checks in-process,
# written by the benchmark executable itself so both read the same bytes.
# Measured with GNU time's -v ("Maximum resident set size"); install it with
# `apt-get install time`.
#
# Run from the repository root:  bash Benchmarks/Scripts/hostile-peak-memory.sh
# Both products are release builds of the benchmark package (its Patchbay is
# the root package, by path), so nothing is built twice.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
if [ ! -x /usr/bin/time ]; then
    echo "error: /usr/bin/time is missing; install it with 'apt-get install time'" >&2
    exit 2
fi

swift build -c release --package-path Benchmarks --product PatchbayBenchmarks >&2
swift build -c release --package-path Benchmarks --product patchbay >&2
bin=$(swift build -c release --package-path Benchmarks --show-bin-path)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
manifest=$("$bin/PatchbayBenchmarks" --write-hostile-folder "$work/hostile")

# Exit status 1 (errors found) is an answer, not a failure of the measurement.
status=0
/usr/bin/time -v -o "$work/time.txt" "$bin/patchbay" check "$manifest" >"$work/stdout.txt" 2>"$work/stderr.txt" \
    || status=$?
if [ "$status" -gt 1 ]; then
    echo "error: patchbay check exited $status" >&2
    cat "$work/stderr.txt" "$work/time.txt" >&2
    exit 1
fi

echo "patchbay check on the hostile manifest ($(stat -c %s "$manifest") bytes, 440,000 bindings)," \
    "$(date -u '+%Y-%m-%d %H:%M UTC'), at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load average $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "exit status: $status"
echo "output: $(wc -l <"$work/stdout.txt") lines on stdout, $(wc -l <"$work/stderr.txt") on stderr; last line of stdout:"
tail -n 1 "$work/stdout.txt" | cut -c 1-300
grep -E "Maximum resident set size|Elapsed \(wall clock\)|User time|System time|Minor \(reclaiming" "$work/time.txt"

# The floor beside it: JSONDecoder alone decoding the same file into plain Codable structs, in a
# process of its own (what reading the format costs a program that trusts it and checks nothing).
/usr/bin/time -v -o "$work/floor-time.txt" "$bin/PatchbayBenchmarks" --decode-floor "$manifest" >/dev/null
echo "JSONDecoder floor on the same file, a process of its own:"
grep -E "Maximum resident set size|Elapsed \(wall clock\)|User time|System time" "$work/floor-time.txt"
