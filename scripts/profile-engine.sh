#!/usr/bin/env bash
# Where a paced push's CPU goes (a measurement, not a test): `perf record -g` of `apnsbench run` paced against
# `apnsbench simulate` (TLS, validating, lognormal latency), the two pinned to different cores, with a libcurl
# built with symbols loaded through LD_LIBRARY_PATH (docs/benchmarks.md says how to build it).
#
# Prints the process's CPU per push, then the CPU by library (self time: each library's share of the samples,
# and that share of the CPU per push in µs), then libcurl's functions by inclusive share (the function and
# what it calls): the per-transfer steps named in docs/benchmarks.md, and the libcurl functions with the most
# self time. With two binaries (--before BIN), each is profiled in turn on the same simulator, before first.
#
# usage: scripts/profile-engine.sh --libcurl DIR [--before BIN] [--rate R | --closed-loop] [--seconds S] [--latency P50,P99]
#                                  [--connections C] [--streams S] [--keep DIR]
#   --libcurl DIR  the folder holding the libcurl.so.4 with symbols (e.g. /work/libcurl-sym/lib)
#   --before BIN   another apnsbench binary profiled first, on the same simulator
#   --closed-loop  sends closed loop (every stream kept busy) instead of paced at --rate
#   --keep DIR     keeps each perf.data (DIR/before.data, DIR/after.data) for `perf report -i`
# env:   SERVER_CPU=0 CLIENT_CPU=1, APNSBENCH_BIN (the binary profiled; default .build/release/apnsbench)
set -euo pipefail
cd "$(dirname "$0")/.."
libcurl="" before="" rate=2000 seconds=20 latency=40,200 connections=1 streams=1000 keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --libcurl) libcurl=$2; shift ;;
        --before) before=$2; shift ;;
        --rate) rate=$2; shift ;;
        --closed-loop) rate="" ;;
        --seconds) seconds=$2; shift ;;
        --latency) latency=$2; shift ;;
        --connections) connections=$2; shift ;;
        --streams) streams=$2; shift ;;
        --keep) keep=$2; shift ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "profile-engine: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
    shift
done
bench=profile-engine
source scripts/lib/bench-common.sh
bench_need "apt-get install linux-perf util-linux" perf taskset
[ -n "$libcurl" ] || { echo "profile-engine: --libcurl DIR is required (the libcurl with symbols)" >&2; exit 64; }
[ -f "$libcurl/libcurl.so.4" ] || { echo "profile-engine: no libcurl.so.4 in '$libcurl'" >&2; exit 1; }
[ -x "$bin" ] || { echo "profile-engine: no apnsbench binary at '$bin' (build it: swift build -c release --product apnsbench)" >&2; exit 1; }
[ -z "$before" ] || [ -x "$before" ] || { echo "profile-engine: --before '$before' is not an executable" >&2; exit 1; }
[ -z "$keep" ] || mkdir -p "$keep"

bench_workdir
printf 'faults:\n  latency: { lognormal_ms: { p50: %s, p99: %s } }\n' "${latency%,*}" "${latency#*,}" > "$work/sim.yaml"
bench_start_simulator simulate --port 0 --threads 1 --config "$work/sim.yaml" --ca-out "$work/ca.pem"
bench_demo_key
schedule=(--closed-loop); [ -z "$rate" ] || schedule=(--rate "$rate")
echo "simulator $url (latency $latency ms, cpu $server_cpu), client on cpu $client_cpu, ${rate:-closed loop} ${rate:+pushes/s}, $connections x $streams," \
    "${seconds} s; load: $(uptime | sed 's/.*load/load/')"

# Library (dso) names as the table groups them.
group_dso() {
    awk -F'\t' '{ d = $2
        if (d ~ /kernel/) g = "kernel"; else if (d ~ /^libcurl/) g = "libcurl"; else if (d ~ /^libc\.so|^libm\.so|^ld-linux/) g = "libc"
        else if (d ~ /^libswift|^libFoundation|^lib_Foundation|^libdispatch|^libBlocksRuntime/) g = "Swift runtime"
        else if (d ~ /^libcrypto/) g = "libcrypto"; else if (d ~ /^libssl/) g = "libssl"; else if (d ~ /jemalloc/) g = "jemalloc"
        else if (d ~ /nghttp2/) g = "nghttp2"; else if (d ~ /^apnsbench/) g = "apnsbench"; else g = "other (" d ")"
        s[g] += $1 } END { for (g in s) printf "%s\t%.1f\n", g, s[g] }' | sort -t$'\t' -k2,2 -gr
}

# The libcurl functions whose inclusive share the table shows: the per-transfer steps.
named="multi_runsingle Curl_sendrecv Curl_connect curl_url_get curl_url_set curl_url_dup Curl_http Curl_add_custom_headers"
named+=" curlx_dyn_addf curl_maprintf Curl_conn_data_pending cf_socket_data_pending Curl_expire Curl_splayinsert Curl_splayremove"
named+=" Curl_hash_add Curl_hash_delete Curl_hash_pick Curl_multi_ev_expire_xfers Curl_pgrsUpdate Curl_speedcheck Curl_pretransfer"

profile() {  # LABEL BIN
    local label=$1 exe=$2 data="$work/$1.data"
    rm -rf "$work/run"
    perf record -q -g -F 1999 -o "$data" -- taskset -c "$client_cpu" /usr/bin/time -f 'cpu %U %S wall %e' -o "$work/time.out" \
        env LD_LIBRARY_PATH="$libcurl" "$exe" run profiles/order-changes.yaml --target "$url" --ca-cert "$work/ca.pem" \
        --key-path "$keyp" --key-id "$kid" --team-id "$tid" --connections "$connections" --streams "$streams" --loop \
        --duration "${seconds}s" --quiet --out "$work/run" "${schedule[@]}" > "$work/client.out" 2>&1 || true
    [ -f "$work/run/report.json" ] || { echo "profile-engine: $label wrote no report:" >&2; cat "$work/client.out" >&2; exit 1; }
    local sent cpu_us
    sent=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["engine"]["sent"])' "$work/run/report.json")
    cpu_us=$(awk -v n="$sent" '/^cpu /{ printf "%.1f", ($2 + $3) * 1e6 / n }' "$work/time.out")
    echo
    echo "== $label: $exe ($sent pushes, $cpu_us CPU µs a push)"
    perf report -i "$data" --stdio -q --no-children --sort dso 2>/dev/null | grep -v 'libcurl.so.4' \
        | awk '$1 ~ /%$/ { p = $1; sub(/%/, "", p); $1 = ""; sub(/^ +/, ""); printf "%s\t%s\n", p, $0 }' > "$work/dso.tsv"
    perf report -i "$data" --stdio -q --no-children --sort dso 2>/dev/null | grep 'libcurl' \
        | awk '$1 ~ /%$/ { p = $1; sub(/%/, "", p); printf "%s\tlibcurl\n", p }' >> "$work/dso.tsv"
    echo "by library (self):          share   µs/push"
    group_dso < "$work/dso.tsv" | awk -F'\t' -v c="$cpu_us" '{ printf "  %-24s %6.1f%% %8.1f\n", $1, $2, $2 * c / 100 }'
    perf report -i "$data" --stdio -q --children --sort sym -g none 2>/dev/null > "$work/sym.txt"
    echo "libcurl functions (inclusive, % of the process):"
    for f in $named; do
        awk -v f="$f" -v c="$cpu_us" '$NF == f && $1 ~ /%$/ { p = $1; sub(/%/, "", p); printf "  %-28s %6.2f%% %8.1f\n", f, p, p * c / 100; exit }' \
            "$work/sym.txt"
    done
    echo "libcurl's top functions by self time:"
    # perf names the library by its file (libcurl.so.4.8.0), not by the soname link.
    perf report -i "$data" --stdio -q --no-children --sort sym --dsos "$(basename "$(readlink -f "$libcurl/libcurl.so.4")")" -g none 2>/dev/null \
        | awk '$1 ~ /%$/ { print "  " $1, $NF }' | head -15
    [ -z "$keep" ] || cp "$data" "$keep/$label.data"
}

[ -z "$before" ] || profile before "$before"
profile after "$bin"
echo
echo "load at the end: $(uptime | sed 's/.*load/load/')"
