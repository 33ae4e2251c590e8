#!/usr/bin/env python3
"""Reads an apnsbench report directory with the PyPI package hdrhistogram (module hdrh), which
nobody here wrote: decodes every encoded histogram in report.json and every line of latency.hlog,
and prints one JSON object with what hdrh finds. The Swift test (HdrHistogramInteropTests) compares
it with the report's own numbers.

Usage: hdrh_check.py REPORT_DIR
Output: {"encoded": {NAME: STATS}, "hlog": {TAG: STATS}, "timeline": [{"second": S, "count": N}]}
where STATS = {"count", "p50", "p90", "p99", "p999", "max"} and hlog lines of one tag are added up.
"""
import json
import os
import sys

from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader

PERCENTILES = {"p50": 50.0, "p90": 90.0, "p99": 99.0, "p999": 99.9}


def stats(h):
    out = {name: h.get_value_at_percentile(p) for name, p in PERCENTILES.items()}
    out["count"] = h.get_total_count()
    out["max"] = h.get_max_value()
    return out


def main():
    directory = sys.argv[1]
    with open(os.path.join(directory, "report.json"), encoding="utf-8") as f:
        report = json.load(f)
    histograms = report["latency"]["histograms"]
    encoded = {}

    def add(prefix, pair):
        for view in ("serviceTime", "responseTime"):
            encoded[prefix + "." + view] = stats(HdrHistogram.decode(pair[view]))

    add("overall", histograms["overall"])
    for group in ("byPriority", "byPushType", "byOutcome"):
        for key, pair in histograms[group].items():
            add(group + "." + key, pair)

    timeline = []
    for entry in report["timeline"]:
        if "responseTime" in entry:
            timeline.append({"second": entry["second"], "count": HdrHistogram.decode(entry["responseTime"]).get_total_count()})

    reference = HdrHistogram(1, 3600000000, 3)
    reader = HistogramLogReader(os.path.join(directory, "latency.hlog"), reference)
    by_tag = {}
    while True:
        h = reader.get_next_interval_histogram()
        if h is None:
            break
        tag = h.get_tag()
        if tag in by_tag:
            by_tag[tag].add(h)
        else:
            by_tag[tag] = h
    reader.close()

    print(json.dumps({
        "encoded": encoded,
        "hlog": {tag: stats(h) for tag, h in by_tag.items()},
        "timeline": timeline,
    }))


if __name__ == "__main__":
    main()
