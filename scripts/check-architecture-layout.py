#!/usr/bin/env python3
"""Fails when docs/architecture.md's layout table names a path that does not exist, or leaves out a target
(a folder of Sources/).

Each row's first cell is a path from the repository's root. In its second cell, a `quoted` name that has a
slash or ends in .swift (`Registry/ChannelStore`, `Files/`, `RunReport+Invariants.swift`) must stand
somewhere under that row's path (with or without .swift), or under the root.
"""
import os
import re
import sys

root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
doc = os.path.join(root, "docs", "architecture.md")


def tree(base):
    """Every file and folder under base, as paths relative to it (folders end in /)."""
    found = []
    for folder, dirs, files in os.walk(base):
        rel = os.path.relpath(folder, base)
        rel = "" if rel == "." else rel + "/"
        found += [rel + d + "/" for d in dirs] + [rel + f for f in files]
    return found


def stands_under(name, base):
    if not os.path.isdir(base):
        return False
    wanted = name.rstrip("/")
    for path in tree(base):
        p = path.rstrip("/")
        for candidate in (p, p[:-6] if p.endswith(".swift") else None):
            if candidate and (candidate == wanted or candidate.endswith("/" + wanted)):
                return True
    return False


missing = []
rows = set()
in_layout = False
with open(doc, encoding="utf-8") as f:
    for number, line in enumerate(f, 1):
        if line.startswith("## "):
            in_layout = line.strip() == "## Layout"
            continue
        if not in_layout or not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        path = cells[0].strip("`")
        rows.add(path.rstrip("/"))
        if not os.path.exists(os.path.join(root, path)):
            missing.append(f"docs/architecture.md:{number}: {path} does not exist")
            continue
        for name in re.findall(r"`([^`\s]+)`", cells[1] if len(cells) > 1 else ""):
            if "/" not in name and not name.endswith(".swift"):
                continue
            if name.startswith("apnsbench ") or "://" in name:
                continue
            if not (stands_under(name, os.path.join(root, path)) or os.path.exists(os.path.join(root, name))):
                missing.append(f"docs/architecture.md:{number}: `{name}` (in the row of {path}) is not under {path}")

for target in sorted(os.listdir(os.path.join(root, "Sources"))):
    if os.path.isdir(os.path.join(root, "Sources", target)) and f"Sources/{target}" not in rows:
        missing.append(f"docs/architecture.md: the layout table has no row for Sources/{target}")

if missing:
    print("\n".join(missing))
    sys.exit(1)
print("docs/architecture.md: every path in the layout table exists")
