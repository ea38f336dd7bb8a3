#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One rule per class, tested once for every command (issue 28 item 3):
#  1. every grid command (copt, zhang-alpha, simulate, hc-eps, impact-time, identify-hc, dem) takes a
#     list and prints text, --csv and --json, and echoes every number the user typed exactly as typed
#     (the shortest text of the same double) in the three formats;
#  2. a partial set of unit options (--k --mass --v; hc-eps: --k --v) is refused with the same
#     message by every command that has one, in the CLI, in Python and in Octave.
# usage: test_front_ends.sh path/to/impactfit PYTHON|- PYTHONPATH OCTAVE_CLI|- OCTAVE_PATH
set -u
BIN=${1:?usage: test_front_ends.sh BIN PYTHON PYTHONPATH OCTAVE_CLI OCTAVE_PATH}
PY=${2:--}
PYPATH=${3:-}
OCT=${4:--}
OCTPATH=${5:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
ko() {
  echo "FAIL: $*"
  fail=$((fail + 1))
}

# ---- 1. output options and numbers as typed ----
# Each command with inputs that %.4g, %.6g or %.17g would print otherwise; TYPED lists the numbers
# whose exact text must come back (a field of the text row, a CSV field, a JSON value).
declare -A ARGS TYPED
ARGS[copt]="--n 1.23456789,1.5 --e 0.123456789 --k 1e8 --mass 0.05 --v 2"
TYPED[copt]="1.23456789 0.123456789"
ARGS[zhang-alpha]="--n 1.23456789 --m 0.333 --e 0.123456789,0.7"
TYPED[zhang-alpha]="1.23456789 0.333 0.123456789"
ARGS[simulate]="--n 1.23456789 --m 0.1 --c 0.123456789,0.5 --k 12345.678 --mass 0.05 --v 0.3"
TYPED[simulate]="1.23456789 0.123456789 12345.678 0.05 0.3"
ARGS[hc-eps]="--e 0.1,0.123456789 --k 12345.678 --v 0.1"
TYPED[hc-eps]="0.1 0.123456789 12345.678"
ARGS[impact-time]="--eps 0.123456789,0.5 --n 1.23456789 --k 12345.678 --mass 0.05 --v 0.3"
TYPED[impact-time]="0.123456789 1.23456789 12345.678 0.05 0.3"
ARGS[identify-hc]="--e 0.123456789,0.6 --dt 0.00123456789 --v 1.1 --mass 0.05 --n 1.5"
TYPED[identify-hc]="0.123456789 0.00123456789 1.1 0.05"
ARGS[dem]="(below: the model name has a space)"
TYPED[dem]="0.123456789 1.23456789"
for cmd in copt zhang-alpha simulate hc-eps impact-time identify-hc dem; do
  # shellcheck disable=SC2086
  if [ "$cmd" = dem ]; then
    set -- --code lammps --model "granular hertz/material" --damping tsuji --E 1e8 --nu 0.3 --radius 0.005 \
      --density 2500 --e 0.123456789,0.6 --v 1.23456789
  else
    set -- ${ARGS[$cmd]}
  fi
  for fmt in text csv json; do
    extra=()
    [ "$fmt" = csv ] && extra=(--csv)
    [ "$fmt" = json ] && extra=(--json)
    if ! "$BIN" "$cmd" "$@" "${extra[@]}" >"$TMP/out" 2>"$TMP/err"; then
      ko "$cmd ${extra[*]}: exit $?: $(head -c 300 "$TMP/err")"
      continue
    fi
    rows=$(grep -vc '^#' "$TMP/out")
    case $fmt in
      text) [ "$rows" -ge 3 ] || ko "$cmd: expected a header and two rows, got $rows lines" ;;
      csv) [ "$rows" -eq 3 ] && head -n 1 "$TMP/out" | grep -q ',' || ko "$cmd --csv: expected a header and 2 rows" ;;
      json) [ "$rows" -eq 2 ] && grep -q '^{.*}$' "$TMP/out" || ko "$cmd --json: expected 2 objects" ;;
    esac
    for x in ${TYPED[$cmd]}; do
      case $fmt in
        text) grep -v '^#' "$TMP/out" | tr -s ' ' '\n' | grep -qx -- "$x" ;;
        csv) tr ',' '\n' <"$TMP/out" | grep -qx -- "$x" ;;
        json) grep -Eq ":$x[,}]" "$TMP/out" ;;
      esac && ok || ko "$cmd ($fmt): the typed $x is not echoed as typed: $(head -n 3 "$TMP/out")"
    done
    # and never the %.17g spelling of a typed number
    grep -q '0\.12345678899999999\|1\.2345678899999999\|0\.050000000000000003\|0\.10000000000000001' "$TMP/out" &&
      ko "$cmd ($fmt): a typed number printed with 17 digits: $(head -n 3 "$TMP/out")"
    [ "$fmt" = text ] && ok
  done
  # --json and --csv exclude each other in every grid command
  "$BIN" "$cmd" "$@" --json --csv >/dev/null 2>"$TMP/err"
  [ $? = 2 ] && grep -q 'exclude each other' "$TMP/err" && ok || ko "$cmd: --json --csv not refused"
done

# an error message echoes the input as typed (no 0.59999999999999998)
"$BIN" dem --code lammps --model "granular hertz/material" --damping tsuji --E 1e8 --nu 0.6 --radius 0.005 \
  --density 2500 --e 0.5 --v 1 >/dev/null 2>"$TMP/err"
grep -q 'got 0\.6)' "$TMP/err" && ! grep -q '0\.5999' "$TMP/err" && ok || ko "--nu 0.6 not echoed as typed: $(cat "$TMP/err")"

# ---- 2. partial unit sets: one rule, one message, in the three front ends ----
check_cli() { # cmd subset(k,mass,v names given) expected-message base-args...
  local cmd=$1 want=$2
  shift 2
  rc=$("$BIN" "$cmd" "$@" >"$TMP/out" 2>"$TMP/err"; echo $?)
  [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
    grep -qF "impactfit: error: $cmd: $want" "$TMP/err" && ok ||
    ko "$cmd $*: exit $rc, want 2 and '$want': $(cat "$TMP/err")"
}
# every non-empty proper subset of k, mass, v
subsets3=("k" "mass" "v" "k mass" "k v" "mass v")
val() { case $1 in k) echo 1e8 ;; mass) echo 0.05 ;; v) echo 2 ;; esac; }
words() { # "k v" -> "k and v", "k" -> "k"
  local a=($1)
  case ${#a[@]} in 1) echo "${a[0]}" ;; 2) echo "${a[0]} and ${a[1]}" ;; esac
}
for cmd in copt zhang-alpha simulate impact-time; do
  case $cmd in
    copt) base=(--n 1.5 --e 0.5) ;;
    zhang-alpha) base=(--n 1.5 --m 1 --e 0.5) ;;
    simulate) base=(--n 1.5 --c 3) ;;
    impact-time) base=(--eps 0.5 --n 1.5) ;;
  esac
  for sub in "${subsets3[@]}"; do
    args=()
    for u in $sub; do args+=("--$u" "$(val "$u")"); done
    check_cli "$cmd" "give all of --k, --mass and --v, or none (only $(words "$(echo "$sub" | sed 's/\([a-z]*\)/--\1/g')") given)" \
      "${base[@]}" "${args[@]}"
  done
  # none and all are accepted
  "$BIN" "$cmd" "${base[@]}" >/dev/null 2>&1 && ok || ko "$cmd without units"
  "$BIN" "$cmd" "${base[@]}" --k 1e8 --mass 0.05 --v 2 >/dev/null 2>&1 && ok || ko "$cmd with all units"
done
for sub in k v; do
  check_cli hc-eps "give both --k and --v, or neither (only --$sub given)" --e 0.5 "--$sub" "$(val "$sub")"
done

if [ "$PY" != "-" ]; then
  PYTHONPATH=$PYPATH "$PY" - <<'EOF' >"$TMP/py" 2>&1 || ko "python: $(cat "$TMP/py")"
import itertools, impactfit
vals = {"k": 1e8, "mass": 0.05, "v": 2.0}
calls = {
    "copt": lambda **u: impactfit.copt(1.5, 0.5, **u),
    "zhang_alpha": lambda **u: impactfit.zhang_alpha(1.5, 1.0, 0.5, **u),
    "simulate": lambda **u: impactfit.simulate(1.5, 3.0, **u),
    "impact_time": lambda **u: impactfit.impact_time(0.5, 1.5, **u),
    "copt_surrogate": lambda **u: impactfit.copt_surrogate(1.5, 0.5, **u),
    "zhang_surrogate": lambda **u: impactfit.zhang_surrogate(1.5, 1.0, 0.5, **u),
    "dtau_surrogate": lambda **u: impactfit.dtau_surrogate(0.5, 1.5, **u),
}
bad = 0
for name, f in calls.items():
    f()
    f(**vals)
    for r in (1, 2):
        for sub in itertools.combinations(("k", "mass", "v"), r):
            want = "give all of k, mass and v, or none (only %s given)" % " and ".join(sub)
            try:
                f(**{u: vals[u] for u in sub})
                print("%s%s: accepted" % (name, sub)); bad += 1
            except ValueError as e:
                if str(e) != want:
                    print("%s%s: %r, want %r" % (name, sub, str(e), want)); bad += 1
for u in ("k", "v"):
    try:
        impactfit.hc_eps(0.5, **{u: vals[u]}); print("hc_eps(%s): accepted" % u); bad += 1
    except ValueError as e:
        if str(e) != "give both k and v, or neither (only %s given)" % u:
            print("hc_eps(%s): %r" % (u, str(e))); bad += 1
raise SystemExit(bad)
EOF
  ok
else
  echo "front_ends: python: the package was not built, its part not run"
fi

if [ "$OCT" != "-" ]; then
  cat >"$TMP/units.m" <<'EOF'
function bad = units()
  bad = 0;
  % (function, arguments before the units, the part of k, mass, v given: positional)
  cases = {@impactfit_copt, {1.5, 0.5}; @impactfit_zhang_alpha, {1.5, 1, 0.5}};
  for i = 1:rows(cases)
    f = cases{i, 1}; a = cases{i, 2};
    for n = 1:2
      got = {1e8, 0.05, 2};
      try
        f(a{:}, got{1:n});
        printf('%s with %d of k, mass, v: accepted\n', func2str(f), n); bad = bad + 1;
      catch e
        names = {'k', 'mass', 'v'};
        want = sprintf('give all of k, mass and v, or none (only %s given)', strjoin(names(1:n), ' and '));
        if isempty(strfind(e.message, want)) || ~strcmp(e.identifier, 'impactfit:invalidInput')
          printf('%s: %s (%s), want %s\n', func2str(f), e.message, e.identifier, want); bad = bad + 1;
        end
      end
    end
  end
  try
    r = impactfit_simulate(1.5, 3, 0, 1e8);
    printf('impactfit_simulate with k only: accepted\n'); bad = bad + 1;
  catch e
    if isempty(strfind(e.message, 'give all of k, mass and v, or none (only k given)'))
      printf('impactfit_simulate: %s\n', e.message); bad = bad + 1;
    end
  end
  try
    impactfit_hc_eps(0.5, 1e8);
    printf('impactfit_hc_eps with k only: accepted\n'); bad = bad + 1;
  catch e
    if isempty(strfind(e.message, 'give both k and v, or neither (only k given)'))
      printf('impactfit_hc_eps: %s\n', e.message); bad = bad + 1;
    end
  end
  % the function's name once (Octave adds it), not twice
  try
    impactfit_copt(1.5, 0.5, 'methd', 'x');
  catch e
    if ~isempty(strfind(e.message, 'impactfit_copt: impactfit_copt'))
      printf('the function name twice: %s\n', e.message); bad = bad + 1;
    end
  end
end
EOF
  (cd "$TMP" && "$OCT" --no-gui --norc --no-history --quiet -p "$OCTPATH" --eval "exit(units())") >"$TMP/oct" 2>&1
  grep -q 'accepted\|want\|twice\|impactfit_' "$TMP/oct" && ko "octave: $(cat "$TMP/oct")" || ok
else
  echo "front_ends: octave: the MEX functions were not built, its part not run"
fi

echo "test_front_ends: $pass passed, $fail failed"
[ "$fail" = 0 ]
