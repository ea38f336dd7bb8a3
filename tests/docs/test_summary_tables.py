#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The findings tables of README.md ("What the main job finds") and docs/REPRODUCTION.md are the summary
table of the committed report (reports/REPORT.md, "Summary of findings"), which `impactfit reproduce`
generates from the numbers it measures: the same rows, word for word (the report's links to its own
sections aside). A run that changes a figure changes the report; this test then names the rows the
documents must take over.
usage: test_summary_tables.py SOURCE_DIR
"""
import os
import re
import sys


def table_after(text, heading, name):
    """The rows (lists of cells) of the first table after the line `heading`."""
    lines = text.split("\n")
    try:
        i = next(k for k, l in enumerate(lines) if l.strip() == heading)
    except StopIteration:
        raise SystemExit(f"FAIL: {name}: no heading '{heading}'")
    while i < len(lines) and not lines[i].startswith("|"):
        i += 1
    rows = []
    while i < len(lines) and lines[i].startswith("|"):
        rows.append(lines[i])
        i += 1
    if len(rows) < 3:
        raise SystemExit(f"FAIL: {name}: no table after '{heading}'")
    return [unlink(r).strip() for r in rows]


def unlink(s):
    """Markdown links [text](target) as their text."""
    return re.sub(r"\[((?:[^\]\\]|\\.)*)\]\([^)]*\)", lambda m: re.sub(r"\\([\[\]])", r"\1", m.group(1)), s)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    report = open(os.path.join(src, "reports", "REPORT.md"), encoding="utf-8").read()
    want = table_after(report, "## Summary of findings", "reports/REPORT.md")
    fails = 0
    for doc, heading in (("README.md", "## What the main job finds"),
                         ("docs/REPRODUCTION.md", "<!-- the summary table of reports/REPORT.md -->")):
        got = table_after(open(os.path.join(src, doc), encoding="utf-8").read(), heading, doc)
        if got != want:
            fails += 1
            print(f"FAIL: {doc}: the findings table differs from the summary of reports/REPORT.md; the report's rows:")
            for row in want:
                print("  " + row)
            for k, (g, w) in enumerate(zip(got, want)):
                if g != w:
                    print(f"  first difference, row {k + 1}:\n    {doc}: {g}\n    report: {w}")
                    break
            else:
                print(f"  {doc} has {len(got)} rows, the report {len(want)}")
    print(f"test_summary_tables.py: {len(want) - 2} rows, {fails} documents differ")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
