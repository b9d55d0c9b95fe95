#!/usr/bin/env python3
"""Draws the graph of Octavo's libraries from `cmake --graphviz` into
docs/design.md, between the target-graph markers, so the picture stays true.

  scripts/target-graph.py            rewrite docs/design.md
  scripts/target-graph.py --check    exit 1 when docs/design.md is stale

It configures the source tree into a temporary folder (no build)."""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESIGN = os.path.join(ROOT, "docs", "design.md")
BEGIN, END = "<!-- target-graph:begin -->", "<!-- target-graph:end -->"
# The programs people run and the libraries they are built from; tests and
# benchmarks are left out, and external libraries are shown by their name.
PROGRAMS = {"publish", "themec"}
ROOMS = [
    ("base", ["octavo_base"]),
    ("template", ["octavo_tplrt", "octavo_tplinterp"]),
    ("front", ["octavo_tplfront"]),
    ("compiler", ["octavo_tplcgen", "octavo_themec"]),
    ("themes", None),  # octavo_theme_*
    ("typeset", ["octavo_css", "octavo_typeset", "octavo_tsfont",
                 "octavo_tspdf", "octavo_pdfengine"]),
    ("leaf", ["octavo_highlight", "octavo_serve", "octavo_search",
              "octavo_linebreak"]),
    ("book", ["octavo_book", "octavo_publish"]),
]


def external_name(label):
    if label.startswith("PkgConfig::"):
        return label[len("PkgConfig::"):].lower()
    m = re.search(r"lib([A-Za-z0-9_+-]+?)(?:-[0-9.]+)?\.so", label)
    if m:
        return m.group(1)
    return label.split("::")[-1].lower()


def read_graph():
    with tempfile.TemporaryDirectory() as tmp:
        dot = os.path.join(tmp, "g.dot")
        subprocess.run(["cmake", "-S", ROOT, "-B", tmp, "--graphviz=" + dot],
                       check=True, stdout=subprocess.DEVNULL)
        text = open(dot, encoding="utf-8").read()
    labels = dict(re.findall(r'"(node\d+)" \[ label = "([^"]+)"', text))
    edges = set()
    for a, b in re.findall(r'"(node\d+)" -> "(node\d+)"', text):
        edges.add((labels[a], labels[b]))
    return edges


def render(edges):
    def ours(n):
        return n.startswith("octavo_") or n in PROGRAMS
    deps = {}
    for a, b in edges:
        if not ours(a):
            continue
        if ours(b):
            deps.setdefault(a, set()).add(b)
        elif not b.startswith("/") or ".so" in b:
            deps.setdefault(a, set()).add(external_name(b))
    # Direct Octavo links only; the externals of a room once.
    lines = ["```dot", "digraph octavo {", "  rankdir=BT; node [shape=box];"]
    themes = sorted(n for n in deps if n.startswith("octavo_theme_"))
    for room, members in ROOMS:
        members = themes if members is None else members
        lines.append(f'  subgraph "cluster_{room}" {{ label="{room}";')
        for m in members:
            lines.append(f"    {m};")
        lines.append("  }")
    for a in sorted(deps):
        inner = sorted(d for d in deps[a] if ours(d))
        outer = sorted(d for d in deps[a] if not ours(d) and d != "m"
                       and d != "threads")
        if inner:
            lines.append(f"  {a} -> {{{' '.join(inner)}}};")
        if outer:
            lines.append(f"  // {a} also links: {', '.join(outer)}")
    lines += ["}", "```"]
    return "\n".join(lines)


def main():
    check = "--check" in sys.argv[1:]
    block = render(read_graph())
    text = open(DESIGN, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        sys.exit(f"target-graph: {DESIGN} has no {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{BEGIN}\n{block}\n{END}{tail}"
    if check:
        if new != text:
            sys.exit("target-graph: docs/design.md's graph of the libraries "
                     "is stale; run scripts/target-graph.py")
        print("target-graph: docs/design.md is current")
        return
    if new != text:
        open(DESIGN, "w", encoding="utf-8").write(new)


if __name__ == "__main__":
    main()
