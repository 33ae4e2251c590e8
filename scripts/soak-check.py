#!/usr/bin/env python3
"""The soak's checks and tables (scripts/soak.sh runs it after the run).

Arguments: report.json, samples.tsv (epoch, rss_kib, fds, cpu_ticks, pushes), whether `report --check`
failed (0 or 1), the resident-memory slope bound (MiB a minute), the clock ticks a second, and where to
write the SVG plot. Prints Markdown tables; exits 1 naming each check that failed. Growth (descriptors, resident
memory, CPU per push) is judged by its trend over the steady part, as scripts/soak_trend.py says.
"""
import json
import os
import sys
from datetime import datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak_trend  # noqa: E402  (beside this script)

report_path, samples_path, invariants, max_slope, ticks, svg_path = sys.argv[1:7]
max_slope, ticks = float(max_slope), float(ticks)
report = json.load(open(report_path))
rows = [l.split("\t") for l in open(samples_path).read().splitlines()[1:] if l.strip()]
samples = [dict(t=float(r[0]), rss=int(r[1]) / 1024, fds=int(r[2]), cpu=int(r[3]) / ticks, pushes=int(r[4])) for r in rows]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


check(invariants == "0", "the report breaks an invariant (apnsbench report --check, above)")
check(len(samples) >= 5, f"only {len(samples)} samples were taken")
t0 = samples[0]["t"] if samples else 0
for s in samples:
    s["min"] = (s["t"] - t0) / 60
# The steady part, by the report's clock: after the first fifth of the schedule (start-up: the simulator,
# connections, histograms, the first pass) and before its end (then the last pushes drain and the engines close
# their connections while the process writes its report: its leak check is the report's own, start against end).
duration = report["configuration"]["schedule"].get("durationSeconds") or report["durationSeconds"]
started = datetime.fromisoformat(report["startedAt"].replace("Z", "+00:00")).timestamp()
steady = soak_trend.steady_part(samples, started, duration) or samples
growths = [soak_trend.growth([(s["min"], s["fds"]) for s in steady], soak_trend.DESCRIPTORS),
           soak_trend.growth([(s["min"], s["rss"]) for s in steady], soak_trend.memory(max_slope))]
for g in growths:
    check(g["grew"] is not None, f"only {len(steady)} samples in the steady part: too few to judge {g['name']}")
    check(not g["grew"], f"{g['name']} grew {g['slope']:+.2f}{g['unit']} over {g['span']:.1f} min of the steady part"
          f" (Theil-Sen; at most {g['limit']:.2f}{g['unit']})")
cpu_trend = soak_trend.cpu_growth(steady)
check(cpu_trend["grew"] is not True, f"CPU per push rose by {cpu_trend['rise']:.0f} µs across the steady part"
      f" (median {cpu_trend['median']:.0f} µs; at most half of it)")
fds = [s["fds"] for s in steady]


# CPU per push by thirds of the steady part, for the table: (CPU seconds) / (pushes ended) between its first
# and last sample.
def per_push(part):
    if len(part) < 2 or part[-1]["pushes"] <= part[0]["pushes"]:
        return None
    return (part[-1]["cpu"] - part[0]["cpu"]) / (part[-1]["pushes"] - part[0]["pushes"]) * 1e6


third = max(2, len(steady) // 3)
thirds = [steady[:third], steady[len(steady) // 2 - third // 2: len(steady) // 2 + third // 2 + 1], steady[-third:]]
cpu = [per_push(p) for p in thirds]

p, e, sim = report["pushes"], report["engine"], report.get("simulator") or {}
rejected_by = {k: v["count"] for k, v in p["rejected"].items()}
not_sent = sum(p["notSent"].values())
fd = report.get("openDescriptors") or {}
# The run counts its own descriptors before and after (the end count waits up to a second for one closing on
# another thread). Fewer at the end is no leak: the start count can include this script's scrape of /metrics,
# in flight at that moment.
check(fd and fd["atEnd"] <= fd["atStart"], f"file descriptors leaked: {fd}")
answered_503 = sim.get("rejected_ServiceUnavailable", 0)
retried_503 = e["retries"].get("ServiceUnavailable", 0)
final_503 = rejected_by.get("ServiceUnavailable", 0)
# 5 attempts of a 2% fault should almost never all fail; a push whose resend the run's end cut keeps its last
# answer, so the rejections answered from the end of the duration on are allowed for.
cut = sum(t.get("rejected") or 0 for t in report["timeline"] if t["second"] >= duration - 1)
check(final_503 <= 1 + cut, f"{final_503} pushes ended 503 (at most {1 + cut}: 1, and {cut} answered as the run ended)")
# Nothing due was lost: no push due before the end was left unsent, none timed out.
check(p["notSent"].get("run_stopped", 0) == 0, f"{p['notSent'].get('run_stopped')} pushes due before the end were not sent (run_stopped)")
check(p["timedOut"] == 0, f"{p['timedOut']} pushes timed out")
goaways = sum(v for k, v in sim.items() if k.startswith("goaway"))
check(goaways >= 1, f"no GOAWAY was sent: {sim}")
check(sim.get("connections_reset", 0) >= 1, "no connection was reset")
check(answered_503 >= 1, "no 503 was answered")
check(rejected_by.get("Unregistered", 0) + p["notSent"].get("dead_token", 0) >= 1, "no dead token was answered 410")
check(e["providerTokenSignings"] >= 2, f"no new provider token after the clock step ({e['providerTokenSignings']} signing)")
check(p["failed"] == {} or all(k.startswith("curl_") for k in p["failed"]), f"failed: {p['failed']}")
passes = report["events"].get("recordingPasses")

lat = report["latency"].get("responseTime") or {}
first_sends = p["planned"] - not_sent
table = [
    ("duration", f"{report['durationSeconds']:.0f} s, {passes or 1} pass(es) over the recording"),
    ("planned / due / delivered", f"{p['planned']} / {p['planned'] - p['notSent'].get('after_end', 0)} / {p['delivered']}"),
    ("rejected", json.dumps(rejected_by, sort_keys=True)),
    ("failed / timed out", f"{json.dumps(p['failed'], sort_keys=True)} / {p['timedOut']}"),
    ("not sent", json.dumps(p["notSent"], sort_keys=True)),
    ("attempts (sent)", f"{e['sent']} = {first_sends} first sends + {e['retriesTotal']} retries"),
    ("retries by cause", json.dumps(e["retries"], sort_keys=True)),
    ("503: answered by the simulator / resent / final", f"{answered_503} / {retried_503} / {final_503}"),
    ("GOAWAYs sent", goaways),
    ("connections opened / reconnects / reset by the simulator", f"{e['connectionsOpened']} / {e['reconnects']} / {sim.get('connections_reset', 0)}"),
    ("provider token signings / re-signed after expiry", f"{e['providerTokenSignings']} / {e['providerTokenRefreshes']}"),
    ("file descriptors at start / end (in-process)", f"{fd.get('atStart')} / {fd.get('atEnd')}"),
    ("steady part (by the report's clock)", f"{len(steady)} samples over {growths[0]['span']:.2f} min"),
    ("resident memory trend (Theil-Sen)", f"{growths[1]['slope']:+.3f} MiB/min (at most {growths[1]['limit']:.2f})"),
    ("descriptor trend (Theil-Sen)", f"{growths[0]['slope']:+.3f} /min (at most {growths[0]['limit']:.2f}), samples {min(fds)}..{max(fds)}"),
    ("CPU per push: median / rise across the steady part", f"{cpu_trend['median']:.0f} µs / {cpu_trend['rise']:+.0f} µs"
     + ("" if cpu_trend["grew"] is not None else f" (judged from {soak_trend.CPU_JUDGED_MINUTES} min)")),
]
for key in ("p50", "p99", "p999", "max"):
    if key in lat:
        table.append((f"response time {key}", f"{lat[key] / 1000:.1f} ms"))
print("| soak | value |")
print("| --- | --- |")
for k, v in table:
    print(f"| {k} | {v} |")
print()
print("| sample | minute | resident memory | open descriptors | CPU per push (over that third of the steady part) |")
print("| --- | --: | --: | --: | --: |")
print(f"| first (start-up) | {samples[0]['min']:.1f} | {samples[0]['rss']:.1f} MiB | {samples[0]['fds']} | - |")
for name, s, c in zip(("steady start", "middle", "end"), (steady[0], steady[len(steady) // 2], steady[-1]), cpu):
    print(f"| {name} | {s['min']:.1f} | {s['rss']:.1f} MiB | {s['fds']} | {'-' if c is None else f'{c:.0f} µs'} |")


def svg(samples, path):
    """Three small line charts, one above the other: resident MiB, descriptors, CPU µs per push."""
    w, h, pad = 720, 150, 40
    series = [("resident memory (MiB)", [(s["min"], s["rss"]) for s in samples])]
    series.append(("open descriptors", [(s["min"], s["fds"]) for s in samples]))
    cpp = []
    for a, b in zip(samples, samples[5:]):
        if b["pushes"] > a["pushes"]:
            cpp.append((b["min"], (b["cpu"] - a["cpu"]) / (b["pushes"] - a["pushes"]) * 1e6))
    series.append(("CPU per push (µs, 10-s windows)", cpp))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h * 3}" font-family="sans-serif" font-size="11">']
    for i, (title, pts) in enumerate(series):
        top = i * h
        out.append(f'<text x="{pad}" y="{top + 14}" font-weight="bold">{title}</text>')
        out.append(f'<rect x="{pad}" y="{top + 20}" width="{w - 2 * pad}" height="{h - 45}" fill="none" stroke="#999"/>')
        if len(pts) < 2:
            continue
        xmax = max(x for x, _ in pts) or 1
        ys = [y for _, y in pts]
        ylo, yhi = 0, max(ys) * 1.1 or 1
        def px(x, y):
            return pad + x / xmax * (w - 2 * pad), top + 20 + (h - 45) * (1 - (y - ylo) / (yhi - ylo))
        line = " ".join(f"{a:.1f},{b:.1f}" for a, b in (px(x, y) for x, y in pts))
        out.append(f'<polyline points="{line}" fill="none" stroke="#1565c0" stroke-width="1.5"/>')
        out.append(f'<text x="{pad - 4}" y="{top + 24}" text-anchor="end">{yhi:.0f}</text>')
        out.append(f'<text x="{pad - 4}" y="{top + h - 25}" text-anchor="end">0</text>')
        out.append(f'<text x="{w - pad}" y="{top + h - 12}" text-anchor="end">{xmax:.1f} min</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


svg(samples, svg_path)
if failures:
    for f in failures:
        print(f"soak.sh: FAILED: {f}", file=sys.stderr)
    sys.exit(1)
print("soak.sh: every check held", file=sys.stderr)
