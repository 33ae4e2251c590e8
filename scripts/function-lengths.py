#!/usr/bin/env python3
"""The functions of Sources/ longer than a limit, longest first: a function is a `func`, `init`, `deinit`,
`subscript`, an operator, a computed property or accessor with a body, or a closure constant (`let x: T = { … }`,
`lazy var`), from its declaration's first line (however long its signature) to its closing brace. Strings and comments are skipped when braces are matched.

    scripts/function-lengths.py [--limit 60] [--most 8] [--check] [ROOT]
    scripts/function-lengths.py --self-test     its reading of declarations, on Swift written here

With --check it exits 1 when more than --most functions are over the limit, or one of them has no reason in its
doc comment (a `///` line starting `Length:`).
"""
import argparse, os, re, sys

DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
                  r"(?:(?:public|private|fileprivate|internal|open|static|final|override|mutating|nonmutating|convenience|required|class|"
                  r"nonisolated|lazy|weak|unowned|dynamic|indirect|prefix|postfix|infix|@inline\(__always\)|@discardableResult)\s+)*"
                  r"(?:func\s+(?:[^\s(<]+|[-+*/%<>=!&|^~.?]+)|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<]|"
                  r"(?:var|let)\s+\w+\s*:[^=]*\{\s*$|(?:let|var)\s+\w+\s*(?::[^=]+)?=\s*\{)")
# What may continue a signature on its next line once its parameter list is closed.
CONTINUATION = re.compile(r"^\s*(?:->|throws|rethrows|async|where|\{|[\w.]+\s*[:=]=?|&|,)")

def strip(line, state):
    """The line without string literals and comments; state carries a block comment or a multi-line string."""
    out, i, n = [], 0, len(line)
    while i < n:
        if state["block"]:
            j = line.find("*/", i)
            if j < 0: return "".join(out)
            state["block"], i = False, j + 2; continue
        if state["multi"]:
            j = line.find('"""', i)
            if j < 0: return "".join(out)
            state["multi"], i = False, j + 3; continue
        c = line[i]
        if line.startswith("//", i): break
        if line.startswith("/*", i): state["block"], i = True, i + 2; continue
        if line.startswith('"""', i): state["multi"], i = True, i + 3; continue
        if c == '"':
            # A raw string #"…"# is handled by its quotes too; interpolation's parentheses hold no braces here.
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
            i += 1; continue
        out.append(c); i += 1
    return "".join(out)

def functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    state = {"block": False, "multi": False}
    clean = [strip(l, state) for l in lines]
    found = []
    for i, l in enumerate(lines):
        if not DECL.match(l) or state_in_comment(l): continue
        depth, parens, opened, j = 0, 0, False, i
        while j < len(clean):
            for ch in clean[j]:
                if ch in "([": parens += 1
                elif ch in ")]": parens -= 1
                elif ch == "{" and (opened or parens <= 0): depth += 1; opened = True
                elif ch == "}" and opened: depth -= 1
            if opened and depth <= 0: break
            # A signature of any length goes on while its parameters are open or its next line continues it;
            # otherwise it was a protocol requirement or a stored property.
            if not opened and parens <= 0 and (j + 1 >= len(clean) or not CONTINUATION.match(clean[j + 1])): break
            j += 1
        if not opened: continue
        doc, k = [], i - 1
        while k >= 0 and (lines[k].strip().startswith("///") or lines[k].strip().startswith("@")):
            doc.append(lines[k].strip()); k -= 1
        name = re.sub(r"\s+", " ", l.strip())[:90]
        found.append((j - i + 1, path, i + 1, name, any(d.startswith("/// Length:") for d in doc)))
    return found

def state_in_comment(l):
    s = l.strip()
    return s.startswith("//") or s.startswith("*")

SELF_TEST = """protocol P {
    func required(a: Int)
    var name: String { get }
}
struct S {
    public func long(
        a: Int,
        b: (Int) -> Void = { _ in },
        c: Int
    ) -> Int {
        a
    }
    lazy var cache: [Int] = {
        []
    }()
    static func < (lhs: S, rhs: S) -> Bool {
        true
    }
    static func == (lhs: S, rhs: S) -> Bool { true }
    func generic<T>(_ t: T)
        -> T where T: Equatable {
        t
    }
    var computed: Int {
        1
    }
    let stored: Int
}
"""

def self_test():
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".swift", delete=False) as f:
        f.write(SELF_TEST)
    got = [(n, line) for n, _, line, _, _ in functions(f.name)]
    os.unlink(f.name)
    want = [(7, 6), (3, 13), (3, 16), (1, 19), (4, 20), (3, 24)]
    print("function-lengths self-test:", "ok" if got == want else f"FAILED: found {got}, expected {want}")
    sys.exit(0 if got == want else 1)

def main():
    if sys.argv[1:] == ["--self-test"]: self_test()
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=60)
    ap.add_argument("--most", type=int, default=8)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "Sources"))
    a = ap.parse_args()
    found = []
    for d, _, files in os.walk(a.root):
        for f in files:
            if f.endswith(".swift"): found += functions(os.path.join(d, f))
    # A function nested in a longer one is counted too: each is its own unit to read.
    long = sorted((x for x in found if x[0] > a.limit), key=lambda x: -x[0])
    root = os.path.normpath(os.path.join(a.root, ".."))
    for n, path, line, name, reason in long:
        print(f"{n:4d}  {os.path.relpath(path, root)}:{line}  {name}{'' if reason else '  (no Length: reason)'}")
    print(f"{len(long)} functions over {a.limit} lines ({sum(1 for x in long if not x[4])} without a reason), of {len(found)}")
    if a.check and (len(long) > a.most or any(not x[4] for x in long)):
        sys.exit(1)

main()
