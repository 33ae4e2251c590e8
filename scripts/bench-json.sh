#!/usr/bin/env bash
# The JSON scanners measured (docs/benchmarks.md, "JSON scanners"): Benchmarks/JSONScanners/main.swift
# built with `swiftc -O` together with the scanners' own source files and APNsCore's JSON folder (so it
# measures them as they are,
# without building the simulator's dependencies), against Foundation, jansson (libjansson-dev) and simdjson
# (libsimdjson-dev, Benchmarks/JSONScanners/simdjson_lines.cpp, built with g++ -O2).
# The inputs: the shipped recordings' lines, and the push payloads `apnsbench plan` renders for the
# shipped Live Activity profiles (the debug build's apnsbench; `swift build` first).
#
#   scripts/bench-json.sh [PASSES]      default 20
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-20}
work=${TMPDIR:-/tmp}/apnsbench-bench-json
mkdir -p "$work"
for header in jansson simdjson; do
    [ -f "/usr/include/$header.h" ] || { echo "bench-json.sh: lib$header-dev is needed (apt-get install lib$header-dev)" >&2; exit 1; }
done

cat profiles/streams/*.ndjson > "$work/lines.ndjson"
: > "$work/payloads.ndjson"
for profile in profiles/leave-requests.yaml profiles/order-changes.yaml profiles/cdbl-leave.yaml; do
    .build/debug/apnsbench plan "$profile" --out "$work/plan.ndjson" --quiet > /dev/null
    python3 -c '
import json, sys
with open(sys.argv[1]) as plan, open(sys.argv[2], "a") as out:
    for line in plan:
        push = json.loads(line)
        if "payload" in push:
            out.write(json.dumps(push["payload"], separators=(",", ":"), ensure_ascii=False) + "\n")
' "$work/plan.ndjson" "$work/payloads.ndjson"
done

# JSONTape is APNsCore's: its folder is built as a module of that name first, as the package builds it.
swiftc -O -wmo -parse-as-library -module-name APNsCore Sources/APNsCore/JSON/*.swift Sources/APNsCore/DeviceToken.swift \
    -emit-module -emit-module-path "$work/APNsCore.swiftmodule" -c -o "$work/APNsCore.o"
swiftc -O -wmo -module-name JSONScanners -I Benchmarks/JSONScanners/CJansson -I "$work" \
    Sources/Replay/Stream/FlatJSON.swift Sources/Replay/Stream/FlatJSONObject.swift \
    Sources/Replay/Stream/FlatJSONObject+Nested.swift Sources/Replay/Stream/StreamLineError.swift Sources/Replay/Stream/StreamError.swift \
    Sources/APNsSimulator/Validation/PayloadShape.swift \
    Benchmarks/JSONScanners/main.swift "$work/APNsCore.o" -o "$work/bench-json"
"$work/bench-json" "$work/lines.ndjson" "$work/payloads.ndjson" "$passes"
g++ -O2 -std=c++17 Benchmarks/JSONScanners/simdjson_lines.cpp -lsimdjson -o "$work/simdjson-lines"
"$work/simdjson-lines" "$work/lines.ndjson" "$work/payloads.ndjson" "$passes"
