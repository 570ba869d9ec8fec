#!/usr/bin/env python3
"""The crate's floors, counted from its own `use` lines (issue 49's proof).

Every path a file names (`use crate::…`, `super::…`, `tetrarch::…` in main.rs, and paths written
inline such as `crate::rules::Seat`) is resolved to the file that defines it. Files are grouped
into rooms (a top-level file, a folder of src/, each game's folder) and rooms into floors, from
the ground up. It prints the rooms' arrows, every arrow from a lower floor to a higher one, and
every circle between files of different rooms, and exits 1 when either list is not empty, so
that a test can hold the shape.

    python3 tools/floors.py [--verbose]
"""
import os
import re
import sys
from collections import defaultdict

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")

# Ground floor first. A room may import its own floor's rooms only where this says so (games do
# not import one another; the front ends share a floor).
FLOORS = [
    ["board", "nnue"],
    ["rules"],
    ["games/judkins", "games/dojo", "games/chaturanga", "games/judtho", "games"],
    ["search"],
    ["variants"],
    ["bench", "live", "datagen"],
    ["arbiter", "protocol"],
    ["view"],
    ["tune", "gui"],
    ["lib", "main"],
]
FLOOR_OF = {room: i for i, rooms in enumerate(FLOORS) for room in rooms}


def module_files():
    """Maps each module path (tuple of names) to its file, relative to src/."""
    files = {}
    for dirpath, _, names in os.walk(SRC):
        for n in names:
            if not n.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, n), SRC)
            parts = rel[:-3].split(os.sep)
            if parts[-1] == "mod":
                parts = parts[:-1]
            if parts in (["lib"], ["main"]):
                files[(parts[0],)] = rel
                continue
            files[tuple(parts)] = rel
    return files


def room_of(rel):
    parts = rel[:-3].split(os.sep)
    if parts[0] == "games" and len(parts) > 2:
        return "games/" + parts[1]
    if len(parts) == 1:
        return parts[0] if parts[0] != "mod" else parts[0]
    return parts[0]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e]."""
    tree = tree.strip()
    m = re.match(r"^(.*?)\{(.*)\}$", tree, flags=re.S)
    if not m:
        return [tree]
    prefix, inner = m.group(1), m.group(2)
    items, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    items.append(cur)
    out = []
    for it in items:
        if it.strip():
            out += [prefix + x for x in expand_use(it)]
    return out


def paths_in(text, module, is_bin):
    """Absolute module paths (tuples) named in a file."""
    found = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        found += expand_use(m.group(1))
    found += re.findall(r"\b(?:crate|super|tetrarch)(?:::[A-Za-z_][A-Za-z0-9_]*)+", text)
    out = []
    for p in found:
        p = re.sub(r"\s+as\s+\w+$", "", p.strip())
        parts = [x for x in p.split("::") if x]
        if not parts:
            continue
        if parts[0] == "crate" or (is_bin and parts[0] == "tetrarch"):
            parts = parts[1:]
        elif parts[0] in ("super", "self"):
            base = list(module)
            while parts and parts[0] in ("super", "self"):
                if parts[0] == "super":
                    base = base[:-1]
                parts = parts[1:]
            parts = base + parts
        else:
            continue
        out.append(tuple(parts))
    return out


def resolve(path, files):
    for n in range(len(path), 0, -1):
        if path[:n] in files:
            return files[path[:n]]
    return None


def main():
    files = module_files()
    edges = defaultdict(set)
    for module, rel in files.items():
        with open(os.path.join(SRC, rel)) as f:
            text = strip_comments(f.read())
        is_bin = rel == "main.rs"
        mod = module if rel.endswith("mod.rs") or module in (("lib",), ("main",)) else module
        # Inside a file `a/b.rs`, `super` is `a`; inside `a/mod.rs` it is the parent of `a`.
        here = module if not rel.endswith("mod.rs") else module + ("mod",)
        if module in (("lib",), ("main",)):
            here = ("x",)
        for p in paths_in(text, here, is_bin):
            target = resolve(p, files)
            if target and target != rel:
                edges[rel].add(target)
    rooms = defaultdict(set)
    for a, bs in edges.items():
        for b in bs:
            if room_of(a) != room_of(b):
                rooms[room_of(a)].add(room_of(b))
    upward = []
    for a, bs in sorted(edges.items()):
        for b in sorted(bs):
            ra, rb = room_of(a), room_of(b)
            if ra == rb:
                continue
            fa, fb = FLOOR_OF.get(ra), FLOOR_OF.get(rb)
            if fa is None or fb is None:
                upward.append((a, b, "a room no floor names"))
            elif fb > fa:
                upward.append((a, b, "up from floor %d to %d" % (fa, fb)))
            elif fb == fa and ra.startswith("games/") and rb.startswith("games/"):
                upward.append((a, b, "one game imports another"))
    # Strongly connected components of the file graph (Tarjan).
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(sorted(comp))

    for v in sorted(files.values()):
        if v not in index:
            strong(v)
    circles = [c for c in comps if len({room_of(f) for f in c}) > 1]
    inside = [c for c in comps if len(c) > 1 and len({room_of(f) for f in c}) == 1]
    arrows = sum(len(b) for b in rooms.values())
    print("%d files, %d rooms, %d arrows between rooms" % (len(files), len({room_of(f) for f in files.values()}), arrows))
    if "--verbose" in sys.argv:
        for r in sorted(rooms, key=lambda r: (FLOOR_OF.get(r, 99), r)):
            print("  %s -> %s" % (r, ", ".join(sorted(rooms[r], key=lambda r: (FLOOR_OF.get(r, 99), r)))))
    print("%d imports from a lower floor up" % len(upward))
    for a, b, why in upward:
        print("  %s -> %s (%s)" % (a, b, why))
    print("%d circles between files of different rooms" % len(circles))
    for c in circles:
        print("  " + ", ".join(c))
    # A folder's mod.rs that re-exports its files' types, which name them back as `super::…`,
    # is Rust's way of giving a folder one front; these are listed, not counted against it.
    print("%d circles inside one room (listed only)" % len(inside))
    for c in inside:
        print("  " + ", ".join(c))
    return 1 if upward or circles else 0


if __name__ == "__main__":
    sys.exit(main())
