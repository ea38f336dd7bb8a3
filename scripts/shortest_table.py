#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes src/common/shortest_table.h: the 126-bit powers of ten of the shortest-text algorithm
(src/common/shortest.c), g(k) = floor(10^-k 2^(125 - floor(-k log2 10))) + 1 for k = -324 .. 292,
each as g1 = g >> 63 and g0 = g mod 2^63, in exact integer arithmetic.

usage: scripts/shortest_table.py [--check]   (--check: exit 1 when the committed file differs)"""
import pathlib
import sys

K_MIN, K_MAX = -324, 292


def flog2pow10(e):
    # floor(e log2 10), exact for |e| <= 1e5: the largest n with 2^n <= 10^e
    if e >= 0:
        return (10**e).bit_length() - 1
    # 10^e = 1/10^-e: the largest n with 2^n <= 1/10^-e, i.e. 2^-n >= 10^-e
    d = 10**-e
    n = -(d.bit_length() - 1)
    while 2 ** (-n) < d:
        n -= 1
    return n


def g(k):
    e = -k
    r = 125 - flog2pow10(e)  # g = floor(10^e 2^r) + 1, in [2^125, 2^126)
    if e >= 0:
        num, den = 10**e, 1
    else:
        num, den = 1, 10**-e
    if r >= 0:
        num <<= r
    else:
        den <<= -r
    v = num // den + 1
    assert 2**125 <= v < 2**126, k
    return v


def text():
    out = [
        "/* SPDX-License-Identifier: GPL-3.0-or-later */",
        "/* Written by scripts/shortest_table.py (exact integers; ctest shortest_table checks it): for k = "
        f"{K_MIN} .. {K_MAX},",
        " * g(k) = floor(10^-k 2^(125 - floor(-k log2 10))) + 1 as {g1, g0} with g = g1 2^63 + g0 (shortest.c). */",
        "#ifndef IMPACTFIT_SHORTEST_TABLE_H",
        "#define IMPACTFIT_SHORTEST_TABLE_H",
        "",
        f"#define SHORTEST_K_MIN ({K_MIN})",
        f"#define SHORTEST_K_MAX {K_MAX}",
        "",
        f"static const uint64_t shortest_g[{K_MAX - K_MIN + 1}][2] = {{",
    ]
    for k in range(K_MIN, K_MAX + 1):
        v = g(k)
        out.append(f"    {{0x{v >> 63:016x}, 0x{v & (2**63 - 1):016x}}}, /* {k} */")
    out += ["};", "", "#endif", ""]
    return "\n".join(out)


def main():
    path = pathlib.Path(__file__).resolve().parent.parent / "src" / "common" / "shortest_table.h"
    t = text()
    if len(sys.argv) > 1 and sys.argv[1] == "--check":
        if path.read_text() != t:
            print(f"{path} differs from scripts/shortest_table.py's output", file=sys.stderr)
            return 1
        print(f"{path}: {K_MAX - K_MIN + 1} entries as written")
        return 0
    path.write_text(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
