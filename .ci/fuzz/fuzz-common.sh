# What fuzz-manifest.sh and fuzz-catalog.sh share, sourced by both: the
# build of Patchbay, one more module and the entry with libFuzzer and
# AddressSanitizer, and the run. Each script keeps its own folder under the
# repository root, so both can run at once.
#
# Expects ROOT (the repository root, the current folder), OUT (the script's
# folder), SECONDS_TO_RUN and REPLAY.

export PATH="/opt/swift/usr/bin:$PATH"
mkdir -p "$OUT/modules" "$OUT/corpus" "$OUT/artifacts" "$OUT/cwd"

# -O like a release build (the fuzzer should look for what ships), -g for stacks.
# -package-name: Patchbay declares package symbols, shared with the other module and the entry as SwiftPM shares them.
FLAGS=(-sanitize=fuzzer,address -O -g -swift-version 6 -parse-as-library -package-name Patchbay -I "$OUT/modules")

# fuzz_build EXECUTABLE ENTRY.swift MODULE: Patchbay (with -enable-testing,
# so the entry reaches internals) and Sources/MODULE, compiled straight from
# the sources with swiftc (SwiftPM has no libFuzzer mode), linked with ENTRY.
fuzz_build() {
    local executable="$1" entry="$2" module="$3"
    echo "== building the fuzzer in $OUT"
    mapfile -t patchbay < <(find Sources/Patchbay -name '*.swift' | sort)
    mapfile -t other < <(find "Sources/$module" -name '*.swift' | sort)
    swiftc "${FLAGS[@]}" -module-name Patchbay -enable-testing -wmo -emit-module \
        -emit-module-path "$OUT/modules/Patchbay.swiftmodule" -c "${patchbay[@]}" -o "$OUT/Patchbay.o"
    swiftc "${FLAGS[@]}" -module-name "$module" -wmo -emit-module \
        -emit-module-path "$OUT/modules/$module.swiftmodule" -c "${other[@]}" -o "$OUT/$module.o"
    # lld: gold warns about every ASan helper symbol.
    swiftc "${FLAGS[@]}" -use-ld=lld -module-name "$(basename "$entry" .swift)" "$entry" \
        "$OUT/Patchbay.o" "$OUT/$module.o" -o "$OUT/$executable"
}

# fuzz_seeds: copies the files whose paths come NUL-separated on standard
# input into $OUT/seeds, each named after its folder and its name (corpus
# cases share names such as catalog.json), and says how many.
fuzz_seeds() {
    local seeds="$OUT/seeds" n=0 file
    rm -rf "$seeds"
    mkdir -p "$seeds"
    while IFS= read -r -d '' file; do
        n=$((n + 1))
        cp "$file" "$seeds/seed-$n-$(basename "$(dirname "$file")")-$(basename "$file")"
    done
    echo "== $n seed files"
}

# fuzz_run EXECUTABLE DICTIONARY MAX_LEN: replays REPLAY, or fuzzes for
# SECONDS_TO_RUN from the corpus and $OUT/seeds, in $OUT/cwd.
fuzz_run() {
    local executable="$1" dictionary="$2" max_len="$3"
    # Crashes are libFuzzer's to report: the Swift runtime's own backtracer would
    # hold the process for its timeout first.
    export SWIFT_BACKTRACE=enable=no
    # Leak checking stays on: a leak found in the pipeline is a finding too.
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
    cd "$OUT/cwd"
    if [[ -n "$REPLAY" ]]; then
        exec "$OUT/$executable" "$(cd "$ROOT" && realpath "$REPLAY")"
    fi
    exec "$OUT/$executable" "$OUT/corpus" "$OUT/seeds" \
        -dict="$dictionary" \
        -max_total_time="$SECONDS_TO_RUN" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$OUT/artifacts/" -print_final_stats=1
}
