#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Targets/) and runs each for a bounded time from its committed corpus
# (Fuzz/corpus/TARGET/). Exits non-zero if any target crashed, hung or ran out of memory, and prints the
# path of the input that did it (replay it with `.build-fuzz/bin/TARGET INPUT`).
#
#   scripts/fuzz.sh [--seconds N] [--jobs N] [--build-only | --skip-build] [TARGET...]
#
#   --seconds N    how long each target runs (default 60)
#   --jobs N       how many targets run at once (default 1: one after another; each target is one process on
#                  one core, so up to the number of cores keeps each as fast as alone)
#   --build-only   build the fuzzers, run nothing
#   --skip-build   run the fuzzers a --build-only run built (.build-fuzz/bin/), building nothing
#   TARGET         stream-line, profile, payload-template, request-validator (default: all)
#
# How it stays cheap: only our own modules (APNsCore, YAMLReading, Replay, APNsSimulator) are compiled here, with
# `swiftc -sanitize=fuzzer,address`, into .build-fuzz/. The packages they import (Yams, swift-nio,
# swift-nio-ssl, ...) are linked from the package's debug build in .build/debug, uninstrumented: the tests
# build it anyway, and this script runs `swift build --target` for what is missing. Coverage therefore
# guides the fuzzers through our code, not through Yams or NIO.
#
# FUZZ_OPT sets the optimization of our instrumented modules: -O (default; a cold build of them takes about
# 1.5 minutes and the fuzzers run up to 13 times faster than with -Onone) or -Onone (30 s, and the debug
# bounds checks of unsafe buffers stay on; AddressSanitizer finds most of what they would). APNsCore and
# YAMLReading compile first, one after the other; the modules that import them (Replay, APNsSimulator)
# compile at the same time, as do the fuzzers' links.
# FUZZ_SKIP_PACKAGE_BUILD=1 skips step 1 when the caller has just built the package's debug build (the tests').
#
# Fuzz/dictionaries/TARGET.dict lists the words each input format is made of (keys, header names, slot
# syntax) for libFuzzer to splice in. New inputs the fuzzers find go to .build-fuzz/corpus/TARGET/ (the
# committed corpus is only read);
# crashes to .build-fuzz/crashes/TARGET/, logs to .build-fuzz/logs/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60 jobs=1 build_only=0 skip_build=0 targets=()
all_targets=(stream-line profile recipe payload-template request-validator)
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --build-only) build_only=1; shift ;;
        --skip-build) skip_build=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        -*) echo "fuzz: unknown option $1 (see the comment at the top of $0)" >&2; exit 64 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
case "$jobs" in ''|*[!0-9]*|0) echo "fuzz: --jobs takes a whole number from 1, found '$jobs'" >&2; exit 64 ;; esac
for t in "${targets[@]}"; do
    case " ${all_targets[*]} " in *" $t "*) ;; *) echo "fuzz: unknown target $t (known: ${all_targets[*]})" >&2; exit 64 ;; esac
done

say() { printf 'fuzz: %s\n' "$*" >&2; }
out=.build-fuzz
opt=${FUZZ_OPT:--O}
case "$opt" in -O|-Onone) ;; *) echo "fuzz: FUZZ_OPT must be -O or -Onone" >&2; exit 64 ;; esac
modules="$out/modules$opt" objects_dir="$out/obj$opt"  # one set per optimization: switching rebuilds nothing
mkdir -p "$modules" "$objects_dir" "$out/deps" "$out/bin"
started=$SECONDS

# What each fuzzer needs: our modules (in build order) and the package target whose debug build brings
# the rest.
modules_for() {
    case "$1" in
        payload-template) echo APNsCore ;;
        stream-line|profile|recipe) echo APNsCore YAMLReading Replay ;;
        request-validator) echo APNsCore YAMLReading APNsSimulator ;;
    esac
}
needed=()
for t in "${targets[@]}"; do for m in $(modules_for "$t"); do
    case " ${needed[*]-} " in *" $m "*) ;; *) needed+=("$m") ;; esac
done; done

if [ "$skip_build" = 1 ]; then
    for t in "${targets[@]}"; do
        [ -x "$out/bin/$t" ] || { say "--skip-build: $out/bin/$t is not built (scripts/fuzz.sh --build-only builds it)"; exit 1; }
    done
else
# 1. The dependencies, from the package's debug build (a no-op when the tests built it).
for m in "${needed[@]}"; do
    [ "$m" = APNsCore ] && continue
    [ "${FUZZ_SKIP_PACKAGE_BUILD:-0}" = 1 ] && [ -d .build/debug/Modules ] && continue
    t0=$SECONDS
    say "swift build --target $m (the packages it imports, uninstrumented)"
    mkdir -p "$out/logs"
    if ! swift build -debug-info-format none --target "$m" >"$out/logs/swift-build-$m.log" 2>&1; then
        tail -20 "$out/logs/swift-build-$m.log" >&2
        say "swift build --target $m failed (log: $out/logs/swift-build-$m.log)"
        exit 1
    fi
    say "swift build --target $m done ($((SECONDS - t0)) s)"
done
debug=$(cd .build/debug && pwd -P)
ours=" APNsCore YAMLReading APNsEngine APNsSimulator Replay Reporting Harness TestSupport apnsbench CCurl "
# Swift modules: every module of the debug build that is not ours (ours are built below).
find "$out/deps" -mindepth 1 -delete
for mod in "$debug"/Modules/*.swiftmodule; do
    name=$(basename "$mod" .swiftmodule)
    case "$ours" in *" $name "*) continue ;; esac
    case "$name" in *Tests) continue ;; esac
    ln -s "$mod" "$out/deps/"
done
# C modules (module maps and include folders of the packages' C targets).
clang_flags=()
for map in "$debug"/*.build/module.modulemap .build/checkouts/*/Sources/*/include/module.modulemap; do
    [ -f "$map" ] && clang_flags+=(-Xcc "-fmodule-map-file=$(realpath "$map")")
done
for inc in .build/checkouts/*/Sources/*/include; do
    clang_flags+=(-Xcc -I -Xcc "$(realpath "$inc")")
done
# Objects: one thin archive of every library object of the packages, so that the linker takes only what a
# fuzzer uses (executables' objects, which define `main`, are left out: libFuzzer brings its own).
t0=$SECONDS
archive="$out/deps/libpackages.a"
objects=()
for dir in "$debug"/*.build; do
    name=$(basename "$dir" .build)
    case "$ours" in *" $name "*) continue ;; esac
    case "$name" in *Tests|*-tool) continue ;; esac
    while IFS= read -r o; do objects+=("$o"); done < <(find "$dir" -name '*.o')
done
mains=$(nm -A --defined-only "${objects[@]}" 2>/dev/null | { grep -E ' T (main|__main_argc_argv)$' || true; } | cut -d: -f1 | sort -u)
rm -f "$archive"
mapfile -t objects < <(printf '%s\n' "${objects[@]}" | grep -vxF -f <(printf '%s\n' "$mains"))
ar qcsT "$archive" "${objects[@]}"  # one call: appending to a thin archive again drops same-named members
say "archived the packages' objects ($((SECONDS - t0)) s)"

# 2. Our modules, instrumented, in dependency order. One is rebuilt when a source of it is newer than its
# object, or the object of a module before it in `first` is (the others import them).
sanitize=(-sanitize=fuzzer,address "$opt" -g)
swift_mode() { echo 6; }  # every module builds in the Swift 6 language mode
first=(APNsCore YAMLReading)  # compiled in this order, before the others
up_to_date() {
    local obj="$objects_dir/$1.o" m
    [ -f "$obj" ] && [ -z "$(find "Sources/$1" -name '*.swift' -newer "$obj" -print -quit)" ] || return 1
    for m in "${first[@]}"; do
        [ "$m" = "$1" ] && return 0
        [ "$objects_dir/$m.o" -nt "$obj" ] && return 1
    done
    return 0
}
compile() {
    local m=$1 obj="$objects_dir/$1.o" t0=$SECONDS sources
    mapfile -t sources < <(find "Sources/$m" -name '*.swift' | sort)
    swiftc -module-name "$m" -parse-as-library -wmo -enable-testing -swift-version "$(swift_mode "$m")" \
        "${sanitize[@]}" -I "$modules" -I "$out/deps" "${clang_flags[@]}" \
        -emit-module -emit-module-path "$modules/$m.swiftmodule" -c -o "$obj" "${sources[@]}" || return 1
    touch "$obj"  # swiftc leaves an unchanged output file as it was, old time included
    say "compiled $m ($((SECONDS - t0)) s)"
}
# The modules of `first` in their order (the others import them), then the others at the same time.
for m in "${first[@]}"; do
    if [[ " ${needed[*]} " == *" $m "* ]] && ! up_to_date "$m"; then compile "$m"; fi
done
pids=()
for m in "${needed[@]}"; do
    [[ " ${first[*]} " == *" $m "* ]] && continue
    up_to_date "$m" && continue
    compile "$m" & pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || { say "compiling our modules failed"; exit 1; }; done

# 3. The fuzzers: a target's file, our modules' objects, the packages' archive, libFuzzer's main (linked at
# the same time, each into its own file).
link() {
    local t=$1 t0=$SECONDS src objs=() m
    src="Fuzz/Targets/$(echo "$t" | sed -E 's/(^|-)([a-z])/\U\2/g')Fuzzer.swift"
    for m in $(modules_for "$t"); do objs+=("$objects_dir/$m.o"); done
    rm -f "$out/bin/$t"
    swiftc -module-name "$(basename "$src" .swift)" -parse-as-library -swift-version 6 "${sanitize[@]}" \
        -I "$modules" -I "$out/deps" "${clang_flags[@]}" \
        "$src" "${objs[@]}" "$archive" -lstdc++ -lcrypto -o "$out/bin/$t" 2>&1 | { grep -v 'Cannot export local symbol' || true; } >&2
    [ -x "$out/bin/$t" ] || { say "linking $t failed"; return 1; }
    say "built $out/bin/$t ($((SECONDS - t0)) s)"
}
pids=()
for t in "${targets[@]}"; do link "$t" & pids+=($!); done
for pid in "${pids[@]}"; do wait "$pid" || exit 1; done
say "build done in $((SECONDS - started)) s"
fi
[ "$build_only" = 1 ] && exit 0

# 4. Runs, --jobs targets at a time: -timeout finds hangs, -rss_limit_mb runaway memory. Each run writes its
# verdict to $out/logs/TARGET.verdict, printed in the targets' order when all have run.
fuzz_one() {
    local t=$1 log="$out/logs/$1.log" dict=() rc runs
    mkdir -p "$out/corpus/$t" "$out/crashes/$t" "$out/logs"
    [ -f "Fuzz/dictionaries/$t.dict" ] && dict=(-dict="Fuzz/dictionaries/$t.dict")
    set +e
    LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
    "$out/bin/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
        -artifact_prefix="$out/crashes/$t/" "$out/corpus/$t" "Fuzz/corpus/$t" >"$log" 2>&1
    rc=$?
    set -e
    runs=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 || true)
    if [ $rc -eq 0 ]; then
        echo "fuzz: $t: ${runs:-no summary} ($(find "$out/corpus/$t" -type f | wc -l) inputs in $out/corpus/$t)" >"$out/logs/$t.verdict"
    else
        {
            echo "fuzz: $t FAILED (exit $rc): $(grep -m1 -E 'ERROR: |Fatal error|deadly signal|timeout' "$log" || echo 'see the log')"
            grep -E 'Test unit written to|artifact_prefix' "$log" | sed 's/^/fuzz:   /' || true
            echo "fuzz:   log: $log"
        } >"$out/logs/$t.verdict"
    fi
    return $rc
}
failed=()
declare -A running=()
for t in "${targets[@]}"; do
    while [ ${#running[@]} -ge "$jobs" ]; do
        wait -n || true
        for r in "${!running[@]}"; do kill -0 "${running[$r]}" 2>/dev/null || unset "running[$r]"; done
    done
    say "running $t for $seconds s"
    rm -f "$out/logs/$t.verdict"
    fuzz_one "$t" & running[$t]=$!
done
wait || true
for t in "${targets[@]}"; do
    if [ -f "$out/logs/$t.verdict" ]; then cat "$out/logs/$t.verdict"; else echo "fuzz: $t FAILED: no verdict"; fi
    grep -q "^fuzz: $t: " "$out/logs/$t.verdict" 2>/dev/null || failed+=("$t")
done
say "done in $((SECONDS - started)) s"
if [ ${#failed[@]} -gt 0 ]; then
    say "crashed: ${failed[*]}"
    exit 1
fi
