#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every registry model (each code's default version, its default integrator; MuJoCo's rk4 too) x the time
# steps from the engine's default (1e-4 s where it has none) down to 1e-7 s x forward and inverse (e = 0.5),
# each one `impactfit engine` process (a 1.309 g sphere of radius 5 mm on a plane at 1 m/s; a model's
# required settings given plausible values), timed whole-process (wall and CPU); prints every answer's time and exit code and
# the slowest answer. An answer over TIMEOUT seconds of wall time is stopped and counted at TIMEOUT.
# usage: bench/run_engine_grid.sh [BUILD_DIR] [TIMEOUT]   (default build-bench, 120 s)
# SPEEDS (default "1"): the approach speeds (m/s), e.g. SPEEDS="0.1 1 1.5 5"; 1.5 m/s is above Jolt's 1 m/s
# restitution threshold, 5 above PhysX's 2 m/s. ES (default "0.5"): the asked e of the inverses, e.g.
# ES="0.05 0.5 0.95" (the mode column then says "e 0.05", ...).
# GRAVITY (default unset): every request with --gravity GRAVITY (m/s^2, a drop test's; the models that do not take
# it refuse with exit 2, printed as such and left out of the totals of answers).
# With OUT_DIR set, every answer's output (--json) is kept there, one file a request (NNN.json, the request in
# NNN.req): two runs' answers compare with bench/engine_grid_diff.py.
# PEER (a path to another build's impactfit, e.g. an earlier commit's): each request is run REPEAT times (default
# 3) by the peer and by this build in turn, and the medians of both are printed (peer wall, peer CPU, then this
# build's), so that a machine whose speed drifts during the run moves both; the summary gives both totals. With
# OUT_DIR too, this build's answers are kept there (its last run of each request).
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build-bench}
LIMIT=${2:-120}
if [ ! -x "$BUILD/src/cli/impactfit" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_PYTHON=OFF -DIMPACTFIT_OCTAVE=OFF \
    -DIMPACTFIT_ENGINE_TESTS=OFF >/dev/null
  cmake --build "$BUILD" --target impactfit_cli >/dev/null
fi
X="$BUILD/src/cli/impactfit"
[ -n "${OUT_DIR:-}" ] && mkdir -p "$OUT_DIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# a model's required settings (--list says "(required)"): plausible values
value_of() {
  case $1 in
  kp) echo 1000 ;; kd) echo 1 ;; erp) echo 0.2 ;; cfm) echo 1e-5 ;; restitution) echo 0.5 ;; mRestitution) echo 0.5,0 ;;
  solref) echo -1000,-20 ;; bounce) echo 0.5,0.1 ;; *) echo 1 ;;
  esac
}
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $($X --version 2>/dev/null | head -1)"
if [ -n "${PEER:-}" ]; then
  printf '%-62s %-8s %-7s %9s %9s %9s %9s\n' "code 'model' integrator" dt mode "peer wall" "peer CPU" "wall ms" "CPU ms"
else
  printf '%-62s %-8s %-7s %9s %9s %s\n' "code 'model' integrator" dt mode "wall ms" "CPU ms" exit
fi
for code in $($X engine --list 2>&1 | awk '/^  [a-z]/ && $2 != "dem" {print $1}'); do
  $X engine --list --code "$code" >"$TMP/list" 2>&1 || continue
  # the default version's entries (the first block of each model and option): model, option flags (e.g.
  # "--damping gn"; - for none), integrators, default dt, required settings
  awk -F'\n' 'function out() { if (m != "") printf "%s\t%s\t%s\t%s\t%s\n", m, opt == "" ? "-" : opt, ints, dt, reqs }
    /^[a-z]+ '"'"'/ { if (keep) out(); match($0, /'"'"'[^'"'"']*'"'"'/); name = substr($0, RSTART + 1, RLENGTH - 2);
                      o = substr($0, RSTART + RLENGTH); sub(/  \[.*/, "", o); sub(/^ +/, "", o);
                      keep = !((name SUBSEP o) in seen); seen[name, o] = 1; if (keep) { m = name; opt = o; reqs = "" } else m = "" }
    keep && /integrators:/ { ints = $0; sub(/.*integrators: /, "", ints); sub(/ .*/, "", ints);
                             dt = "1e-4"; if ($0 ~ /default dt [0-9]/) { dt = $0; sub(/.*default dt /, "", dt); sub(/ s.*/, "", dt) } }
    keep && /^  --/ && /\(required\)/ { r = $0; sub(/^  --/, "", r); sub(/ .*/, "", r); reqs = reqs " " r }
    END { if (keep) out() }' "$TMP/list" >"$TMP/models"
  while IFS=$'\t' read -r model opt val dtd req; do
    reqs=""
    [ "$opt" = - ] && opt=""
    for r in $req; do reqs="$reqs --$r $(value_of "$r")"; done
    ints=${val%%,*}
    [ "$code" = mujoco ] && case ,$val, in *,rk4,*) ints="$ints rk4" ;; esac
    [ "$code" = simbody ] && continue # adaptive integrators: no step (the continuous-time law)
    for integ in $ints; do
      for dt in $dtd 1e-5 1e-6 1e-7; do
        for v in ${SPEEDS:-1}; do
        for m in forward $(for e in ${ES:-0.5}; do echo "inverse:$e"; done); do
          mode=${m%%:*} extra="${GRAVITY:+--gravity $GRAVITY}"
          [ $mode = inverse ] && extra="$extra --e ${m#*:}" && [ -n "${ES:-}" ] && mode="e ${m#*:}"
          nreq=$((${nreq:-0} + 1))
          out=/dev/null
          if [ -n "${OUT_DIR:-}" ]; then
            out=$(printf '%s/%03d.json' "$OUT_DIR" "$nreq")
            extra="$extra --json"
            printf '%s\n' "$code '$model'${opt:+ $opt} $integ $dt $mode${SPEEDS:+ v $v}" >"${out%.json}.req"
          fi
          if [ -n "${PEER:-}" ]; then
            # the peer and this build in turn, REPEAT times; the medians (ms) of each
            : >"$TMP/ab"
            for _ in $(seq "${REPEAT:-3}"); do
              for b in peer self; do
                bin=$X && keep=$out && [ $b = peer ] && bin=$PEER && keep=/dev/null
                # shellcheck disable=SC2086
                /usr/bin/time -f "$b %e %U %S" -a -o "$TMP/ab" timeout "$LIMIT" "$bin" engine --code "$code" --model "$model" \
                  $opt --integrator "$integ" --dt "$dt" --v "$v" --mass 0.001309 --radius 0.005 $reqs $extra >"$keep" 2>&1 || true
              done
            done
            med() { awk -v b="$1" -v k="$2" '$1 == b {print (k == "w" ? $2 : $3 + $4) * 1000}' "$TMP/ab" | sort -g |
              awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
            printf '%-62s %-8s %-7s %9.0f %9.0f %9.0f %9.0f\n' "$code '$model'${opt:+ $opt} $integ${SPEEDS:+ v $v}" "$dt" "$mode" \
              "$(med peer w)" "$(med peer c)" "$(med self w)" "$(med self c)" | tee -a "$TMP/peer"
            continue
          fi
          # shellcheck disable=SC2086
          /usr/bin/time -f '%e %U %S' -o "$TMP/t" timeout "$LIMIT" "$X" engine --code "$code" --model "$model" $opt \
            --integrator "$integ" --dt "$dt" --v "$v" --mass 0.001309 --radius 0.005 $reqs $extra >"$out" 2>&1 && rc=0 || rc=$?
          read -r w u s <"$TMP/t" || true
          [ "$rc" = 124 ] && w=$LIMIT
          printf '%-62s %-8s %-7s %9.0f %9.0f %s\n' "$code '$model'${opt:+ $opt} $integ${SPEEDS:+ v $v}" "$dt" "$mode" "$(awk -v a="${w:-0}" 'BEGIN{print 1e3*a}')" \
            "$(awk -v a="${u:-0}" -v b="${s:-0}" 'BEGIN{print 1e3*(a+b)}')" "$rc$([ "$rc" = 124 ] && echo ' (stopped)')" | tee -a "$TMP/all"
        done
        done
      done
    done
  done <"$TMP/models"
done
if [ -n "${PEER:-}" ]; then
  # columns from the end: the peer's wall and CPU ms, this build's wall and CPU ms
  awk '{pw += $(NF - 3); pc += $(NF - 2); w += $(NF - 1); c += $NF; n++
        if ($(NF - 3) > 50) po++; if ($(NF - 1) > 50) o++; if ($(NF - 3) > pm) pm = $(NF - 3); if ($(NF - 1) > m) m = $(NF - 1) }
       END { printf "answers: %d; peer: wall %.1f s, CPU %.1f s, %d over 50 ms wall, slowest %g ms; this build: wall %.1f s, CPU %.1f s, %d over 50 ms wall, slowest %g ms\n",
             n, pw / 1e3, pc / 1e3, po, pm, w / 1e3, c / 1e3, o, m }' "$TMP/peer"
  exit 0
fi
if [ -n "${GRAVITY:-}" ]; then # the models that refuse gravity: out of the totals
  awk '$NF != 2' "$TMP/all" >"$TMP/all2" && echo "refused gravity (exit 2): $(($(wc -l <"$TMP/all") - $(wc -l <"$TMP/all2")))"
  mv "$TMP/all2" "$TMP/all"
fi
# columns from the end: wall ms, CPU ms, exit (and "(stopped)")
echo "slowest answer (wall):"
awk '{n = NF; if ($n == "(stopped)") n--; print $(n - 2) "\t" $0}' "$TMP/all" | sort -g -r | head -1 | cut -f2-
echo "slowest answer (CPU):"
awk '{n = NF; if ($n == "(stopped)") n--; print $(n - 1) "\t" $0}' "$TMP/all" | sort -g -r | head -1 | cut -f2-
echo "answers: $(wc -l <"$TMP/all"), over 50 ms wall: $(awk '{n = NF; if ($n == "(stopped)") n--; if ($(n - 2) > 50) c++} END {print c + 0}' "$TMP/all")"
