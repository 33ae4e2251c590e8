#!/usr/bin/env python3
"""The XCTest phase, one process per test class, on N workers; writes a JUnit file and exits non-zero on a failure.

    scripts/xctest-by-class.py [--workers N] [--xunit FILE] [--binary XCTEST] [--filter REGEX]
    scripts/xctest-by-class.py --self-test

`swift test --parallel` starts one process per test method: 1,173 processes, each loading the whole debug test
binary (about 0.25 s on an idle 2-core machine, more when it is busy), which is a third of the phase's time over
2 workers. Here each class runs in one process, its methods one after another as `swift test --filter CLASS`
runs them, and the classes run side by side. The longest classes start first: their order is the last run's
times (FILE, when it is there), else SLOW_FIRST, then the rest by name. A process that ends without finishing
its class (a crash) fails the test it was in and every test of the class it did not reach, naming the exit.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

# The classes that took longest in a whole run (docs/testing.md), started first when there is no earlier run to go by.
SLOW_FIRST = ["EndToEndTests.ProfileRoundTripReplayTests", "HarnessTests.ShippedFileMutationTests", "CommandLineTests.OutputDeclarationTests",
              "EndToEndTests.DeviceContractReplayTests", "EndToEndTests.ModelFitEndToEndTests", "EndToEndTests.RateSweepTests",
              "InteropTests.TargetOutageTests", "APNsEngineTests.CurlEngineTests", "EndToEndTests.MixReplayTests",
              "InteropTests.ScaleCommandTests", "InteropTests.ShardedRunTests"]
CASE = re.compile(r"^Test Case '(?:[\w.]+\.)?(\w+)\.(\w+)' (started at|passed|failed|skipped)(?: \((\d+(?:\.\d+)?) seconds\))?")


def list_tests(binary, pattern):
    """The test classes (module.Class) and their methods, in the binary's order."""
    out = subprocess.run([binary, "--list-tests"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True).stdout
    classes = {}
    for line in out.splitlines():
        if "/" in line and (pattern is None or re.search(pattern, line)):
            name, method = line.strip().split("/", 1)
            classes.setdefault(name, []).append(method)
    return classes


def previous_times(path):
    """Seconds per class in an earlier JUnit file (empty when there is none)."""
    times = {}
    try:
        for case in ET.parse(path).getroot().iter("testcase"):
            times[case.get("classname")] = times.get(case.get("classname"), 0.0) + float(case.get("time") or 0)
    except (OSError, ET.ParseError):
        pass
    return times


def order(classes, times):
    """Longest first: by the last run's times when it had the class, else SLOW_FIRST, then by name."""
    def key(name):
        if name in times:
            return (0, -times[name], name)
        return (1, SLOW_FIRST.index(name) if name in SLOW_FIRST else len(SLOW_FIRST), name)
    return sorted(classes, key=key)


def parse(name, methods, output, returncode):
    """Each method's outcome from one class's output: (method, status, seconds, message)."""
    results, running, messages = {}, None, {}
    short = name.split(".")[-1]
    for line in output.splitlines():
        match = CASE.match(line)
        if match and match.group(1) == short:
            method, what = match.group(2), match.group(3)
            if what == "started at":
                running = method
            else:
                results[method] = (what, float(match.group(4) or 0))
                running = None
        elif ": error: " in line and running is not None:
            messages.setdefault(running, []).append(line.strip())
    ended = f"the test process ended with exit code {returncode}" if returncode >= 0 else f"the test process was killed by signal {-returncode}"
    rows = []
    for method in methods:
        if method in results:
            status, seconds = results[method]
            rows.append((method, status, seconds, "\n".join(messages.get(method, []))))
        elif method == running:
            rows.append((method, "failed", 0.0, f"{ended} during this test"))
        else:
            rows.append((method, "failed", 0.0, f"not run: {ended} before this test"))
    return rows


def run_class(binary, name, methods):
    start = time.monotonic()
    done = subprocess.run([binary, name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    rows = parse(name, methods, done.stdout, done.returncode)
    return name, rows, done.stdout, time.monotonic() - start


def write_junit(path, results):
    root = ET.Element("testsuites")
    suite = ET.SubElement(root, "testsuite", name="TestResults")
    for name, rows in results:
        for method, status, seconds, message in rows:
            case = ET.SubElement(suite, "testcase", classname=name, name=method, time=f"{seconds:.3f}")
            if status == "failed":
                ET.SubElement(case, "failure", message=message or "failed")
            elif status == "skipped":
                ET.SubElement(case, "skipped", message=message)
    suite.set("tests", str(sum(len(rows) for _, rows in results)))
    suite.set("failures", str(sum(1 for _, rows in results for row in rows if row[1] == "failed")))
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def run_all(args):
    classes = list_tests(args.binary, args.filter)
    if not classes:
        sys.exit(f"xctest-by-class: no tests in {args.binary}" + (f" match {args.filter}" if args.filter else ""))
    queue = order(classes, previous_times(args.xunit))
    results, failed, start = [], 0, time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(run_class, args.binary, name, classes[name]) for name in queue]
        for count, future in enumerate(concurrent.futures.as_completed(futures), 1):
            name, rows, output, seconds = future.result()
            results.append((name, rows))
            bad = [row for row in rows if row[1] == "failed"]
            failed += len(bad)
            print(f"[{count}/{len(queue)}] {name}: {len(rows) - len(bad)} of {len(rows)} passed ({seconds:.1f} s)", flush=True)
            if bad:
                print(output, flush=True)
                for method, _, _, message in bad:
                    print(f"xctest-by-class: FAILED {name}/{method}: {message}", flush=True)
    write_junit(args.xunit, results)
    total = sum(len(rows) for _, rows in results)
    print(f"xctest-by-class: {total} tests in {len(queue)} classes, {failed} failed, {time.monotonic() - start:.0f} s on {args.workers} workers")
    return 1 if failed else 0


def self_test():
    """The reading of a class's output: passes, a failure with its message, a crash mid-class."""
    output = "\n".join([
        "Test Suite 'Selected tests' started at 2026-01-01 00:00:00.000",
        "Test Case 'FooTests.testA' started at 2026-01-01 00:00:00.000",
        "Test Case 'FooTests.testA' passed (1.5 seconds)",
        "Test Case 'FooTests.testB' started at 2026-01-01 00:00:01.500",
        "/src/FooTests.swift:9: error: FooTests.testB : XCTAssertEqual failed: (\"1\") is not equal to (\"2\")",
        "Test Case 'FooTests.testB' failed (0.25 seconds)",
        "Test Case 'FooTests.testC' started at 2026-01-01 00:00:01.750",
    ])
    rows = parse("M.FooTests", ["testA", "testB", "testC", "testD"], output, -11)
    assert rows == [
        ("testA", "passed", 1.5, ""),
        ("testB", "failed", 0.25, "/src/FooTests.swift:9: error: FooTests.testB : XCTAssertEqual failed: (\"1\") is not equal to (\"2\")"),
        ("testC", "failed", 0.0, "the test process was killed by signal 11 during this test"),
        ("testD", "failed", 0.0, "not run: the test process was killed by signal 11 before this test"),
    ], rows
    assert order(["M.A", "M.B", "InteropTests.TargetOutageTests", "M.C"], {"M.C": 3.0, "M.B": 9.0}) == \
        ["M.B", "M.C", "InteropTests.TargetOutageTests", "M.A"]
    print("xctest-by-class: self-test passed")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--xunit", default=".build/xctest-results.xml", help="the JUnit file written (its last version orders the classes)")
    parser.add_argument("--binary", default=".build/debug/apnsbenchPackageTests.xctest")
    parser.add_argument("--filter", help="only the tests whose module.Class/method matches this regular expression")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    sys.exit(self_test() if args.self_test else run_all(args))


if __name__ == "__main__":
    main()
