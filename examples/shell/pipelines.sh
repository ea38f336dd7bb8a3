#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# impactfit's --json output in shell pipelines with jq (one JSON object per line).
# usage: pipelines.sh [path/to/impactfit]     (default: impactfit on PATH)
set -euo pipefail
IMPACTFIT=${1:-impactfit}

echo "# c_opt (N s/m) for four restitutions: Hertz n = 1.5, k = 1e8 N/m^1.5, mass 0.05 kg, v = 2 m/s"
"$IMPACTFIT" copt --n 1.5 --e 0.3:0.9:4 --k 1e8 --mass 0.05 --v 2 --json | jq -r '[.e, .c_opt] | @tsv'

echo "# the damping of one line fed back into a simulation: the impact rebounds with e = 0.7"
c=$("$IMPACTFIT" copt --n 1.5 --e 0.7 --k 1e8 --mass 0.05 --v 2 --json | jq -r '.c_opt')
"$IMPACTFIT" simulate --n 1.5 --c "$c" --k 1e8 --mass 0.05 --v 2 --json | jq -r '"e_out = \(.e_out), contact \(.t_contact) s"'

echo "# Hunt-Crossley: exact damping ratio eps and lambda (N s/m^(n+1)) against two published formulas"
for f in exact hunt-crossley lankarani-nikravesh; do
  "$IMPACTFIT" hc-eps --e 0.5 --k 1e8 --v 2 --formula "$f" --json | jq -r --arg f "$f" '"\($f)\t\(.eps)\t\(.lambda)"'
done
