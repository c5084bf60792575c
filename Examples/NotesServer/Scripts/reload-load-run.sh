#!/usr/bin/env bash
# The reload load run of the example's README: "get a note by id" on
# loopback with wrk, release build, while the manifest is rewritten every
# SWAP_EVERY seconds (1.5) between two wirings (the ids' prefix, and the
# `timing-store` decorator around the store), against the same load with no
# swap. ROUNDS rounds (3), interleaved, of SECONDS_PER_RUN seconds (30) each;
# prints requests/s, p50, p99 and errors (non-2xx, socket errors) of each run
# and the medians. Then a run of SWAPS swaps (100) with the server's RSS
# (VmRSS) after the first and after the last; then, when NOTES_TEST_DB_* name
# a PostgreSQL (`eval "$(bash .ci/postgres start)"`), swaps that change the
# production store's pool size, with the database's connection count after each.
#
#     nice -n 10 bash Examples/NotesServer/Scripts/reload-load-run.sh
#
# STORE=postgres runs the first two parts on production's PostgreSQL store
# too. Not a CI gate: a 2-core machine shared with other work moves these figures.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
rounds="${ROUNDS:-3}" seconds="${SECONDS_PER_RUN:-30}" every="${SWAP_EVERY:-1.5}" swaps="${SWAPS:-100}"
connections="${CONNECTIONS:-16}" threads="${THREADS:-1}" store="${STORE:-memory}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }

# SCRATCH_PATH: another build folder, so a debug build can go on beside this one.
scratch=(--scratch-path "${SCRATCH_PATH:-.build}")
# BINARY: a notes-server built already (to try the script on a debug build).
if [ -z "${BINARY:-}" ]; then
    swift build -c release "${scratch[@]}" --product notes-server >&2
    binary="$(swift build -c release "${scratch[@]}" --show-bin-path)/notes-server"
else
    binary="$BINARY"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/notes-reload-run.XXXXXX")"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
json_field() { python3 -c "import json, sys; print(json.load(sys.stdin).get('$1', ''))"; }

# The environment's manifest, wiring A or B: ids prefixed a- or b-, the store bare or timed.
if [ "$store" = postgres ]; then environment=production; else environment=development; fi
manifest() {  # $1: a|b, $2: pool size (production)
    local decorators="" store_binding
    # In memory, both wirings decorate the store, with other parameters: the
    # chain around it is made anew and the store kept (it holds the note). On
    # PostgreSQL, A is bare and B timed, and their connectTimeout differs: a
    # decorator alone would keep the store, so each swap makes a new store and
    # pool, the dearest swap there is.
    if [ "$environment" = production ]; then
        [ "$1" = b ] && decorators=', "decorators": [{ "decorator": "timing-store", "parameters": { "slowerThanMilliseconds": 1000 } }]'
    else
        decorators=', "decorators": [{ "decorator": "timing-store", "parameters": { "slowerThanMilliseconds": '"$([ "$1" = a ] && echo 1000 || echo 2000)"' } }]'
    fi
    if [ "$environment" = production ]; then
        store_binding='"factory": "postgres-store", "parameters": { "host": "${NOTES_DB_HOST}", "port": "${NOTES_DB_PORT}",
            "database": "${NOTES_DB_NAME}", "user": "${NOTES_DB_USER}", "password": "${NOTES_DB_PASSWORD}", "poolSize": '"${2:-4}"',
            "connectTimeout": '"$([ "$1" = a ] && echo 5 || echo 6)"' }'
    else
        store_binding='"factory": "in-memory-store"'
    fi
    cat <<JSON
{ "format": 1, "environment": "$environment", "extends": "base.json",
  "bindings": [
    { "protocol": "NoteStore", $store_binding$decorators },
    { "protocol": "NoteIDGenerator", "factory": "sequential-ids", "parameters": { "prefix": "$1-$RANDOM-" } },
    { "protocol": "Logger", "factory": "console-logger", "parameters": { "label": "notes-server", "level": "info" } } ] }
JSON
}
write_manifest() { manifest "$@" > "$work/manifests/$environment.json.new"; mv "$work/manifests/$environment.json.new" "$work/manifests/$environment.json"; }
db_env() {
    export NOTES_DB_HOST="${NOTES_TEST_DB_HOST:-}" NOTES_DB_PORT="${NOTES_TEST_DB_PORT:-}" NOTES_DB_NAME="${NOTES_TEST_DB_NAME:-}"
    export NOTES_DB_USER="${NOTES_TEST_DB_USER:-}" NOTES_DB_PASSWORD="${NOTES_TEST_DB_PASSWORD:-}"
}
db_env

# Starts the server on a fresh copy of the manifests in wiring A; sets port, pid, log.
start_server() {
    rm -rf "$work/manifests"; cp -r Manifests "$work/manifests"
    write_manifest a "${1:-4}"
    port="$(free_port)" log="$work/server-$port.log"
    PATCHBAY_ENV="$environment" "$binary" --port "$port" --manifests "$work/manifests" >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return; sleep 0.1; done
    echo "the server did not start:" >&2; cat "$log" >&2; exit 1
}
stop_server() { kill -TERM "$pid"; wait "$pid" || true; }
generation() { curl -fs "http://127.0.0.1:$port/health" | json_field generation; }
wait_generation() { for _ in $(seq 400); do [ "$(generation)" -ge "$1" ] && return; sleep 0.025; done; echo "no generation $1" >&2; tail "$log" >&2; exit 1; }

# One run: a note, then wrk on GET /notes/ID for SECONDS, swapping A/B every $every s when $1 = swaps.
run_one() {
    local mode="$1" id report swapper=""
    start_server
    id="$(curl -fs -X POST -H 'Content-Type: application/json' -d '{"text":"load"}' "http://127.0.0.1:$port/notes" | json_field id)"
    curl -fs "http://127.0.0.1:$port/notes/$id" >/dev/null
    if [ "$mode" = swaps ]; then
        ( n=0; while true; do sleep "$every"; n=$((n + 1)); if (( n % 2 )); then write_manifest b; else write_manifest a; fi; done ) &
        swapper=$!
    fi
    report="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency "http://127.0.0.1:$port/notes/$id")"
    [ -n "$swapper" ] && { kill "$swapper"; wait "$swapper" 2>/dev/null || true; }
    local gen; gen="$(generation)"
    stop_server
    echo "$report" | awk -v gen="$gen" '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /Requests\/sec/ { rate = $2 }
        /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) }
        /Non-2xx/ { non2xx = $NF }
        /Socket errors/ { gsub(",", ""); socket = $4 + $6 + $8 + $10 }
        END { printf "%s %.3f %.3f %d %d %d\n", rate, p50, p99, non2xx + 0, socket + 0, gen - 1 }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "== $rounds rounds of ${seconds}s, $environment, swaps every ${every}s vs none; wrk -t$threads -c$connections; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
declare -A rate p50 p99 errors
for round in $(seq "$rounds"); do
    if (( round % 2 )); then order="swaps none"; else order="none swaps"; fi
    for mode in $order; do
        read -r r a b n s g < <(run_one "$mode")
        echo "round $round $mode: $r requests/s, p50 $a ms, p99 $b ms, non-2xx $n, socket errors $s, swaps $g"
        rate[$mode]+="$r " p50[$mode]+="$a " p99[$mode]+="$b " errors[$mode]+="$((n + s)) "
    done
done
for mode in swaps none; do
    # shellcheck disable=SC2086
    echo "median $mode: $(median ${rate[$mode]}) requests/s, p50 $(median ${p50[$mode]}) ms, p99 $(median ${p99[$mode]}) ms, errors ${errors[$mode]}"
done

echo "== $swaps swaps, RSS"
start_server
rss() { awk '/VmRSS/ { print $2 }' "/proc/$pid/status"; }
first=""
for n in $(seq "$swaps"); do
    if (( n % 2 )); then write_manifest b; else write_manifest a; fi
    wait_generation $((n + 1))
    curl -fs "http://127.0.0.1:$port/health" >/dev/null
    if [ "$n" = 1 ]; then sleep 0.5; first="$(rss)"; fi
done
sleep 0.5
last="$(rss)"
awk -v f="$first" -v l="$last" -v n="$swaps" 'BEGIN { printf "RSS after the first swap %d KiB, after swap %d %d KiB (%+.1f%%)\n", f, n, l, (l - f) * 100 / f }'
echo "activations logged: $(grep -c 'activated' "$log" || true), retirements logged: $(grep -c 'retired' "$log" || true)"
stop_server

if [ -n "${NOTES_TEST_DB_HOST:-}" ]; then
    echo "== pool size swaps, PostgreSQL"
    psql_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)/psql"
    connections_now() {
        PGPASSWORD="$NOTES_TEST_DB_PASSWORD" "$psql_bin" -h "$NOTES_TEST_DB_HOST" -p "$NOTES_TEST_DB_PORT" -U "$NOTES_TEST_DB_USER" \
            -d "$NOTES_TEST_DB_NAME" -tAc "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    }
    environment=production
    start_server 8
    id="$(curl -fs -X POST -H 'Content-Type: application/json' -d '{"text":"load"}' "http://127.0.0.1:$port/notes" | json_field id)"
    wrk -t1 -c16 -d2s "http://127.0.0.1:$port/notes/$id" >/dev/null
    echo "pool 8 (start): $(connections_now) connections after 2 s of load"
    n=1
    for size in 2 6 1 4 8; do
        n=$((n + 1))
        write_manifest a "$size"
        wait_generation "$n"
        wrk -t1 -c16 -d2s "http://127.0.0.1:$port/notes/$id" | awk '/Non-2xx|Socket errors/ { printf "  %s\n", $0 }'
        sleep 1
        echo "pool $size (generation $n): $(connections_now) connections after 2 s of load"
    done
    stop_server
    sleep 0.5
    echo "after SIGTERM: $(connections_now) connections"
fi
