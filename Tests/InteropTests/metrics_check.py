"""Parses an OpenMetrics exposition with prometheus_client's own parser (PyPI prometheus-client) and prints
its samples as one JSON line: [{"name", "labels", "value"}, ...], plus the families' names and types.

Usage: metrics_check.py FILE  (exit 1 with the parser's message if the text does not parse)."""
import json
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families

text = open(sys.argv[1], encoding="utf-8").read()
try:
    families = list(text_string_to_metric_families(text))
except Exception as e:  # the parser's own refusal, shown as it is
    print(f"not OpenMetrics: {e}")
    sys.exit(1)
out = {"families": {f.name: f.type for f in families},
       "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for f in families for s in f.samples]}
print(json.dumps(out))
