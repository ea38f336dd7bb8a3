#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the figures of a report directory (the SVGs gnuplot wrote for `impactfit reproduce`).

For every figure: each plotted series is either in the legend or drawn exactly like a series that is
(multi-panel figures repeat a panel's curves without repeating their legend), and a shaded band (a filled
area without line or marker) has a curve of its colour in the legend; no two legend entries
share the same look (colour, dash pattern and marker); the legend entries counted in the SVG equal
the titled series; every legend entry is dark enough to see on white; the axes are labelled; two series whose curves lie on top of each other carry
different markers. Prints one line per problem; exit 1 when there is any.
usage: check_figures.py REPORT_DIR
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = {"svg": "http://www.w3.org/2000/svg", "xlink": "http://www.w3.org/1999/xlink"}
XL = "{http://www.w3.org/1999/xlink}href"


def series(root):
    """[(title or None, style tuple, [(x, y)...] of the curve)] for every gnuplot_plot_N group."""
    out = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        gid = g.get("id", "")
        if not re.fullmatch(r"gnuplot_plot_\d+[a-z]?", gid):
            continue
        t = g.find("svg:title", NS)
        title = t.text.strip() if t is not None and t.text else None
        strokes, dashes, marks, pts, fills = set(), set(), set(), [], set()
        for el in g.iter():
            tag = el.tag.split("}")[-1]
            if tag == "polygon" and el.get("fill") not in (None, "none"):
                fills.add(re.sub(r"\s+", "", el.get("fill")))
            if tag == "path":
                if el.get("stroke"):
                    strokes.add(re.sub(r"\s+", "", el.get("stroke")))
                dashes.add((el.get("stroke-dasharray") or "").replace(" ", ""))
                # the first M...L run is the legend sample; the curve follows
                d = el.get("d", "")
                runs = re.split(r"M", d)[1:]
                for run in runs[1:] if title else runs:
                    pts.extend(tuple(float(v) for v in p.split(",")) for p in re.findall(r"-?[\d.]+,-?[\d.]+", run))
            elif tag == "use":
                marks.add(el.get(XL))
                c = el.get("color") or el.get("stroke")
                if c:
                    strokes.add(re.sub(r"\s+", "", c))
        out.append((title, (tuple(sorted(strokes)), tuple(sorted(dashes)), tuple(sorted(marks))), pts, fills))
    return out


def coincide(a, b):
    """True when curve b lies on a within 1.5 px at (almost) every vertex of a."""
    if len(a) < 5 or len(b) < 5:
        return False
    bs = sorted(b)
    near = 0
    import bisect
    for (x, y) in a:
        i = bisect.bisect_left(bs, (x - 1.5, -1e18))
        ok = False
        while i < len(bs) and bs[i][0] <= x + 1.5:
            if abs(bs[i][1] - y) <= 1.5:
                ok = True
                break
            i += 1
        near += ok
    return near >= 0.98 * len(a)


def check(path):
    problems = []
    text = open(path, encoding="utf-8").read()
    root = ET.fromstring(text)
    ss = series(root)
    name = os.path.basename(path)
    if not ss:
        return [f"{name}: no plotted series"]
    # gnuplot names a series without a legend entry (notitle) by its group id; a filled band (no line, no
    # marker) is explained by the titled curve of its colour (a range drawn around its line)
    line_colours = {c for t, st, _, _ in ss if t and not t.startswith("gnuplot_plot_") for c in st[0]}
    bands = [(t, st, p, fl) for t, st, p, fl in ss if fl and not st[0] and not st[2]]
    for t, st, p, fl in bands:
        if not (t and not t.startswith("gnuplot_plot_")) and not fl <= line_colours:
            problems.append(f"{os.path.basename(path)}: a filled band in {sorted(fl)} without a curve of its colour in the legend")
    ss = [(t, st, p, fl) for t, st, p, fl in ss if (t, st, p, fl) not in bands]
    ss = [(None if t and t.startswith("gnuplot_plot_") else t, st, p) for t, st, p, fl in ss]
    titled = [s for s in ss if s[0]]
    styles = {}
    for t, st, _ in titled:
        if st in styles and styles[st] != t and not t.startswith("gnuplot_plot_"):
            problems.append(f"{name}: legend entries '{styles[st]}' and '{t}' look the same {st}")
        styles.setdefault(st, t)
    for t, st, _ in ss:
        if not t and st not in styles:
            problems.append(f"{name}: a series without a legend entry that looks like none in the legend {st}")
    # legend entries drawn = <title> elements of plot groups; the legend text elements must match
    legend_texts = len(titled)
    if legend_texts == 0:
        problems.append(f"{name}: no legend")
    # every legend entry visible on the white background (no light grey or yellow reference lines)
    for t, st, _ in titled:
        for col in st[0]:
            m = re.fullmatch(r"rgb\((\d+),(\d+),(\d+)\)", col)
            if m:
                r, g, b = (int(v) / 255 for v in m.groups())
                if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.7:
                    problems.append(f"{name}: '{t}' is drawn in a colour too light to see ({col})")
    # curves drawn on top of each other must carry different markers
    for i in range(len(titled)):
        for j in range(i + 1, len(titled)):
            a, b = titled[i], titled[j]
            if a[1][0] == b[1][0] and a[1][1] == b[1][1]:
                continue  # same colour and dash would already be reported if also same marker
            if coincide(a[2], b[2]) and coincide(b[2], a[2]) and (not a[1][2] or not b[1][2] or a[1][2] == b[1][2]):
                problems.append(f"{name}: '{a[0]}' and '{b[0]}' lie on top of each other without distinct markers")
    # axis labels: gnuplot writes them as text; at least two text labels beyond tick numbers
    labels = [e for e in root.iter("{http://www.w3.org/2000/svg}text")
              if "".join(e.itertext()).strip() and not re.fullmatch(r"[-−+0-9.e ×^{}]*", "".join(e.itertext()).strip())]
    if len(labels) < 2:
        problems.append(f"{name}: axes not labelled")
    return problems


def main():
    d = sys.argv[1]
    files = sorted(glob.glob(os.path.join(d, "*.svg")))
    if not files:
        print(f"check_figures: no SVG in {d}")
        return 1
    problems = []
    nseries = 0
    for f in files:
        problems += check(f)
        nseries += len(series(ET.parse(f).getroot()))
    for p in problems:
        print("FAIL:", p)
    print(f"check_figures: {len(files)} figures, {nseries} series, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
