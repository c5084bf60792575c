#!/usr/bin/env bash
# What registration code costs an app at build time: generates files of
# COUNT registrations (1,000 by default) with 0, 2 and 3 dependencies each,
# written as an app writes them, for Patchbay and for Swinject 2.10, compiles
# each alone with `swiftc -c -O -parse-as-library` and with `-Onone`, one
# compile after the other, and prints user CPU time (GNU time's %U, the
# compiler driver and its frontend) and object size side by side, as a
# Markdown table. The files come from the benchmark package's generate-types
# tool (Benchmarks/Sources/generate-types), the generator of the benchmark's
# own 1,000 types.
#
#   bash Benchmarks/Scripts/compile-cost.sh [options] [PATCHBAY_PACKAGE]
#
# PATCHBAY_PACKAGE is the Patchbay checkout to measure (default: the
# repository this script is in), so another branch can be measured with this
# script. Both modules come from the release build of its Benchmarks package
# (built here unless --no-build), which has Patchbay and Swinject 2.10.
#
#   --count N               registrations per file (default 1000)
#   --dependencies "0 2 3"  dependency counts, one file each (0 to 3)
#   --libraries "patchbay swinject"
#   --optimizations "-O -Onone"
#   --sizes-only            no timing: print `library deps optimization bytes`
#                           lines (tab-separated), for .ci/compile-size-guard
#   --repeat N              compile each file N times (default 1), the two
#                           libraries' files alternately, and print the
#                           median user time of each (objects are the same)
#   --no-build              use the release build as it is
#   --keep DIR              keep the generated files and objects in DIR
#
# A 1,000-registration -O compile against Patchbay takes minutes: run the
# whole table in the background, with nothing else heavy on the machine if
# the times are to mean something (sizes do not depend on load).
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"

count=1000
dependencies="0 2 3"
libraries="patchbay swinject"
optimizations="-O -Onone"
sizes_only=false
repeats=1
build=true
keep=""
package="$here"
while (($# > 0)); do
    case "$1" in
        --count) count="$2"; shift 2 ;;
        --dependencies) dependencies="$2"; shift 2 ;;
        --libraries) libraries="$2"; shift 2 ;;
        --optimizations) optimizations="$2"; shift 2 ;;
        --sizes-only) sizes_only=true; shift ;;
        --repeat) repeats="$2"; shift 2 ;;
        --no-build) build=false; shift ;;
        --keep) keep="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "compile-cost: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) package="$(cd "$1" && pwd)"; shift ;;
    esac
done
if ! $sizes_only && [[ ! -x /usr/bin/time ]]; then
    echo "compile-cost: /usr/bin/time is missing; install it with 'apt-get install time'" >&2
    exit 2
fi

if [[ -n "$keep" ]]; then
    mkdir -p "$keep"
    work="$(cd "$keep" && pwd)"
else
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
fi

# The generator is a few small files: compiled on their own, so the measured
# package's build folder is not touched and this script's checkout need not
# be built.
swiftc -O "$here"/Benchmarks/Sources/generate-types/*.swift -o "$work/generate-types" >&2

# The module each library's files import, as its target is named.
module_of() { case "$1" in patchbay) echo Patchbay ;; swinject) echo Swinject ;;
    *) echo "compile-cost: unknown library $1 (patchbay, swinject)" >&2; exit 2 ;; esac; }
needed=()
for library in $libraries; do needed+=("$(module_of "$library")"); done

if $build; then
    for module in "${needed[@]}"; do
        swift build -c release --package-path "$package/Benchmarks" --target "$module" >&2
    done
fi
bin="$(swift build -c release --package-path "$package/Benchmarks" --show-bin-path)"
modules="$bin/Modules"
[[ -d "$modules" ]] || modules="$bin"  # older SwiftPM layouts keep modules beside the products
for module in "${needed[@]}"; do
    if [[ ! -e "$modules/$module.swiftmodule" ]]; then
        echo "compile-cost: $modules has no $module.swiftmodule; build $package/Benchmarks in release" >&2
        exit 1
    fi
done

# What `import Patchbay` needs besides the Swift modules: the module map of
# each C target it imports. SwiftPM writes one into the build folder for a
# target with an umbrella header, and passes it to clang; a target that ships
# its own keeps it in its include folder, which clang searches. Module maps of
# targets the file never imports are read but unused. A target a plugin's
# tool also depends on is built twice, the second time in `NAME-tool.build`
# with a module map of the same module: only one may be given.
include_flags=(-I "$modules")
for map in "$bin"/*.build/module.modulemap; do
    [[ "$map" == *-tool.build/module.modulemap ]] && continue
    if [[ -e "$map" ]]; then include_flags+=(-Xcc "-fmodule-map-file=$map"); fi
done
for folder in "$package"/Sources/*/include; do
    if [[ -d "$folder" ]]; then include_flags+=(-Xcc "-I$folder"); fi
done

# Compiles one file; sets `user` (seconds, empty with --sizes-only) and
# `size` (the object's bytes). A failed compile stops the script.
compile() {
    local source="$1" optimization="$2" object="${1%.swift}$2.o"
    local command=(swiftc -c "$optimization" -parse-as-library -module-name CompileCost
        "${include_flags[@]}" "$source" -o "$object")
    user=""
    if $sizes_only; then
        "${command[@]}" >&2
    else
        /usr/bin/time -f %U -o "$work/time" "${command[@]}" >&2
        user="$(tail -n 1 "$work/time")"
    fi
    size="$(wc -c <"$object" | tr -d " ")"
}

# The median of a list of numbers, one per argument.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Each round compiles every file once, Patchbay's and Swinject's of a row one
# after the other, so a change in the machine's load falls on both libraries
# of a row alike instead of on one library's whole series.
declare -A seconds bytes runs
for deps in $dependencies; do
    for library in $libraries; do
        "$work/generate-types" compile-cost "$library" "$deps" "$work/$library-$deps.swift" "$count"
    done
done
$sizes_only && repeats=1
for ((round = 1; round <= repeats; round++)); do
    for deps in $dependencies; do
        for optimization in $optimizations; do
            for library in $libraries; do
                echo "compile-cost: $library, $count registrations with $deps dependencies, $optimization (round $round of $repeats)" >&2
                compile "$work/$library-$deps.swift" "$optimization"
                runs[$library,$deps,$optimization]+="$user "
                bytes[$library,$deps,$optimization]="$size"
                if $sizes_only; then
                    printf '%s\t%s\t%s\t%s\n' "$library" "$deps" "$optimization" "$size"
                fi
            done
        done
    done
done
if ! $sizes_only; then
    for key in "${!runs[@]}"; do
        # shellcheck disable=SC2086  # the times are words by design
        seconds[$key]="$(median ${runs[$key]})"
    done
fi
if $sizes_only; then exit 0; fi

# Seconds to one decimal, bytes in MB (10^6), and the Patchbay/Swinject ratio.
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1e6 }'; }
ratio() { awk -v p="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f×", p / s; else printf "-" }'; }
echo
echo "$count registrations per file, user time the median of $repeats compiles; $(swift --version 2>/dev/null | head -n 1); $(uname -m);"
echo "Patchbay at $package ($(git -C "$package" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout"))"
echo
echo "| dependencies | build | Patchbay time | Swinject time | × | Patchbay object | Swinject object | × |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for deps in $dependencies; do
    for optimization in $optimizations; do
        p_s="${seconds[patchbay,$deps,$optimization]:-}" s_s="${seconds[swinject,$deps,$optimization]:-}"
        p_b="${bytes[patchbay,$deps,$optimization]:-}" s_b="${bytes[swinject,$deps,$optimization]:-}"
        printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$deps" "$optimization" \
            "${p_s:+$p_s s}" "${s_s:+$s_s s}" "$( [[ -n $p_s && -n $s_s ]] && ratio "$p_s" "$s_s")" \
            "$( [[ -n $p_b ]] && mb "$p_b")" "$( [[ -n $s_b ]] && mb "$s_b")" \
            "$( [[ -n $p_b && -n $s_b ]] && ratio "$p_b" "$s_b")"
    done
done
