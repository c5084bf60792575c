#!/usr/bin/env bash
# Builds the manifest fuzzer with libFuzzer and AddressSanitizer, and runs it.
#
#   .ci/fuzz/fuzz-manifest.sh                 # 10 minutes
#   .ci/fuzz/fuzz-manifest.sh 60              # 60 seconds
#   .ci/fuzz/fuzz-manifest.sh 0 CRASH_FILE    # replay one input (a crash found earlier)
#
# Not part of .ci/run (too slow). Works from a clean clone: everything it
# makes is under .build-fuzz/. Patchbay and NotesKit are compiled straight
# from Sources/ with swiftc (SwiftPM has no libFuzzer mode), Patchbay with
# -enable-testing so the entry can reach the reader and the parser.
#
# Seeds: the example manifests and the bad-manifest corpus of the tests. New
# inputs the fuzzer finds go to .build-fuzz/corpus; crashes to
# .build-fuzz/artifacts. A crash becomes a regression test: copy it into
# Tests/Fixtures/BadManifests/ with its .expected file.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
export PATH="/opt/swift/usr/bin:$PATH"

SECONDS_TO_RUN="${1:-600}"
REPLAY="${2:-}"
OUT="$ROOT/.build-fuzz"
mkdir -p "$OUT/modules" "$OUT/corpus" "$OUT/artifacts" "$OUT/cwd"

# -O like a release build (the fuzzer should look for what ships), -g for stacks.
# -package-name: Patchbay declares package symbols, shared with the entry as SwiftPM shares them.
FLAGS=(-sanitize=fuzzer,address -O -g -swift-version 6 -parse-as-library -package-name Patchbay -I "$OUT/modules")

build() {
    echo "== building the fuzzer in $OUT"
    mapfile -t patchbay < <(find Sources/Patchbay -name '*.swift' | sort)
    mapfile -t noteskit < <(find Sources/NotesKit -name '*.swift' | sort)
    swiftc "${FLAGS[@]}" -module-name Patchbay -enable-testing -wmo -emit-module \
        -emit-module-path "$OUT/modules/Patchbay.swiftmodule" -c "${patchbay[@]}" -o "$OUT/Patchbay.o"
    swiftc "${FLAGS[@]}" -module-name NotesKit -wmo -emit-module \
        -emit-module-path "$OUT/modules/NotesKit.swiftmodule" -c "${noteskit[@]}" -o "$OUT/NotesKit.o"
    # lld: gold warns about every ASan helper symbol.
    swiftc "${FLAGS[@]}" -use-ld=lld -module-name FuzzManifest .ci/fuzz/FuzzManifest.swift \
        "$OUT/Patchbay.o" "$OUT/NotesKit.o" -o "$OUT/fuzz-manifest"
}
build

# The loader resolves `extends` of an in-memory manifest against the current
# folder: run in a copy of the example manifests, so `"extends": "base.json"` works.
cp Manifests/*.json "$OUT/cwd/"

# Seeds: the example manifests and every file of the bad corpus (sub-folders too).
SEEDS="$OUT/seeds"
rm -rf "$SEEDS"
mkdir -p "$SEEDS"
n=0
while IFS= read -r -d '' file; do
    n=$((n + 1))
    cp "$file" "$SEEDS/seed-$n-$(basename "$file")"
done < <(find Manifests Tests/Fixtures/BadManifests -type f ! -name '*.expected' ! -name '*.md' ! -name '.*' -print0)
echo "== $n seed files"

# Crashes are libFuzzer's to report: the Swift runtime's own backtracer would
# hold the process for its timeout first.
export SWIFT_BACKTRACE=enable=no
# Leak checking stays on: a leak found in the pipeline is a finding too.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

cd "$OUT/cwd"
if [[ -n "$REPLAY" ]]; then
    exec "$OUT/fuzz-manifest" "$(cd "$ROOT" && realpath "$REPLAY")"
fi
exec "$OUT/fuzz-manifest" "$OUT/corpus" "$SEEDS" \
    -dict="$ROOT/.ci/fuzz/manifest.dict" \
    -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$OUT/artifacts/" -print_final_stats=1
