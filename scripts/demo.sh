#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A short demonstration: impacts through a Hertz spring with a linear damper (Poursina–Nikravesh's
# element) and through Hunt–Crossley (m = n), simulated to near machine precision.
set -eu
BIN=${1:-impactfit}
echo "== Hertz spring + linear damper (m = 0), condition C: restitution for n = 1, 1.5, 2 and"
echo "   damping c (mass = k = v = 1). n = 1, c = 0.5 is Kelvin-Voigt with xi = 0.25: exactly"
echo "   e = exp(-2 xi acos(xi)/sqrt(1 - xi^2)) = 0.506276552519"
"$BIN" simulate --n 1,1.5,2 --c 0.1,0.5,2
echo
echo "== Hunt-Crossley (m = n), lambda = eps k / v with eps = 0.1, 1, 10: e depends on eps only"
echo "   (exact: 0.937475579950, 0.593624260040, 0.099981624753), not on n, k, mass or v"
"$BIN" simulate --n 1.5 --m 1.5 --k 1e8 --mass 0.05 --v 2 --c 5e6,5e7,5e8
"$BIN" simulate --n 1 --m 1 --k 3e5 --mass 7 --v 0.1 --c 3e5,3e6,3e7
echo
echo "== The four transition conditions for the same element (n = 1.5, m = 0, c = 0.8):"
echo "   A ends at delta = 0 with a tensile force, B starts before the bodies touch (delta < 0),"
echo "   C and D end at zero force (identical for one free impact)"
"$BIN" simulate --n 1.5 --c 0.8 --transition A,B,C,D
