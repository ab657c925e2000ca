#!/usr/bin/env python3
"""Apply one mutant of tests/mutation/*.mut to a source tree (used by scripts/mutation.sh).

  apply.py TREE MUTANT-ID            mutate TREE/src in place; prints the file it changed
  apply.py TREE --list               every mutant: id, tests, what (tab-separated)
  apply.py TREE --check              every mutant still finds its function and its pattern

A mutant names a FUNCTION and a PATTERN, never a file or a line: the function
is found by its definition anywhere under src/ (a line at column 0 that names
it and opens a body with a "{" line; its body ends at the next "}" line), the
pattern inside that body (whitespace runs match any whitespace, so re-indented
code still matches); together they must name one place (static functions of
the same name in several files: the one whose body holds the pattern). So files can move and functions can
change around the pattern without touching the mutants.

Mutant file format (blocks separated by blank lines, # comments):
  [id] what the bug is
  area: one of the areas of issue 16
  function: name
  find: text            (\\n and \\t allowed)
  replace: text
  tests: ctest names, cheapest killer first
  note: optional (e.g. which later test is expected to kill it)
"""
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    muts = []
    for path in sorted(glob.glob(os.path.join(HERE, "*.mut"))):
        cur = None
        for raw in open(path):
            line = raw.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line.strip():
                cur = None
                continue
            m = re.match(r"^\[([\w-]+)\]\s*(.*)$", line)
            if m:
                cur = {"id": m.group(1), "what": m.group(2), "file": os.path.basename(path)}
                muts.append(cur)
                continue
            k, _, v = line.partition(":")
            if cur is None or not v:
                sys.exit("%s: cannot read line %r" % (path, line))
            cur[k.strip()] = v[1:] if v.startswith(" ") else v
    ids = [m["id"] for m in muts]
    dup = set(i for i in ids if ids.count(i) > 1)
    if dup:
        sys.exit("duplicate mutant ids: %s" % sorted(dup))
    for m in muts:
        for k in ("area", "function", "find", "replace", "tests"):
            if k not in m:
                sys.exit("mutant %s: no %s" % (m["id"], k))
    return muts


def unescape(s):
    return s.replace("\\n", "\n").replace("\\t", "\t")


def find_function(tree, name):
    """[(path, body_start, body_end)] of every definition of `name` under src/."""
    hits = []
    head = re.compile(r"^[A-Za-z_][^;]*?\b%s\s*\(" % re.escape(name))
    for path in sorted(glob.glob(os.path.join(tree, "src", "**", "*.[ch]"), recursive=True)):
        lines = open(path).read().split("\n")
        offs = [0]
        for l in lines:
            offs.append(offs[-1] + len(l) + 1)
        for i, l in enumerate(lines):
            if not head.match(l) or l.rstrip().endswith(";"):
                continue
            # the body: the first "{" line within a few lines (a multi-line signature), then up to "}"
            j = i
            while j < len(lines) and j < i + 8 and lines[j] != "{":
                if lines[j].rstrip().endswith(";"):
                    break
                j += 1
            if j >= len(lines) or lines[j] != "{":
                continue
            k = j + 1
            while k < len(lines) and lines[k] != "}":
                k += 1
            hits.append((path, offs[j], offs[k]))
    return hits


def pattern(find):
    parts = re.split(r"\s+", unescape(find).strip())
    return re.compile(r"\s+".join(re.escape(p) for p in parts))


def locate(tree, m):
    """The one place: a definition of the function (several static functions
    may share a name: the one whose body holds the pattern) and the pattern's
    one occurrence in its body."""
    hits = find_function(tree, m["function"])
    if not hits:
        return None, "function %s: no definition under src/" % m["function"]
    rx = pattern(m["find"])
    places = []
    for path, a, b in hits:
        text = open(path).read()
        found = list(rx.finditer(text, a, b))
        if found:
            places.append((path, text, found))
    if len(places) != 1 or len(places[0][2]) != 1:
        n = sum(len(f) for _, _, f in places)
        return None, "function %s (%d definitions): pattern found %d times: %s" % (m["function"], len(hits), n, m["find"])
    path, text, found = places[0]
    return (path, text, found[0]), None


def main(a):
    if len(a) != 3:
        sys.exit(__doc__)
    tree, what = a[1], a[2]
    muts = load()
    if what == "--list":
        for m in muts:
            print("%s\t%s\t%s\t%s\t%s" % (m["id"], m["area"], m["tests"], m["what"], m.get("note", "")))
        return 0
    if what == "--check":
        bad = 0
        for m in muts:
            loc, err = locate(tree, m)
            if err:
                print("%s: %s" % (m["id"], err), file=sys.stderr)
                bad += 1
        print("%d mutants, %d cannot be applied" % (len(muts), bad))
        return 1 if bad else 0
    m = next((x for x in muts if x["id"] == what), None)
    if not m:
        sys.exit("no mutant %s" % what)
    loc, err = locate(tree, m)
    if err:
        sys.exit("%s: %s" % (m["id"], err))
    path, text, hit = loc
    open(path, "w").write(text[:hit.start()] + unescape(m["replace"]) + text[hit.end():])
    print(os.path.relpath(path, tree))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
