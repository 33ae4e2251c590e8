#!/usr/bin/env python3
"""Checks JUnit XML files against the structure the common JUnit schemas (Ant's junit.xsd as Jenkins, GitLab
and GitHub test reporters read it) require, and prints one line per file: `ok: FILE (N testcases, F failures)`
or each problem found. Exit 0 when every file passes, 1 otherwise.

Checked: well-formed XML; the root is <testsuites> or <testsuite>; every <testsuite> has a name and integer
tests/failures/errors/skipped counts that match its own <testcase> and <failure>/<error>/<skipped> children;
<testsuites> totals match its suites; every <testcase> has name and classname and holds only skipped,
error, failure, system-out and system-err, at most one of the first three; every <failure>/<error> has a
message or a type; a <testsuite> holds only properties, testcase, system-out and system-err.

    scripts/check-junit.py FILE...
"""
import sys
import xml.etree.ElementTree as ET

CASE_CHILDREN = {"skipped", "error", "failure", "system-out", "system-err"}
SUITE_CHILDREN = {"properties", "testcase", "system-out", "system-err"}


def integer(element, name, problems, required=True):
    value = element.get(name)
    if value is None:
        if required:
            problems.append(f"<{element.tag} name={element.get('name')!r}> has no {name} attribute")
        return None
    try:
        n = int(value)
    except ValueError:
        problems.append(f"<{element.tag}> {name}={value!r} is not an integer")
        return None
    if n < 0:
        problems.append(f"<{element.tag}> {name}={n} is negative")
    return n


def check_case(case, problems):
    for attribute in ("name", "classname"):
        if not case.get(attribute):
            problems.append(f"<testcase> without {attribute}: {ET.tostring(case, encoding='unicode')[:120]}")
    outcomes = [c for c in case if c.tag in ("skipped", "error", "failure")]
    if len(outcomes) > 1:
        problems.append(f"<testcase name={case.get('name')!r}> has {len(outcomes)} outcomes (at most one)")
    for child in case:
        if child.tag not in CASE_CHILDREN:
            problems.append(f"<testcase name={case.get('name')!r}> holds <{child.tag}>")
        if child.tag in ("failure", "error") and not (child.get("message") or child.get("type")):
            problems.append(f"<{child.tag}> in {case.get('name')!r} has neither message nor type")
    return [c.tag for c in outcomes]


def check_suite(suite, problems):
    if not suite.get("name"):
        problems.append("<testsuite> without name")
    cases, failures, errors, skipped = 0, 0, 0, 0
    for child in suite:
        if child.tag not in SUITE_CHILDREN:
            problems.append(f"<testsuite name={suite.get('name')!r}> holds <{child.tag}>")
        if child.tag == "testcase":
            cases += 1
            outcome = check_case(child, problems)
            failures += outcome.count("failure")
            errors += outcome.count("error")
            skipped += outcome.count("skipped")
    for name, found in (("tests", cases), ("failures", failures), ("errors", errors), ("skipped", skipped)):
        declared = integer(suite, name, problems, required=name == "tests")
        if declared is not None and declared != found:
            problems.append(f"<testsuite name={suite.get('name')!r}> says {name}={declared}, holds {found}")
    return cases, failures


def check(path):
    problems = []
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        return [f"not well-formed XML: {e}"], 0, 0
    if root.tag == "testsuite":
        cases, failures = check_suite(root, problems)
    elif root.tag == "testsuites":
        cases = failures = 0
        suites = [c for c in root if c.tag == "testsuite"]
        if not suites:
            problems.append("<testsuites> holds no <testsuite>")
        for other in (c for c in root if c.tag != "testsuite"):
            problems.append(f"<testsuites> holds <{other.tag}>")
        for suite in suites:
            c, f = check_suite(suite, problems)
            cases, failures = cases + c, failures + f
        for name, found in (("tests", cases), ("failures", failures)):
            declared = integer(root, name, problems, required=False)
            if declared is not None and declared != found:
                problems.append(f"<testsuites> says {name}={declared}, its suites hold {found}")
    else:
        return [f"the root is <{root.tag}>, not <testsuites> or <testsuite>"], 0, 0
    return problems, cases, failures


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 64
    status = 0
    for path in paths:
        problems, cases, failures = check(path)
        if problems:
            status = 1
            for p in problems:
                print(f"{path}: {p}")
        else:
            print(f"ok: {path} ({cases} testcases, {failures} failures)")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
