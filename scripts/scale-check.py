#!/usr/bin/env python3
"""Checks `apnsbench scale` on a profile: its recording scaled K times plans K times the pushes, with the
recorded fan-out per group (pushes per event, by the event's kind) and pushes per device token, and the scaling's peak RSS.

usage: scripts/scale-check.py BIN PROFILE K [RSS_K ...]

BIN scales PROFILE's recording by K (with its dead tokens, when it plants any) into a folder under /tmp,
writes a copy of PROFILE over the scaled recording, plans both (`plan --show-tokens --out`), and prints:
the plan summaries' totals, both histograms before and after with the ratio of each bucket, and the peak RSS
of `scale` (from /usr/bin/time -v) at K and at each RSS_K. Exits 1 when a bucket's ratio is not K.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

if len(sys.argv) < 4 or sys.argv[1] in ("-h", "--help") or not sys.argv[3].isdigit():
    print(__doc__.strip(), file=sys.stderr)
    sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 64)
binary, profile, factor = os.path.realpath(sys.argv[1]), sys.argv[2], int(sys.argv[3])
rss_factors = [int(k) for k in sys.argv[4:]]
work = tempfile.mkdtemp(prefix="apnsbench-scale-check-")
base = os.path.dirname(os.path.realpath(profile))
path_keys = ("stream", "recipe", "dead_tokens", "activity_model")


def profile_value(key):
    for line in open(profile):
        m = re.match(rf"^{key}:\s*(\S+)", line)
        if m:
            return os.path.join(base, m.group(1))
    return None


def scale(k, out, dead):
    """Runs `scale` under /usr/bin/time -v; returns its peak RSS in KiB and its standard error."""
    args = ["/usr/bin/time", "-v", binary, "scale", profile_value("stream"), "--profile", profile, "--factor", str(k), "--out", out]
    if dead:
        args += ["--dead-tokens", dead]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"scale-check: scale x{k} exited {r.returncode}: {r.stderr}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))
    return rss, "\n".join(l for l in r.stderr.splitlines() if not l.startswith("\t"))


def scaled_profile(stream, dead):
    """PROFILE with every path absolute, its recording (and dead tokens) the scaled ones."""
    lines = []
    for line in open(profile):
        key = line.split(":", 1)[0]
        if key in path_keys:
            value = {"stream": stream, "dead_tokens": dead}.get(key) or profile_value(key)
            line = f"{key}: {value}\n"
        lines.append(line)
    path = os.path.join(work, "scaled.yaml")
    open(path, "w").writelines(lines)
    return path


def plan(p, name):
    out = os.path.join(work, name + ".ndjson")
    r = subprocess.run([binary, "plan", p, "--show-tokens", "--quiet", "--out", out], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"scale-check: plan {p} exited {r.returncode}: {r.stdout}{r.stderr}")
    per_event, kinds, per_token = collections.Counter(), {}, collections.Counter()
    for line in open(out):
        push = json.loads(line)
        per_event[push["event"]["line"]] += 1
        kinds[push["event"]["line"]] = push["event"]["kind"]
        if "token" in push:
            per_token[push["token"]] += 1
    fan_out = collections.defaultdict(collections.Counter)
    for event, n in per_event.items():
        fan_out[kinds[event]][n] += 1
    summary = [l for l in r.stdout.splitlines() if l.strip()]
    return fan_out, collections.Counter(per_token.values()), summary


def buckets(hist):
    """Exact sizes when there are at most 16 of them, else powers of two."""
    if len(hist) <= 16:
        return {str(s): n for s, n in sorted(hist.items())}
    out = collections.OrderedDict()
    for s, n in sorted(hist.items()):
        lo = 1 << (s.bit_length() - 1)
        key = f"{lo}-{2 * lo - 1}" if lo > 1 else "1"
        out[key] = out.get(key, 0) + n
    return out


failures = []


def table(title, before, after):
    b, a = buckets(before), buckets(after)
    print(f"\n{title}\n{'size':>10} {'before':>9} {'after':>9} {'ratio':>7}")
    for key in list(dict.fromkeys(list(b) + list(a))):
        nb, na = b.get(key, 0), a.get(key, 0)
        ratio = na / nb if nb else float("inf")
        print(f"{key:>10} {nb:>9} {na:>9} {ratio:>7.2f}")
        if na != factor * nb:
            failures.append(f"{title}: size {key}: {nb} before, {na} after")
    print(f"{'total':>10} {sum(before.values()):>9} {sum(after.values()):>9}")


if not profile_value("stream"):
    sys.exit(f"scale-check: {profile} names no stream (a mix scales part by part, each with its own app's profile)")
stream = os.path.join(work, f"x{factor}.ndjson")
dead = os.path.join(work, f"x{factor}.dead-tokens") if profile_value("dead_tokens") else None
rss, log = scale(factor, stream, dead)
print(log)
ev_before, tok_before, sum_before = plan(profile, "before")
ev_after, tok_after, sum_after = plan(scaled_profile(stream, dead), "after")
print("\nplan before:", *sum_before, sep="\n  ")
print(f"plan after (x{factor}):", *sum_after, sep="\n  ")
for kind in sorted(set(ev_before) | set(ev_after)):
    table(f"fan-out of {kind}: pushes per event (events with that many)", ev_before[kind], ev_after[kind])
table("pushes per device token (tokens with that many)", tok_before, tok_after)
print(f"\npeak RSS of scale x{factor}: {rss / 1024:.1f} MiB")
for k in rss_factors:
    out = os.path.join(work, f"rss-x{k}.ndjson")
    r, _ = scale(k, out, None)
    print(f"peak RSS of scale x{k}: {r / 1024:.1f} MiB ({os.path.getsize(out) / 1e6:.1f} MB written)")
    os.remove(out)
print(f"\n(files in {work})")
if failures:
    print("scale-check: not K times:", *failures, sep="\n  ", file=sys.stderr)
    sys.exit(1)
