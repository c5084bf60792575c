#!/usr/bin/env bash
# Builds the catalog-description fuzzer with libFuzzer and AddressSanitizer, and runs it.
#
#   .ci/fuzz/fuzz-catalog.sh                 # 10 minutes
#   .ci/fuzz/fuzz-catalog.sh 60              # 60 seconds
#   .ci/fuzz/fuzz-catalog.sh 0 CRASH_FILE    # replay one input (a crash found earlier)
#
# The twin of fuzz-manifest.sh, for the other file `patchbay check` reads
# from a pull request. Not part of .ci/run (too slow). Works from a clean
# clone: everything it makes is under .build-fuzz-catalog/ (apart from
# fuzz-manifest.sh's folder, so both can run at once). Patchbay and
# PatchbayTools are compiled straight from Sources/ with swiftc (SwiftPM has
# no libFuzzer mode), Patchbay with -enable-testing so the entry can reach the validator.
#
# Seeds: the example's catalog.json and every catalog.json of the bad-catalog
# corpus. New inputs the fuzzer finds go to .build-fuzz-catalog/corpus;
# crashes to .build-fuzz-catalog/artifacts. A crash becomes a regression
# test: copy it into Tests/Fixtures/BadCatalogs/NAME/catalog.json with its expected.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
export PATH="/opt/swift/usr/bin:$PATH"

SECONDS_TO_RUN="${1:-600}"
REPLAY="${2:-}"
OUT="$ROOT/.build-fuzz-catalog"
mkdir -p "$OUT/modules" "$OUT/corpus" "$OUT/artifacts" "$OUT/cwd"

# -O like a release build (the fuzzer should look for what ships), -g for stacks.
# -package-name: Patchbay declares package symbols, shared with the tools and the entry as SwiftPM shares them.
FLAGS=(-sanitize=fuzzer,address -O -g -swift-version 6 -parse-as-library -package-name Patchbay -I "$OUT/modules")

build() {
    echo "== building the fuzzer in $OUT"
    mapfile -t patchbay < <(find Sources/Patchbay -name '*.swift' | sort)
    mapfile -t tools < <(find Sources/PatchbayTools -name '*.swift' | sort)
    swiftc "${FLAGS[@]}" -module-name Patchbay -enable-testing -wmo -emit-module \
        -emit-module-path "$OUT/modules/Patchbay.swiftmodule" -c "${patchbay[@]}" -o "$OUT/Patchbay.o"
    swiftc "${FLAGS[@]}" -module-name PatchbayTools -wmo -emit-module \
        -emit-module-path "$OUT/modules/PatchbayTools.swiftmodule" -c "${tools[@]}" -o "$OUT/PatchbayTools.o"
    # lld: gold warns about every ASan helper symbol.
    swiftc "${FLAGS[@]}" -use-ld=lld -module-name FuzzCatalog .ci/fuzz/FuzzCatalog.swift \
        "$OUT/Patchbay.o" "$OUT/PatchbayTools.o" -o "$OUT/fuzz-catalog"
}
build

# Accepted descriptions are checked against the example's manifests, read from the current folder.
cp Manifests/*.json "$OUT/cwd/"

# Seeds: the example's description and every description of the bad corpus.
SEEDS="$OUT/seeds"
rm -rf "$SEEDS"
mkdir -p "$SEEDS"
n=0
while IFS= read -r -d '' file; do
    n=$((n + 1))
    cp "$file" "$SEEDS/seed-$n-$(basename "$(dirname "$file")")-$(basename "$file")"
done < <(find Manifests/catalog.json Tests/Fixtures/BadCatalogs -type f -name '*.json' ! -name 'manifest.json' -print0)
echo "== $n seed files"

# Crashes are libFuzzer's to report: the Swift runtime's own backtracer would
# hold the process for its timeout first.
export SWIFT_BACKTRACE=enable=no
# Leak checking stays on: a leak found in the pipeline is a finding too.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

cd "$OUT/cwd"
if [[ -n "$REPLAY" ]]; then
    exec "$OUT/fuzz-catalog" "$(cd "$ROOT" && realpath "$REPLAY")"
fi
# A description is longer than a manifest: the example's is 7 KB.
exec "$OUT/fuzz-catalog" "$OUT/corpus" "$SEEDS" \
    -dict="$ROOT/.ci/fuzz/catalog.dict" \
    -max_total_time="$SECONDS_TO_RUN" -max_len=16384 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$OUT/artifacts/" -print_final_stats=1
