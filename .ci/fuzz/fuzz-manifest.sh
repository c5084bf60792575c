#!/usr/bin/env bash
# Builds the manifest fuzzer with libFuzzer and AddressSanitizer, and runs it.
#
#   .ci/fuzz/fuzz-manifest.sh                 # 10 minutes
#   .ci/fuzz/fuzz-manifest.sh 60              # 60 seconds
#   .ci/fuzz/fuzz-manifest.sh 0 CRASH_FILE    # replay one input (a crash found earlier)
#
# .ci/run runs it for 30 seconds (its fuzzer smoke step); a run this long is
# by hand (fuzz-common.sh says how). Works from a clean clone: everything it
# makes is under .build-fuzz/. NotesKit and the targets it depends on
# (Patchbay, CPatchbayAtomics: whatever Package.swift says) are compiled
# straight from Sources/ (SwiftPM has no libFuzzer mode), with
# -enable-testing so the entry can reach the reader and the parser.
#
# Seeds: the example manifests and the bad-manifest corpus of the tests. New
# inputs the fuzzer finds go to .build-fuzz/corpus; crashes to
# .build-fuzz/artifacts. A crash becomes a regression test: copy it into
# Tests/Fixtures/BadManifests/ with its .expected file.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
SECONDS_TO_RUN="${1:-600}"
REPLAY="${2:-}"
OUT="$ROOT/.build-fuzz"
source .ci/fuzz/fuzz-common.sh

fuzz_build fuzz-manifest .ci/fuzz/FuzzManifest.swift NotesKit

# The loader resolves `extends` of an in-memory manifest against the current
# folder: run in a copy of the example manifests, so `"extends": "base.json"` works.
cp Manifests/*.json "$OUT/cwd/"

# Seeds: the example manifests and every file of the bad corpus (sub-folders too).
find Manifests Tests/Fixtures/BadManifests -type f ! -name '*.expected' ! -name '*.md' ! -name '.*' -print0 | fuzz_seeds

fuzz_run fuzz-manifest "$ROOT/.ci/fuzz/manifest.dict" 8192
