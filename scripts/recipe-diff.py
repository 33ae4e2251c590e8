#!/usr/bin/env python3
"""Events and fields of one recipe against another (a shipped recipe and the skeleton `apnsbench recipe init`
wrote from its recording): events paired by their match, fields by where they are read.

    recipe-diff.py SHIPPED SCAFFOLD

A line per event (`  event`, `- event` only shipped, `+ event` only in the scaffold), then per field: `=` the
same name and type, `~` another name or type, `-` only shipped, `+` only in the scaffold. Needs PyYAML.
"""
import re, sys, yaml

def events(path):
    # `string?` is YAML text; `[int]?` would be a flow sequence followed by `?`: both read as text first.
    text = re.sub(r"(\w|\])\?(?=[,}\s])", r"\1<opt>", open(path).read())
    doc = yaml.safe_load(text)
    out = {}
    for name, e in doc["events"].items():
        m = e["match"]
        key = re.sub(r":\w+", ":", m) if isinstance(m, str) else "%s=%s" % next(iter(m.items()))
        fields = {}
        for fname, spec in (e.get("fields") or {}).items():
            if isinstance(spec, str):
                spec = {"type": spec}
            src = re.sub(r"^path\..*", "path.(capture %d)" % len([1 for f in fields if f.startswith("path.")]), spec.get("from", fname))
            t = spec["type"].replace("<opt>", "?") + (" nullable" if spec.get("nullable") else "")
            fields[src] = (fname, t)
        out[key] = (name, fields)
    return out

shipped, scaffold = events(sys.argv[1]), events(sys.argv[2])
for key in sorted(set(shipped) | set(scaffold)):
    if key not in scaffold: print("- event %s (%s): only in the shipped recipe" % (key, shipped[key][0])); continue
    if key not in shipped: print("+ event %s (%s): only in the scaffold" % (key, scaffold[key][0])); continue
    print("  event %s: shipped %s, scaffold %s" % (key, shipped[key][0], scaffold[key][0]))
    a, b = shipped[key][1], scaffold[key][1]
    for src in sorted(set(a) | set(b)):
        if src not in b: print("    - %s %s: only shipped" % (src, a[src]))
        elif src not in a: print("    + %s %s: only in the scaffold" % (src, b[src]))
        elif a[src][1] != b[src][1] or a[src][0] != b[src][0]:
            print("    ~ %s: shipped %s %s, scaffold %s %s" % (src, a[src][0], a[src][1], b[src][0], b[src][1]))
        else: print("    = %s %s %s" % (src, a[src][0], a[src][1]))
