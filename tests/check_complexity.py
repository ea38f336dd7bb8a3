#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Functions a reader can hold in mind: pmccabe over src/ fails on a function longer than MAX_LINES lines or of
cyclomatic complexity above MAX_CC (pmccabe's traditional McCabe count), except the named ones below, each with
its reason (a data table that pmccabe takes for a function, or work under way elsewhere).

usage: check_complexity.py SRC_DIR   (exit 1 and one line per finding; 77 when pmccabe is not installed:
       bash scripts/deps.sh test, or apt-get install pmccabe)
"""
import os
import shutil
import subprocess
import sys

MAX_LINES = 200
MAX_CC = 60

# "file:function" (file relative to SRC_DIR's parent): why it may be over
EXCEPTIONS = {
    # named data tables: pmccabe reads a table built by a macro call as a function (none is over today)
    "src/codes/lammps.c:IMPACTFIT__DEM_OPS": "a data table (the DEM power-law ops of the entry), not a function",
}


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    if not shutil.which("pmccabe"):
        print("check_complexity: pmccabe is not installed (bash scripts/deps.sh test): skipped")
        return 77
    src = os.path.abspath(argv[1])
    root = os.path.dirname(src)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith((".c", ".cpp")))
    out = subprocess.run(["pmccabe"] + files, capture_output=True, text=True, check=True).stdout
    findings, used, functions = [], set(), 0
    for line in out.splitlines():
        cols = line.split("\t")
        if len(cols) < 6:
            continue
        functions += 1
        cc, nlines = int(cols[1]), int(cols[4])
        where, name = cols[5].split(": ", 1)
        path = os.path.relpath(where.rsplit("(", 1)[0], root)
        key = "%s:%s" % (path, name)
        if nlines <= MAX_LINES and cc <= MAX_CC:
            continue
        if key in EXCEPTIONS:
            used.add(key)
            print("check_complexity: %s: %d lines, complexity %d: excepted (%s)" % (key, nlines, cc, EXCEPTIONS[key]))
            continue
        findings.append("%s: %s: %d lines (at most %d), complexity %d (at most %d): split it" %
                        (where, name, nlines, MAX_LINES, cc, MAX_CC))
    for f in findings:
        print(f)
    for key in sorted(set(EXCEPTIONS) - used):
        if not key.endswith(":IMPACTFIT__DEM_OPS"):
            print("check_complexity: %s is within the limits now: remove its exception" % key)
    print("check_complexity: %d functions in %d files, %d over %d lines or complexity %d" %
          (functions, len(files), len(findings), MAX_LINES, MAX_CC))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
