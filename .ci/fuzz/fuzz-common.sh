# What fuzz-manifest.sh and fuzz-catalog.sh share, sourced by both: the
# build of one module of the package and every target it depends on, with
# the entry, under libFuzzer and AddressSanitizer, and the run. Each script
# keeps its own folder under the repository root, so both can run at once.
#
# Running the fuzzers by hand (from anywhere in a clone; nothing else to install):
#
#   .ci/fuzz/fuzz-manifest.sh                  # manifests, 10 minutes
#   .ci/fuzz/fuzz-catalog.sh                   # catalog descriptions, 10 minutes
#   .ci/fuzz/fuzz-manifest.sh 60               # 60 seconds
#   FUZZ_SEED=1 .ci/fuzz/fuzz-catalog.sh 30    # what .ci/run's smoke step runs
#   .ci/fuzz/fuzz-manifest.sh 0 CRASH_FILE     # replay one input (a crash found earlier)
#
# The machine's cores are shared: `nice -n 10` in front, and one fuzzer at a
# time. Each prints libFuzzer's final statistics (stat::number_of_executed_units,
# stat::average_exec_per_sec) and exits non-zero on a crash, a leak, a
# timeout (10 s for one input) or a process over 4 GB; the input that did it
# is in the script's artifacts/ folder (.build-fuzz/ or .build-fuzz-catalog/).
# Inputs worth keeping go to its corpus/, which the next run starts from.
#
# Expects ROOT (the repository root, the current folder), OUT (the script's
# folder), SECONDS_TO_RUN and REPLAY. FUZZ_SEED, if set, is libFuzzer's
# -seed, so that a run from a clean clone tries the same inputs each time.

export PATH="/opt/swift/usr/bin:$PATH"
mkdir -p "$OUT/modules" "$OUT/objects" "$OUT/corpus" "$OUT/artifacts" "$OUT/cwd"

# -O like a release build (the fuzzer should look for what ships), -g for stacks.
# -package-name: Patchbay declares package symbols, shared with the other module and the entry as SwiftPM shares them.
FLAGS=(-sanitize=fuzzer,address -O -g -swift-version 6 -parse-as-library -package-name Patchbay -I "$OUT/modules")
# The C targets' flags: instrumented as the Swift is, and linked by swiftc with libFuzzer's main.
CFLAGS=(-fsanitize=fuzzer-no-link,address -O2 -g -std=c11)

# fuzz_fail MESSAGE: stops the script with MESSAGE, where a build step that
# failed would otherwise leave only the compiler's last line.
fuzz_fail() {
    echo "error: fuzzer build: $*" >&2
    exit 1
}

# fuzz_targets MODULE: the package's targets MODULE needs, MODULE last and
# each after the ones it depends on, one name a line. Read from
# `swift package describe`, so that a target added to Package.swift (as
# CPatchbayAtomics was, which broke the fuzzers' hand-written list) is built
# here too.
fuzz_targets() {
    local name="$1" dependency
    [[ -n "${FUZZ_VISITED[$name]:-}" ]] && return 0
    FUZZ_VISITED[$name]=1
    jq -e --arg name "$name" '.targets[] | select(.name == $name)' "$OUT/package.json" >/dev/null ||
        fuzz_fail "Package.swift has no target named $name"
    while IFS= read -r dependency; do
        fuzz_targets "$dependency"
    done < <(jq -r --arg name "$name" '.targets[] | select(.name == $name) | (.target_dependencies // [])[]' "$OUT/package.json")
    echo "$name"
}

# fuzz_target_field TARGET FIELD: one field of TARGET in the package's description.
fuzz_target_field() {
    jq -r --arg name "$1" ".targets[] | select(.name == \$name) | .$2" "$OUT/package.json"
}

# fuzz_build_clang TARGET: compiles a C target's sources to objects, and
# gives Swift its module as SwiftPM does: include/module.modulemap if it
# has one, else a module map over its umbrella header include/TARGET.h, else
# over the folder itself (added to FLAGS, for the targets built after it).
fuzz_build_clang() {
    local name="$1" path include map source n=0
    path="$ROOT/$(fuzz_target_field "$name" path)"
    include="$path/include"
    map="$OUT/modules/$name/module.modulemap"
    mkdir -p "$OUT/modules/$name"
    if [[ -f "$include/module.modulemap" ]]; then
        FLAGS+=(-I "$include")
    elif [[ -f "$include/$name.h" ]]; then
        printf 'module %s {\n    umbrella header "%s"\n    export *\n}\n' "$name" "$include/$name.h" >"$map"
        FLAGS+=(-I "$OUT/modules/$name")
    elif [[ -d "$include" ]]; then
        printf 'module %s {\n    umbrella "%s"\n    export *\n}\n' "$name" "$include" >"$map"
        FLAGS+=(-I "$OUT/modules/$name")
    else
        fuzz_fail "the C target $name has no include/ folder to import"
    fi
    while IFS= read -r source; do
        n=$((n + 1))
        clang "${CFLAGS[@]}" -I "$include" -c "$path/$source" -o "$OUT/objects/$name-$n.o" ||
            fuzz_fail "compiling $name's $source"
    done < <(fuzz_target_field "$name" 'sources[]')
}

# fuzz_build_swift TARGET: compiles a Swift target to one object and its
# module, with -enable-testing so the entry can reach internals.
fuzz_build_swift() {
    local name="$1" path sources
    path="$ROOT/$(fuzz_target_field "$name" path)"
    mapfile -t sources < <(fuzz_target_field "$name" 'sources[]' | sed "s|^|$path/|")
    swiftc "${FLAGS[@]}" -module-name "$name" -enable-testing -wmo -emit-module \
        -emit-module-path "$OUT/modules/$name.swiftmodule" -c "${sources[@]}" -o "$OUT/objects/$name.o" ||
        fuzz_fail "compiling $name"
}

# fuzz_build EXECUTABLE ENTRY.swift MODULE: MODULE and every target of the
# package it depends on, compiled straight from the sources (SwiftPM has no
# libFuzzer mode; `swift build --sanitize=fuzzer` instruments but cannot
# link an entry that is no target of the package), linked with ENTRY.
fuzz_build() {
    local executable="$1" entry="$2" module="$3" target kind targets
    echo "== building the fuzzer in $OUT"
    command -v jq >/dev/null || fuzz_fail "jq is needed to read the package's targets"
    swift package describe --type json >"$OUT/package.json" || fuzz_fail "swift package describe"
    declare -gA FUZZ_VISITED=()
    mapfile -t targets < <(fuzz_targets "$module")
    [[ ${#targets[@]} -gt 0 && "${targets[-1]}" == "$module" ]] || fuzz_fail "reading $module's dependencies"
    rm -f "$OUT"/objects/*.o
    for target in "${targets[@]}"; do
        kind="$(fuzz_target_field "$target" module_type)"
        echo "   $target ($kind)"
        case "$kind" in
            SwiftTarget) fuzz_build_swift "$target" ;;
            ClangTarget) fuzz_build_clang "$target" ;;
            *) fuzz_fail "$target is a $kind; only Swift and C targets are built here" ;;
        esac
    done
    # lld: gold warns about every ASan helper symbol.
    swiftc "${FLAGS[@]}" -use-ld=lld -module-name "$(basename "$entry" .swift)" "$entry" \
        "$OUT"/objects/*.o -o "$OUT/$executable" || fuzz_fail "compiling and linking $entry"
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
    [[ $n -gt 0 ]] || fuzz_fail "no seed files found"
    echo "== $n seed files"
}

# fuzz_run EXECUTABLE DICTIONARY MAX_LEN: replays REPLAY, or fuzzes for
# SECONDS_TO_RUN from the corpus and $OUT/seeds, in $OUT/cwd.
fuzz_run() {
    local executable="$1" dictionary="$2" max_len="$3" seed=()
    # Crashes are libFuzzer's to report: the Swift runtime's own backtracer would
    # hold the process for its timeout first.
    export SWIFT_BACKTRACE=enable=no
    # Leak checking stays on: a leak found in the pipeline is a finding too.
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
    cd "$OUT/cwd"
    if [[ -n "$REPLAY" ]]; then
        exec "$OUT/$executable" "$(cd "$ROOT" && realpath "$REPLAY")"
    fi
    [[ -n "${FUZZ_SEED:-}" ]] && seed=(-seed="$FUZZ_SEED")
    exec "$OUT/$executable" "$OUT/corpus" "$OUT/seeds" "${seed[@]}" \
        -dict="$dictionary" \
        -max_total_time="$SECONDS_TO_RUN" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$OUT/artifacts/" -print_final_stats=1
}
