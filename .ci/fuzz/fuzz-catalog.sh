#!/usr/bin/env bash
# Builds the catalog-description fuzzer with libFuzzer and AddressSanitizer, and runs it.
#
#   .ci/fuzz/fuzz-catalog.sh                 # 10 minutes
#   .ci/fuzz/fuzz-catalog.sh 60              # 60 seconds
#   .ci/fuzz/fuzz-catalog.sh 0 CRASH_FILE    # replay one input (a crash found earlier)
#
# The twin of fuzz-manifest.sh, for the other file `patchbay check` reads
# from a pull request. .ci/run runs it for 30 seconds (its fuzzer smoke
# step); a run this long is by hand (fuzz-common.sh says how). Works from a
# clean clone: everything it makes is under .build-fuzz-catalog/ (apart from
# fuzz-manifest.sh's folder, so both can run at once). PatchbayTools and the
# targets it depends on (whatever Package.swift says) are compiled straight
# from Sources/ (SwiftPM has no libFuzzer mode), with -enable-testing so the
# entry can reach the validator.
#
# Seeds: the example's catalog.json and every catalog.json of the bad-catalog
# corpus. New inputs the fuzzer finds go to .build-fuzz-catalog/corpus;
# crashes to .build-fuzz-catalog/artifacts. A crash becomes a regression
# test: copy it into Tests/Fixtures/BadCatalogs/NAME/catalog.json with its expected.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
SECONDS_TO_RUN="${1:-600}"
REPLAY="${2:-}"
OUT="$ROOT/.build-fuzz-catalog"
source .ci/fuzz/fuzz-common.sh

fuzz_build fuzz-catalog .ci/fuzz/FuzzCatalog.swift PatchbayTools

# Accepted descriptions are checked against the example's manifests, read from the current folder.
cp Manifests/*.json "$OUT/cwd/"

# Seeds: the example's description and every description of the bad corpus.
find Manifests/catalog.json Tests/Fixtures/BadCatalogs -type f -name '*.json' ! -name 'manifest.json' -print0 | fuzz_seeds

# A description is longer than a manifest: the example's is 7 KB.
fuzz_run fuzz-catalog "$ROOT/.ci/fuzz/catalog.dict" 16384
