#!/usr/bin/env bash
# The load run of the example's README: "get a note by id" on loopback, with
# wrk (Debian's package), against a release build, in-memory store. The same
# binary twice: `--wiring patchbay` resolves the store from the container on
# every request, `--wiring hand` serves the same handlers with a store made
# by hand. RUNS rounds (3) of one SECONDS-second (5) run each, interleaved
# (the order alternates each round); prints each run and the medians, of
# requests per second and of the server's CPU time per request (from
# /proc/PID/stat around the wrk run), which other work on the machine moves
# far less than it moves throughput.
#
#     bash Examples/NotesServer/Scripts/load-run.sh
#
# Not a CI gate: a 2-core machine shared with other work moves these figures.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
runs="${RUNS:-3}" seconds="${SECONDS_PER_RUN:-5}" connections="${CONNECTIONS:-16}" threads="${THREADS:-1}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }

swift build -c release --product notes-server >&2
binary="$(swift build -c release --show-bin-path)/notes-server"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The server's CPU time so far (user + system), in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# One run: start the server wired as $1, make a note, load GET /notes/ID, stop it;
# prints requests/s and the server's CPU microseconds per request.
run_one() {
    local wiring="$1" port pid id report before after
    port="$(free_port)"
    PATCHBAY_ENV=development LOG_LEVEL=warning "$binary" --port "$port" --wiring "$wiring" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
    id="$(curl -fs -X POST -H 'Content-Type: application/json' -d '{"text":"load"}' "http://127.0.0.1:$port/notes" \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')"
    curl -fs "http://127.0.0.1:$port/notes/$id" >/dev/null   # the route answers 200, not 404
    before="$(cpu_ticks "$pid")"
    report="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" "http://127.0.0.1:$port/notes/$id")"
    after="$(cpu_ticks "$pid")"
    kill -TERM "$pid"
    wait "$pid" || true
    echo "$report" | awk -v ticks="$((after - before))" -v hz="$(getconf CLK_TCK)" '
        / requests in / { requests = $1 }
        /Requests\/sec/ { rate = $2 }
        END { printf "%s %.2f\n", rate, ticks / hz * 1e6 / requests }'
}

patchbay=() hand=() patchbay_cpu=() hand_cpu=()
for round in $(seq "$runs"); do
    if (( round % 2 )); then order="patchbay hand"; else order="hand patchbay"; fi
    for wiring in $order; do
        read -r rate cpu < <(run_one "$wiring")
        echo "round $round $wiring: $rate requests/s, $cpu CPU us/request" >&2
        if [ "$wiring" = patchbay ]; then patchbay+=("$rate") patchbay_cpu+=("$cpu"); else hand+=("$rate") hand_cpu+=("$cpu"); fi
    done
done

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
p="$(median "${patchbay[@]}")" h="$(median "${hand[@]}")"
pc="$(median "${patchbay_cpu[@]}")" hc="$(median "${hand_cpu[@]}")"
echo "wired by Patchbay: ${patchbay[*]} -> median $p requests/s; CPU ${patchbay_cpu[*]} -> median $pc us/request"
echo "wired by hand:     ${hand[*]} -> median $h requests/s; CPU ${hand_cpu[*]} -> median $hc us/request"
awk -v p="$p" -v h="$h" -v pc="$pc" -v hc="$hc" \
    'BEGIN { printf "ratio (Patchbay / hand): %.3f requests/s, %.3f CPU per request\n", p / h, pc / hc }'
