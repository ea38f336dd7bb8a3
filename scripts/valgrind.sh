#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Valgrind memcheck of one run of every command of the CLI (small inputs), plus a few runs that fail
# on bad input (their error paths free what they allocated too). Any error, or a definitely lost
# block, fails the run (exit status 99 from valgrind).
# usage: scripts/valgrind.sh [path/to/impactfit]   (default: builds build-valgrind/, -O1 -g)
set -u
cd "$(dirname "$0")/.."
bash scripts/deps.sh build valgrind || exit 1
if [ $# -ge 1 ]; then
  BIN=$1
else
  cmake -S . -B build-valgrind -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
    >/dev/null || exit 1
  cmake --build build-valgrind -j"$(nproc)" --target impactfit_cli >/dev/null || exit 1
  BIN=build-valgrind/src/cli/impactfit
fi
SRC=$PWD
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/src/include/impactfit/generated"
printf '[sweep]\nproblem = simulate\n[fixed]\nm = 0\n[axes]\nn = list 1, 1.5, 2\nc = linear 0.1, 0.5, 4\n' >"$T/grid.ini"
printf '[fit]\nname = vgfit\nsweep = grid.ini\n[stage s]\ndata = sweep\ngroup = n\nx = c\ny = e_out\nform = exp\n' \
  >"$T/fit.ini"
printf '[sweep]\nproblem = simulate\n[axes]\nn = log 1, -2, 3\n' >"$T/bad.ini"
printf 'v,e\n1,nan\n' >"$T/bad.csv"

# One command per line: the expected exit status, then the arguments ($T, $SRC expanded).
runs=$(cat <<RUNS
0 simulate --n 1.5 --c 0.5 --trace $T/trace.csv --trace-points 21
0 simulate --n 1 --c 400 --k 1e4 --mass 1 --v 20 --accel 9.81 --contacts 3 --transition C,D --json
1 simulate --n 1.5 --c 1e11
0 copt --n 1.5 --e 0.5,0.7
0 copt --n 1.5 --e 0.6 --method nlopt --dimensional
0 zhang-alpha --n 1.5 --m 0.25 --e 0.3,0.5 --transition A
0 surrogate copt --deg-n 2 --deg-t 4 --deg-r 4 --check 5 --out $T/s.h
0 roller --case I --transition C --periods 1 --trace $T/roller.csv --trace-points 20
0 pendulum --model copt --t-end 1.5 --trace $T/p.csv --trace-dt 0.05
0 pendulum --model impulse,flores --t-end 1 --json
0 hc-eps --e 0.2,0.5,1 --k 1e8 --v 2 --json
0 hc-eps --e 0.5 --formula ramaswamy-humbert
0 impact-time --eps 0.8 --n 1.5 --k 1e8 --mass 0.05 --v 2
0 identify-hc --e 0.6 --dt 1e-4 --v 2 --mass 0.05 --n 1.5
0 hc-audit --points 5 --dtau-points 3 --dtau-n-points 2
0 sweep $T/grid.ini --out $T --threads 2
0 fit $T/fit.ini --data $T --header-dir $T --tables $T
0 reproduce --topic dem --src $T/src --out $T/rep
0 check --topic dem --src $SRC
0 dem-audit --points 3 --write-header $T
0 dem --code lammps --model gran/hertz/history --kn 7.3e7 --radius 0.005 --density 2500 --e 0.5 --v 1 --v-range 0.5,2 --points 3 --json
0 dem --code liggghts --model hertz --limit on --E 1e8 --nu 0.3 --radius 0.005 --density 2500 --e 0.1 --v 1 --json
0 dem --list
2 dem --code lammps --model nothing --e 0.5 --v 1
0 identify $SRC/tests/data/drop_test.csv --model hc --mass 0.064 --fix n=1.5 --global none --per-row
0 identify-synth --model zhang --params n=1.5,m=1,k=5e9,lambda=2e9 --v 1,2 --mass 0.064 --noise 0.01 --output $T/syn.csv
2 sweep $T/bad.ini --out $T
2 identify $T/bad.csv --model hc --mass 1
2 fit $T/bad.ini
2 simulate --n 1.5 --c 1 --trace $T/nodir/t.csv
RUNS
)
# The runs go $(nproc) at a time (valgrind runs one thread of the program at a time); a line that uses
# what an earlier line wrote (fit reads the sweep's rows) waits for it: after = the earlier line's number.
after_of() { # the line a run must wait for (0: none)
  case "$1" in
    "fit $T/fit.ini"*) grep -n "^0 sweep $T/grid.ini" <<<"$runs" | cut -d: -f1 ;;
    *) echo 0 ;;
  esac
}
one() { # one N WANT ARGS...: memcheck of run N; its verdict in $T/verdict.N
  local k=$1 want=$2 got
  shift 2
  valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --log-file="$T/vg.$k.log" "$BIN" "$@" >/dev/null 2>"$T/err.$k"
  got=$?
  # an error or a definite leak makes the exit status 99 (libgomp's thread stacks are "possibly lost")
  if [ "$got" != "$want" ]; then
    { echo "FAIL: impactfit $*: exit $got (want $want)"; head -40 "$T/vg.$k.log"; head -3 "$T/err.$k"; } >"$T/verdict.$k"
  else
    : >"$T/verdict.$k"
  fi
}
jobs_max=$(nproc)
declare -A pid_of=()
n=0
t0=$(date +%s)
while read -r want args; do
  n=$((n + 1))
  dep=$(after_of "$args")
  if [ "$dep" != 0 ] && [ -n "${pid_of[$dep]:-}" ]; then
    wait "${pid_of[$dep]}" 2>/dev/null
  fi
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  # shellcheck disable=SC2086
  one "$n" "$want" $args &
  pid_of[$n]=$!
done <<<"$runs"
wait
fail=0
for k in $(seq "$n"); do
  if [ -s "$T/verdict.$k" ]; then
    cat "$T/verdict.$k"
    fail=$((fail + 1))
  elif [ ! -e "$T/verdict.$k" ]; then
    echo "FAIL: run $k left no verdict"
    fail=$((fail + 1))
  fi
done
echo "valgrind: $n runs, $fail failed, $(($(date +%s) - t0)) s ($jobs_max at a time)"
[ "$fail" = 0 ]
