#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The bindings as `cmake --install` lays them out: installs BUILD_DIR into a temporary prefix, then
# imports the Python package and calls a MEX function from there (not from the build tree), and checks
# that both give the value of the build tree's CLI. A binding BUILD_DIR did not build is reported as
# skipped. usage: scripts/test_bindings_install.sh BUILD_DIR
set -eu
build=${1:?usage: scripts/test_bindings_install.sh BUILD_DIR}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
# the CLI prints the shortest text of the double; both bindings print 17 digits of it (awk reads a double)
want=$("$build/src/cli/impactfit" copt --n 1.5 --e 0.7 --k 1e8 --mass 0.05 --v 2 --csv | awk -F, 'NR == 2 { printf "%.17g", $3 }')
fail=0
pydir=$(cache IMPACTFIT_PYTHON_INSTALL_DIR)
if [ -n "$pydir" ]; then
  case $pydir in /*) ;; *) pydir=$prefix/$pydir ;; esac
  py=$(cache Python3_EXECUTABLE)
  got=$(cd / && PYTHONPATH="$pydir" "$py" -c "import impactfit; print('%.17g' % impactfit.copt(n=1.5, e=0.7, k=1e8, mass=0.05, v=2)); assert impactfit.__file__.startswith('$prefix')") || got="(the import or call failed)"
  if [ "$got" = "$want" ]; then echo "python (installed in $pydir): ok, c_opt = $got"; else echo "python: FAIL, $got != $want"; fail=1; fi
else
  echo "python: skipped (the package was not built in $build)"
fi
octdir=$(cache IMPACTFIT_OCTAVE_INSTALL_DIR)
if [ -n "$octdir" ] && command -v octave-cli >/dev/null; then
  case $octdir in /*) ;; *) octdir=$prefix/$octdir ;; esac
  got=$(cd / && octave-cli --norc --quiet --eval "addpath('$octdir'); assert(strncmp(which('impactfit_copt'), '$prefix', numel('$prefix'))); printf('%.17g\n', impactfit_copt(1.5, 0.7, 1e8, 0.05, 2))" 2>/dev/null) || got="(the call failed)"
  if [ "$got" = "$want" ]; then echo "octave (installed in $octdir): ok, c_opt = $got"; else echo "octave: FAIL, '$got' != $want"; fail=1; fi
else
  echo "octave: skipped (the MEX functions were not built in $build, or no octave-cli)"
fi
exit $fail
