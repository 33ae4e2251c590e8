#!/usr/bin/env python3
"""Checks the CI examples the repository ships: the GitHub Actions workflows (.github/workflows/*.yml) and the
GitLab CI file (deploy/ci/gitlab-ci.yml). Each is read as YAML (PyYAML) and checked against the structure its CI
system requires (the keys a workflow, job and step may have and must have, one of `uses`/`run` per step, an
`owner/repo@ref` action; GitLab's reserved keys, a job's `script`, its `stage` among `stages`, artifact and rule
keys), and every command it runs is checked against the repository: each `scripts/NAME` exists and is
executable, each flag given to scripts/ci-regression.sh is one its --help names, and with --apnsbench BINARY each
flag given to `apnsbench SUBCOMMAND` (or `.build/debug/apnsbench`) is one that subcommand's --help names.

    scripts/check-ci-examples.py [--apnsbench BINARY] [FILE...]

Prints `ok: FILE` or each problem; exit 0 when every file passes, 1 otherwise.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GH_JOB_KEYS = {"runs-on", "container", "timeout-minutes", "steps", "env", "needs", "if", "permissions", "strategy",
               "services", "defaults", "outputs", "name", "concurrency", "continue-on-error"}
GH_STEP_KEYS = {"name", "id", "uses", "run", "with", "env", "if", "continue-on-error", "timeout-minutes", "shell", "working-directory"}
GH_EVENTS = {"pull_request", "push", "workflow_dispatch", "schedule", "pull_request_target", "merge_group", "workflow_call"}
GL_RESERVED = {"stages", "variables", "default", "workflow", "include", "image", "services", "cache", "before_script", "after_script"}
GL_JOB_KEYS = {"stage", "image", "script", "before_script", "after_script", "rules", "variables", "cache", "artifacts", "timeout",
               "allow_failure", "needs", "tags", "services", "when", "retry", "interruptible", "dependencies", "environment", "extends"}
GL_ARTIFACT_KEYS = {"paths", "when", "reports", "expire_in", "name", "expose_as", "untracked", "exclude"}
GL_RULE_KEYS = {"if", "when", "changes", "exists", "allow_failure", "variables"}


def help_flags(command):
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=ROOT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"{' '.join(command)}: {e}"
    return set(re.findall(r"--[a-z][a-z0-9-]*", out.stdout + out.stderr)), None


def check_commands(text, where, problems, apnsbench):
    """Every scripts/NAME exists; flags of ci-regression.sh and of apnsbench subcommands are real."""
    for line in text.splitlines():
        line = line.strip()
        for script in re.findall(r"(?<![\w/.])scripts/[\w.-]+", line):
            path = os.path.join(ROOT, script)
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                problems.append(f"{where}: runs {script}, which is not an executable file of the repository")
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        for i, word in enumerate(words):
            if word == "scripts/ci-regression.sh":
                known, err = help_flags([os.path.join(ROOT, word), "--help"])
                used = [w for w in words[i + 1:] if w.startswith("--")]
                if "--" in words[i + 1:]:
                    used = used[:used.index("--")] if "--" in used else used
                check_flags(word, used, known, err, where, problems)
            elif apnsbench and (word.endswith("/apnsbench") or word == "apnsbench") and i + 1 < len(words):
                sub = words[i + 1]
                if sub.startswith("-"):
                    continue
                known, err = help_flags([apnsbench, sub, "--help"])
                check_flags(f"apnsbench {sub}", [w.split("=")[0] for w in words[i + 2:] if w.startswith("--")], known, err, where, problems)


def check_flags(command, used, known, err, where, problems):
    if err:
        problems.append(f"{where}: {err}")
        return
    for flag in used:
        if flag != "--" and flag not in known:
            problems.append(f"{where}: {command} has no flag {flag} (its --help does not name it)")


def check_github(doc, path, problems, apnsbench):
    if not isinstance(doc, dict):
        return problems.append("a workflow is a mapping")
    on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` as true
    if not isinstance(doc.get("name"), str):
        problems.append("no name")
    if on is None:
        problems.append("no `on` (the events that start the workflow)")
    elif isinstance(on, dict):
        for event in on:
            if event not in GH_EVENTS:
                problems.append(f"on: unknown event {event}")
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        return problems.append("no jobs")
    for name, job in jobs.items():
        where = f"jobs.{name}"
        if not isinstance(job, dict):
            problems.append(f"{where} is not a mapping")
            continue
        for key in job:
            if key not in GH_JOB_KEYS:
                problems.append(f"{where}: unknown key {key}")
        if "runs-on" not in job:
            problems.append(f"{where}: no runs-on")
        if not isinstance(job.get("timeout-minutes", 0), int):
            problems.append(f"{where}: timeout-minutes is not a number")
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            problems.append(f"{where}: no steps")
            continue
        ids = set()
        for n, step in enumerate(steps):
            at = f"{where}.steps[{n}]"
            if not isinstance(step, dict):
                problems.append(f"{at} is not a mapping")
                continue
            for key in step:
                if key not in GH_STEP_KEYS:
                    problems.append(f"{at}: unknown key {key}")
            if ("uses" in step) == ("run" in step):
                problems.append(f"{at}: needs exactly one of uses and run")
            if "uses" in step and not re.fullmatch(r"[\w.-]+/[\w./-]+@[\w.-]+", str(step["uses"])):
                problems.append(f"{at}: uses {step['uses']!r} is not owner/repo@ref")
            if "with" in step and not isinstance(step["with"], dict):
                problems.append(f"{at}: with is not a mapping")
            if "id" in step:
                if step["id"] in ids:
                    problems.append(f"{at}: id {step['id']} repeated")
                ids.add(step["id"])
            if "run" in step:
                check_commands(str(step["run"]), at, problems, apnsbench)
        check_gate_use([str(s.get("run", "")) for s in steps if isinstance(s, dict)], where, problems)
        comments = [s for s in steps if isinstance(s, dict) and "createComment" in str((s.get("with") or {}).get("script", ""))]
        if any("scripts/ci-regression.sh" in str(s.get("run", "")) for s in steps if isinstance(s, dict)) and len(comments) != 1:
            problems.append(f"{where}: posts {len(comments)} pull-request comments; the gate's verdict is one comment")


def check_gate_use(runs, where, problems):
    """The gate's verdict comes from scripts/ci-regression.sh: no step judges again with flags of its own, and no
    step appends to $GITHUB_STEP_SUMMARY what the script appends already (it would be written twice)."""
    if not any("scripts/ci-regression.sh" in r for r in runs):
        return
    for r in runs:
        if re.search(r"apnsbench\s+compare\b", r) and "scripts/ci-regression.sh" not in r:
            problems.append(f"{where}: runs `apnsbench compare` beside scripts/ci-regression.sh: use the files the gate writes "
                            "(compare.md, summary.md, compare.xml), judged with its own flags")
        if "GITHUB_STEP_SUMMARY" in r:
            problems.append(f"{where}: writes $GITHUB_STEP_SUMMARY, which scripts/ci-regression.sh writes already")


def check_gitlab(doc, path, problems, apnsbench):
    if not isinstance(doc, dict):
        return problems.append("a GitLab CI file is a mapping")
    stages = doc.get("stages", ["build", "test", "deploy"])
    jobs = {k: v for k, v in doc.items() if k not in GL_RESERVED and not str(k).startswith(".")}
    if not jobs:
        problems.append("no jobs")
    for name, job in jobs.items():
        where = name
        if not isinstance(job, dict):
            problems.append(f"{where} is not a mapping")
            continue
        for key in job:
            if key not in GL_JOB_KEYS:
                problems.append(f"{where}: unknown key {key}")
        script = job.get("script")
        if not isinstance(script, list) or not all(isinstance(s, str) for s in script) or not script:
            problems.append(f"{where}: script must be a list of commands")
        if job.get("stage", "test") not in stages:
            problems.append(f"{where}: stage {job.get('stage')} is not in stages {stages}")
        for rule in job.get("rules", []):
            if not isinstance(rule, dict) or any(k not in GL_RULE_KEYS for k in rule):
                problems.append(f"{where}: rule {rule!r} has keys GitLab does not know")
        artifacts = job.get("artifacts", {})
        for key in artifacts:
            if key not in GL_ARTIFACT_KEYS:
                problems.append(f"{where}.artifacts: unknown key {key}")
        if artifacts.get("when", "on_success") not in ("always", "on_success", "on_failure"):
            problems.append(f"{where}.artifacts.when: {artifacts.get('when')!r}")
        for part in ("before_script", "script", "after_script"):
            for n, command in enumerate(job.get(part, []) or []):
                check_commands(str(command), f"{where}.{part}[{n}]", problems, apnsbench)
        check_gate_use([str(c) for part in ("before_script", "script", "after_script") for c in (job.get(part, []) or [])], where, problems)


def main(argv):
    apnsbench = None
    if argv[:1] == ["--apnsbench"]:
        apnsbench, argv = os.path.abspath(argv[1]), argv[2:]
    files = argv or sorted(glob.glob(os.path.join(ROOT, ".github/workflows/*.yml"))) + [os.path.join(ROOT, "deploy/ci/gitlab-ci.yml")]
    status = 0
    for path in files:
        problems = []
        try:
            with open(path) as f:
                doc = yaml.safe_load(f)
        except (OSError, yaml.YAMLError) as e:
            problems.append(f"not YAML: {e}")
            doc = None
        if doc is not None:
            (check_github if "/.github/workflows/" in os.path.abspath(path) else check_gitlab)(doc, path, problems, apnsbench)
        if problems:
            status = 1
            for p in problems:
                print(f"{path}: {p}")
        else:
            print(f"ok: {os.path.relpath(path, ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
