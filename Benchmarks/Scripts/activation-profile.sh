#!/usr/bin/env bash
# Where one activation's instructions go, per size, under callgrind: the table in
# Benchmarks/README.md ("Where activation's time goes"). Each case is counted at 1
# and at 3 activations in one process and halved, so the making of the manifest
# and the process's start cancel out; the figures are per activation.
#
# Run from the repository root:  bash Benchmarks/Scripts/activation-profile.sh [BIN]
# BIN defaults to the release PatchbayBenchmarks (built first when it is missing).
# CASES (optional) lists the cases, separated by commas, e.g. CASES="1k bindings,10k bindings"; by
# default every size with and without parameters, about half an hour (a 100k case is minutes).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
bin=${1:-}
if [ -z "$bin" ]; then
    swift build -c release --package-path Benchmarks --product PatchbayBenchmarks >&2
    bin="$(swift build -c release --package-path Benchmarks --show-bin-path)/PatchbayBenchmarks"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Symbols only: debug info makes callgrind_annotate slow and changes nothing counted.
objcopy --strip-debug "$bin" "$work/bin"

# count CASE CONTENDER TAG: the inclusive cost of every function, at 1 and at 3 activations.
count() {
    for n in 1 2; do
        SWIFT_DETERMINISTIC_HASHING=1 setarch "$(uname -m)" -R valgrind --tool=callgrind \
            --callgrind-out-file="$work/$3.$n.out" "$work/bin" --count "$1" --iterations "$n" --contender "$2" \
            >/dev/null 2>&1
        callgrind_annotate --inclusive=yes --threshold=100 "$work/$3.$n.out" 2>/dev/null \
            | swift demangle --simplified >"$work/$3.$n.txt"
    done
}

echo "| bindings | floor | Patchbay | × floor | scan | decode | build | interpolate | validate | parameters | compile | teardown | other |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
IFS=, read -r -a cases <<<"${CASES:-1k bindings,10k bindings,100k bindings,1k bindings with parameters,10k bindings with parameters,100k bindings with parameters}"
for case in "${cases[@]}"; do
    tag=$(echo "$case" | tr ' ' '_')
    count "load+validate+activate $case" "Patchbay" "p_$tag"
    count "load+validate+activate $case" "JSONDecoder floor" "f_$tag"
    python3 - "$work" "$tag" "$case" <<'PY'
import re, sys
work, tag, case = sys.argv[1:]
def load(path):
    costs = {}
    for line in open(path):
        m = re.match(r'\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.*)$', line)
        if m:
            costs[m.group(2)] = costs.get(m.group(2), 0) + int(m.group(1).replace(',', ''))
    return costs
def per(prefix):
    one, two = load(f"{work}/{prefix}_{tag}.1.txt"), load(f"{work}/{prefix}_{tag}.2.txt")
    return {k: two.get(k, 0) - one.get(k, 0) for k in set(one) | set(two)}
def find(costs, pattern):
    # The largest inclusive cost among the functions whose name matches (a specialized copy or its thunk).
    return max([v for k, v in costs.items() if re.search(pattern, k)] or [0])
p, f = per("p"), per("f")
total, floor = p.get("PROGRAM TOTALS", 0), f.get("PROGRAM TOTALS", 0)
scan = find(p, r"static JSONScanner\.scan\(_:maxBytes:maxDepth:\)")
parse = find(p, r"ManifestParser\.parse\(_:\)")
build = find(p, r"ManifestParser\.manifest\(from:decoded:\)")
interpolate = find(p, r"ManifestLoader\.interpolate\(_:size:diagnostics:\)")
validate = find(p, r"static Activation\.validate\(_:catalog:\)")
parameters = find(p, r"ParameterCheck\.run\(\)")
compile = find(p, r"static Activation\.compile\(_:of:catalog:keeping:\)")
teardown = find(p, r"Container\.deinit")
decode = parse - scan - build
parts = [scan, decode, build, interpolate, validate - parameters, parameters, compile, teardown]
other = total - sum(parts)
m = lambda v: f"{v / 1e6:.1f}M"
print(f"| {case} | {m(floor)} | {m(total)} | {total / floor:.2f} | " + " | ".join(m(v) for v in parts) + f" | {m(other)} |")
PY
done
