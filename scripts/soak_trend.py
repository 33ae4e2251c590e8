#!/usr/bin/env python3
"""The soak's growth judgement: whether open descriptors, resident memory or CPU per push rise over the
steady part of a run by a trend, beyond the churn that reconnects cause.

A series is judged by its Theil-Sen slope, the median of the slopes between every pair of its samples. A
GOAWAY's overlap of an old and a new connection, a reset's reconnect or a sample taken while the engines close
move single samples by a connection's descriptors, and a median of pairwise slopes does not follow such a
minority (about 29% of the samples may lie anywhere), where a least-squares slope or a max-min band does.

A series grows when its slope exceeds its bound a minute plus an allowance spread over the steady span: the
amount the level may move by without leaking (a connection's worth of descriptors, a few MiB as the allocator
settles). The allowance dominates a 30-s run and vanishes over a long one:
  descriptors   0.2 a minute + 4 over the span: 10.2/min over a 30-s run's 24 s, 0.37/min over 24 min;
  memory        --max-rss-slope (1.0 MiB) a minute + 4 MiB over the span: 11 MiB/min over 24 s, 1.17 over 24 min;
  CPU per push  (judged from 5 minutes of steady samples on) its trend across the steady part may add at most
                half its median, taken over 1-minute windows (a window with a latency spike or a GOAWAY ends fewer
                pushes for its CPU, and is one window of many).

    scripts/soak_trend.py --self-test     healthy churn passes and leaks fail, on series made here
"""
import random
import sys

DESCRIPTORS = dict(name="open descriptors", unit="/min", per_minute=0.2, allowance=4.0)
MAX_POINTS = 400        # pairwise slopes of at most 400 samples (79,800 pairs), evenly chosen
MIN_STEADY = 8          # fewer steady samples than this judge nothing: a failure of its own
CPU_JUDGED_MINUTES = 5  # CPU per push is judged from this steady span on; printed below it
CPU_MAX_RISE = 0.5      # its trend may add at most this share of its median across the steady part


def memory(per_minute):
    """Resident memory's bound: per_minute MiB a minute (--max-rss-slope) and 4 MiB over the span."""
    return dict(name="resident memory", unit=" MiB/min", per_minute=per_minute, allowance=4.0)


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return 0.0
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def theil_sen(points):
    """The median of the slopes between every pair of (x, y) points with different x; 0 for fewer than 2."""
    if len(points) > MAX_POINTS:
        step = len(points) / MAX_POINTS
        points = [points[int(i * step)] for i in range(MAX_POINTS)]
    slopes = [(y2 - y1) / (x2 - x1) for i, (x1, y1) in enumerate(points) for x2, y2 in points[i + 1:] if x2 != x1]
    return median(slopes)


def steady_part(samples, start, seconds):
    """The samples taken after the first fifth of the schedule and before its end (seconds since the epoch
    in "t"): start-up before it, and after it the drain of the last pushes and the engines closing."""
    return [s for s in samples if start + seconds / 5 <= s["t"] <= start + seconds]


def growth(points, bound):
    """Judges (minute, level) points against a bound (DESCRIPTORS or memory(...)): a dict with the slope a
    minute, the limit it is held to, the span in minutes, and whether it grew (None: too few points)."""
    span = points[-1][0] - points[0][0] if points else 0.0
    slope = theil_sen(points)
    limit = bound["per_minute"] + bound["allowance"] / span if span > 0 else float("inf")
    grew = None if len(points) < MIN_STEADY else slope > limit
    return dict(name=bound["name"], unit=bound["unit"], slope=slope, limit=limit, span=span, grew=grew)


def cpu_windows(samples, minutes=1.0):
    """CPU µs per push ended over consecutive windows of the samples ("min", "cpu" seconds, "pushes"):
    (the window's middle minute, µs), one per window in which pushes ended."""
    out, first = [], 0
    for i, s in enumerate(samples):
        a = samples[first]
        if s["min"] - a["min"] >= minutes or i == len(samples) - 1:
            if s["pushes"] > a["pushes"] and i > first:
                out.append(((a["min"] + s["min"]) / 2, (s["cpu"] - a["cpu"]) / (s["pushes"] - a["pushes"]) * 1e6))
            first = i
    return out


def cpu_growth(samples):
    """CPU per push's trend over the steady samples: its median, the rise its Theil-Sen slope makes across
    the span, and whether that rise is over half the median (None: under CPU_JUDGED_MINUTES, or too few)."""
    windows = cpu_windows(samples, 1.0 if samples and samples[-1]["min"] - samples[0]["min"] >= CPU_JUDGED_MINUTES else 5 / 60)
    level = median([v for _, v in windows])
    span = windows[-1][0] - windows[0][0] if len(windows) > 1 else 0.0
    rise = theil_sen(windows) * span
    judged = len(windows) >= MIN_STEADY and samples[-1]["min"] - samples[0]["min"] >= CPU_JUDGED_MINUTES
    return dict(median=level, rise=rise, grew=(rise > CPU_MAX_RISE * level) if judged else None)


# --- self-test: series shaped like the soak's samples, healthy and leaking -------------------------------------

def series(minutes, every, rng, fds, rss, pushes_per_s=100.0, cpu_per_push=lambda m: 1e-3):
    """Samples every `every` s (jittered like a loaded sampler) over `minutes`: fds(m, rng), rss(m, rng)."""
    out, t, cpu, pushes = [], 0.0, 0.0, 0
    while t <= minutes * 60:
        m = t / 60
        out.append(dict(t=1e9 + t, min=m, fds=fds(m, rng), rss=rss(m, rng), cpu=cpu, pushes=pushes))
        dt = every * rng.uniform(1.0, 1.4)
        ended = int(pushes_per_s * dt * rng.uniform(0.6, 1.1))
        pushes, cpu, t = pushes + ended, cpu + ended * cpu_per_push(m) * rng.uniform(0.8, 1.6), t + dt
    return out


def churn(base, cycle_s, overlap_s, rng, load=0.0):
    """A descriptor level: base, +2 a connection while a GOAWAY's old and new connection overlap (at each
    cycle_s), a reset now and then (-2 or +2 for a sample), and under load a share of samples caught
    mid-reconnect (+2 or +4)."""
    def level(m, rng):
        s = m * 60
        n = base + (2 if s % cycle_s < overlap_s else 0)
        r = rng.random()
        if r < 0.05:
            n += rng.choice((-2, 2))
        elif r < 0.05 + load:
            n += rng.choice((2, 4))
        return n
    return level


def flat_rss(level, per_minute):
    return lambda m, rng: level + per_minute * m + rng.uniform(-0.4, 0.4)


def verdicts(samples, seconds, bound_rss=1.0):
    steady = steady_part(samples, samples[0]["t"], seconds)
    t0 = steady[0]["t"]
    for s in steady:
        s["min"] = (s["t"] - t0) / 60
    fd = growth([(s["min"], s["fds"]) for s in steady], DESCRIPTORS)
    rss = growth([(s["min"], s["rss"]) for s in steady], memory(bound_rss))
    return fd["grew"], rss["grew"], cpu_growth(steady)["grew"]


def self_test(seed=7):
    rng = random.Random(seed)
    cases = []
    # A 30-s run: samples every second, GOAWAY every 10 s, teardown at 30-32 s.
    def issue_fds(m, rng):
        s = m * 60
        return 14 if s > 28.5 else (27 if int(s) in (10, 20) else 25)
    short = lambda fds, rss: series(32 / 60, 1.0, rng, fds, rss)
    cases += [("30 s, healthy churn", short(churn(25, 10, 1.5, rng), flat_rss(70, 1.2)), 30, (False, False, None))]
    cases += [("30 s, healthy, loaded (30% of samples mid-reconnect)", short(churn(25, 10, 3, rng, load=0.3), flat_rss(70, 3)), 30,
               (False, False, None))]
    cases += [("30 s, 25 steady, 27 at GOAWAYs, 14 from 28.5 s (the engines closing early)", short(issue_fds, flat_rss(70, 1.2)), 30, (False, False, None))]
    leak_fd = churn(25, 10, 1.5, rng)
    cases += [("30 s, a descriptor leaked every 2 s", short(lambda m, r: leak_fd(m, r) + int(m * 30), flat_rss(70, 1.2)), 30,
               (True, False, None))]
    cases += [("30 s, 1 MiB kept every second", short(churn(25, 10, 1.5, rng), flat_rss(70, 60)), 30, (False, True, None))]
    # A 30-minute run: samples every 2 s, GOAWAY every 30 s.
    long = lambda fds, rss, cpp=lambda m: 1e-3: series(30, 2.0, rng, fds, rss, cpu_per_push=cpp)
    cases += [("30 min, healthy churn, memory +0.18 MiB/min", long(churn(23, 30, 2, rng, load=0.1), flat_rss(77, 0.18)), 1800,
               (False, False, False))]
    slow = churn(23, 30, 2, rng)
    cases += [("30 min, a descriptor leaked every 2 minutes", long(lambda m, r: slow(m, r) + int(m / 2), flat_rss(77, 0.18)), 1800,
               (True, False, False))]
    cases += [("30 min, memory +1.5 MiB/min", long(churn(23, 30, 2, rng), flat_rss(77, 1.5)), 1800, (False, True, False))]
    cases += [("30 min, CPU per push 1.5x to 3.5x its start", long(churn(23, 30, 2, rng), flat_rss(77, 0.18), lambda m: 1e-3 * (1 + m / 12)), 1800,
               (False, False, True))]
    failed = 0
    for name, samples, seconds, want in cases:
        got = verdicts(samples, seconds)
        ok = got == want
        failed += not ok
        print(f"soak_trend.py self-test: {'ok' if ok else 'WRONG'}: {name}: grew (descriptors, memory, CPU per push) = {got}"
              + ("" if ok else f", expected {want}"))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    else:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        sys.exit(64)
