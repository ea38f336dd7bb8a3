#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares two runs of bench/run_engine_grid.sh kept with OUT_DIR (one --json answer a request): for every
request, the largest relative change of its numbers (|a - b| / max(|a|, |b|); 0 where both are 0) and the text
fields that differ; then the largest change over the grid.

usage: bench/engine_grid_diff.py BEFORE_DIR AFTER_DIR"""
import json
import os
import sys


def numbers(v, path=""):
    if isinstance(v, bool) or v is None:
        yield path, v
    elif isinstance(v, (int, float)):
        yield path, float(v)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from numbers(x, f"{path}[{i}]")
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from numbers(x, f"{path}.{k}" if path else k)
    else:
        yield path, str(v)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a_dir, b_dir = sys.argv[1:]
    worst, worst_req, texts = 0.0, "", 0
    for name in sorted(f for f in os.listdir(a_dir) if f.endswith(".json")):
        with open(os.path.join(a_dir, name[:-5] + ".req")) as f:
            req = f.read().strip()
        with open(os.path.join(a_dir, name)) as f:
            ta = f.read()
        try:
            with open(os.path.join(b_dir, name)) as f:
                tb = f.read()
        except FileNotFoundError:
            print(f"{req}: missing in {b_dir}")
            continue
        try:
            da, db = dict(numbers(json.loads(ta))), dict(numbers(json.loads(tb)))
        except ValueError:
            if ta != tb:
                print(f"{req}: output differs (not JSON): {ta.strip()[:200]!r} -> {tb.strip()[:200]!r}")
            continue
        rel, field, diff_text = 0.0, "", []
        for k in sorted(set(da) | set(db)):
            x, y = da.get(k, "<none>"), db.get(k, "<none>")
            if isinstance(x, float) and isinstance(y, float):
                d = 0.0 if x == y else abs(x - y) / max(abs(x), abs(y))
                if d > rel:
                    rel, field = d, k
            elif x != y:
                diff_text.append(k)
        if rel > worst:
            worst, worst_req = rel, f"{req} ({field})"
        if rel > 0.0 or diff_text:
            print(f"{req}: largest relative change {rel:.3g}{' in ' + field if field else ''}"
                  f"{'; fields differing: ' + ', '.join(diff_text) if diff_text else ''}")
        texts += bool(diff_text)
    print(f"largest relative change: {worst:.3g}{' (' + worst_req + ')' if worst_req else ''}; "
          f"answers with a text field changed: {texts}")


if __name__ == "__main__":
    main()
