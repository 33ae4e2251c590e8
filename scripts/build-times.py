#!/usr/bin/env python3
"""The build, target by target: what each of our modules costs, and the dependencies against our own code.

    scripts/build-times.py [--config release|debug] [--tests] [--only-ours] [--scratch-path DIR]

Builds the dependencies' targets first (one step), then our modules one at a time in dependency order
(`swift build --target T`, with `-debug-info-format none` as every script passes), each after its sources were
touched so that it compiles whole, as in a fresh clone. --only-ours skips the dependencies' step (they are
built already). Prints each step's wall time and CPU time (user + sys of the build's processes): the CPU time
is what a loaded machine does not change much, the wall time what a user waits on 2 cores when nothing else
runs. Measure twice where it matters; `uptime` before and after says how loaded the machine was.
"""
import argparse
import os
import pathlib
import resource
import subprocess
import sys
import time

# The dependencies' targets that our modules import (building them builds everything below them).
DEPENDENCIES = ["NIOHTTP2", "NIOSSL", "NIOHTTP1", "NIOPosix", "Yams", "Histogram", "ArgumentParser"]
DEBUG_TEST_DEPENDENCIES = ["NIOEmbedded"]
# Our modules, each after the ones it imports.
OURS = ["CLibcrypto", "CCurl", "APNsCore", "DeviceContract", "YAMLReading", "APNsEngine", "Reporting", "Replay",
        "APNsSimulator", "Harness", "RunOptions", "TestSupport", "apnsbench"]
TESTS = ["APNsCoreTests", "RunOptionsTests", "APNsEngineTests", "APNsSimulatorTests", "InteropTests", "HarnessTests",
         "CommandLineTests", "ReplayTests", "DeviceContractTests", "ReportingTests", "EndToEndTests"]


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(args, target):
    command = ["swift", "build", "-c", args.config, "-debug-info-format", "none", "--target", target]
    if args.scratch_path:
        command += ["--scratch-path", args.scratch_path]
    wall, cpu = time.monotonic(), children_cpu()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:])
        sys.exit(f"build-times: `{' '.join(command)}` failed (exit {done.returncode})")
    return time.monotonic() - wall, children_cpu() - cpu


def touch(target):
    folder = pathlib.Path("Tests" if target.endswith("Tests") else "Sources") / target
    for path in folder.rglob("*"):
        if path.suffix in (".swift", ".c", ".h"):
            path.touch()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", choices=["release", "debug"], default="release")
    parser.add_argument("--tests", action="store_true", help="also the test targets (debug)")
    parser.add_argument("--only-ours", action="store_true", help="skip the dependencies' step")
    parser.add_argument("--scratch-path")
    args = parser.parse_args()
    os.chdir(pathlib.Path(__file__).resolve().parent.parent)
    rows = []
    if not args.only_ours:
        wall = cpu = 0.0
        for target in DEPENDENCIES + (DEBUG_TEST_DEPENDENCIES if args.tests else []):
            w, c = build(args, target)
            wall, cpu = wall + w, cpu + c
        rows.append(("dependencies", wall, cpu))
        print(f"build-times: dependencies {wall:.1f} s wall, {cpu:.1f} s CPU", file=sys.stderr, flush=True)
    for target in OURS + (TESTS if args.tests else []):
        touch(target)
        w, c = build(args, target)
        rows.append((target, w, c))
        print(f"build-times: {target} {w:.1f} s wall, {c:.1f} s CPU", file=sys.stderr, flush=True)
    ours = [r for r in rows if r[0] != "dependencies"]
    print(f"| module ({args.config}) | wall s | CPU s |")
    print("| --- | --: | --: |")
    for name, wall, cpu in rows:
        print(f"| {name} | {wall:.0f} | {cpu:.0f} |")
    print(f"| our modules, in all | {sum(r[1] for r in ours):.0f} | {sum(r[2] for r in ours):.0f} |")
    print(f"| everything | {sum(r[1] for r in rows):.0f} | {sum(r[2] for r in rows):.0f} |")


if __name__ == "__main__":
    main()
