#!/usr/bin/env python3
"""The lines longer than a limit (160 characters, counted as characters, not bytes) in the files that are read
and changed by hand: the Swift of Sources/ and Tests/, Package.swift, and the scripts' *.py and *.sh.

    scripts/line-lengths.py [--limit 160] [--check] [ROOT]
    scripts/line-lengths.py --self-test     its reading of files and counting, on a tree written here

Without --check it prints how many lines are over the limit. With --check it lists each as
`file:line: N characters` and exits 1 when there is one.
"""
import argparse, os, sys

def checked_files(root):
    """The files the limit applies to, relative to root, sorted."""
    found = []
    for top in ("Sources", "Tests"):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            found += [os.path.join(d, f) for f in files if f.endswith(".swift")]
    if os.path.isfile(os.path.join(root, "Package.swift")):
        found.append(os.path.join(root, "Package.swift"))
    scripts = os.path.join(root, "scripts")
    if os.path.isdir(scripts):
        found += [os.path.join(scripts, f) for f in os.listdir(scripts) if f.endswith((".py", ".sh"))]
    return sorted(os.path.relpath(p, root) for p in found)

def long_lines(root, limit):
    """(path, line number, length) of each line over limit; a line's length leaves out its line ending."""
    out = []
    for rel in checked_files(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                n = len(line.rstrip("\r\n"))
                if n > limit: out.append((rel, number, n))
    return out

def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        files = {
            "Sources/A/a.swift": "x" * 160 + "\n" + "y" * 161 + "\n",
            "Sources/A/b.txt": "z" * 300 + "\n",             # not Swift: not read
            "Tests/T/t.swift": "ok\n" + "é" * 161,            # characters, not bytes; no final newline
            "Package.swift": "p" * 10 + "\r\n" + "q" * 160 + "\r\n",
            "scripts/s.sh": "s" * 170 + "\n",
            "scripts/lib/deep.sh": "d" * 200 + "\n",         # scripts/ itself only
            "docs/d.swift": "w" * 200 + "\n",                # outside the folders read
        }
        for rel, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8", newline="") as f:
                f.write(text)
        got = long_lines(root, 160)
    want = [("Sources/A/a.swift", 2, 161), ("Tests/T/t.swift", 2, 161), ("scripts/s.sh", 1, 170)]
    print("line-lengths self-test:", "ok" if got == want else f"FAILED: found {got}, expected {want}")
    sys.exit(0 if got == want else 1)

def main():
    if sys.argv[1:] == ["--self-test"]: self_test()
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=160)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    a = ap.parse_args()
    found = long_lines(os.path.normpath(a.root), a.limit)
    if a.check:
        for rel, number, n in found:
            print(f"{rel}:{number}: {n} characters")
    print(f"{len(found)} lines over {a.limit} characters")
    if a.check and found:
        sys.exit(1)

main()
