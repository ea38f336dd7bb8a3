#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The README's install lines say what the tested ones do: its apt-get line lists exactly the packages of
`scripts/deps.sh build main`, and its three one-liners (pip, Octave's pkg, the .deb) are docs/PACKAGING.md's
commands joined with &&, which the packaging ctests run (package_pip runs the README's pip line itself).
usage: check_install_lines.py SOURCE_DIR"""
import os
import re
import sys


def code_lines(text):
    """The lines of the indented code blocks, comments cut, continuations joined."""
    out, cur = [], ""
    for line in text.splitlines():
        if not line.startswith("    "):
            continue
        s = line[4:]
        cur = cur + " " + s.strip() if cur else s.strip()
        if cur.endswith("\\"):
            cur = cur[:-1].strip()
            continue
        out.append(re.sub(r"\s+#\s.*$", "", cur).strip())
        cur = ""
    return out


def main():
    src = sys.argv[1]
    readme = code_lines(open(os.path.join(src, "README.md"), encoding="utf-8").read())
    pack = code_lines(open(os.path.join(src, "docs", "PACKAGING.md"), encoding="utf-8").read())
    deps = open(os.path.join(src, "scripts", "deps.sh"), encoding="utf-8").read()
    bad = []
    # 1. apt-get packages
    groups = dict(re.findall(r'^group\[(\w[\w-]*)\]="([^"]*)"', deps, re.M))
    want = set(groups["build"].split()) | set(groups["main"].split())
    apt = [l for l in readme if l.startswith("sudo apt-get install ") and "build-essential" in l]
    if len(apt) != 1:
        bad.append(f"README: {len(apt)} apt-get lines with build-essential, want 1")
    else:
        got = set(apt[0].split()[3:])
        if got != want:
            bad.append(f"README's apt-get line vs deps.sh build main: missing {sorted(want - got)}, extra "
                       f"{sorted(got - want)}")
    # 2. the one-liners
    def joined(*starts):
        parts = []
        for st in starts:
            m = [l for l in pack if l.startswith(st)]
            if not m:
                bad.append(f"docs/PACKAGING.md: no line starting {st!r}")
                return None
            parts.append(m[0])
        return " && ".join(parts)
    expect = {
        "pip": joined("python3 -m venv", "venv/bin/pip install"),
        "octave": joined("cmake --build build --target octave-pkg", "octave-cli --no-history --eval \"pkg install"),
        "deb": joined("cmake -S . -B build-deb", "cmake --build build-deb", "apt-get install ./build-deb"),
    }
    for what, line in expect.items():
        if line and line not in readme:
            bad.append(f"README has no one-liner for {what} equal to docs/PACKAGING.md's lines:\n    {line}")
    for b in bad:
        print("FAIL:", b)
    print(f"check_install_lines: {len(bad)} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
