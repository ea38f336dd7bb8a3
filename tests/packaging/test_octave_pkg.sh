#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Octave's pkg (issue 27): the package archive of the build (target octave-pkg), installed with
# `pkg install` into a throw-away package prefix against the library installed into a throw-away prefix
# (cmake --install; pkg-config finds it), then `pkg load impactfit`: every function gives the CLI's
# numbers to the last digit and has its help text; `pkg uninstall` removes it.
# usage: test_octave_pkg.sh BUILD_DIR CLI WORK_DIR
set -eu
BUILD=$(cd "${1:?usage: test_octave_pkg.sh BUILD_DIR CLI WORK_DIR}" && pwd)
CLI=$(realpath "${2:?}")
WORK=${3:?}
command -v octave-cli >/dev/null && command -v mkoctfile >/dev/null ||
  { echo "test_octave_pkg: SKIP: octave-cli or mkoctfile missing (bash scripts/deps.sh octave)"; exit 77; }
rm -rf "$WORK"
mkdir -p "$WORK/pkg"
cmake --build "$BUILD" --target octave-pkg >"$WORK/archive.log" 2>&1 || { cat "$WORK/archive.log"; exit 1; }
archive=$(ls "$BUILD"/impactfit-*.tar.gz)
# without the C library (pkg-config finds no impactfit.pc): pkg install stops before compiling anything,
# and its first line says why (a parallel make used to bury it under the compiler's errors)
mkdir -p "$WORK/none" "$WORK/pkg0"
(cd "$WORK" && PKG_CONFIG_LIBDIR="$WORK/none" PKG_CONFIG_PATH="$WORK/none" octave-cli --no-history --no-window-system \
  --eval "pkg prefix '$WORK/pkg0' '$WORK/pkg0'; pkg local_list '$WORK/pkg0/list'; pkg install -verbose '$archive'" \
  >"$WORK/nolib.out" 2>&1) && { echo "FAIL: pkg install without the C library succeeded"; exit 1; }
why=$(grep -n -m 1 'the C library is not installed' "$WORK/nolib.out" | cut -d: -f1)
first=$(grep -n -m 1 -i 'error' "$WORK/nolib.out" | cut -d: -f1)
if [ -n "$why" ] && { [ -z "$first" ] || [ "$why" -lt "$first" ]; }; then
  echo "ok: without the C library, pkg install says why before any error: $(sed -n "${why}p" "$WORK/nolib.out")"
else
  echo "FAIL: without the C library, the reason is not the first message"; cat "$WORK/nolib.out"; exit 1
fi
if grep -q 'No such file' "$WORK/nolib.out"; then echo "FAIL: pkg install compiled without the library"; exit 1; fi
cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; exit 1; }
PC=$(dirname "$(find "$WORK/prefix" -name impactfit.pc | head -n 1)")
cli_copt=$("$CLI" copt --n 1.5 --e 0.7 --k 1e8 --mass 0.05 --v 2 --json | sed -n 's/.*"c_opt":\([-0-9.eE+]*\).*/\1/p')
cli_eng=$("$CLI" engine --code mujoco --e 0.5 --v 1 --mass 0.001309 --radius 0.005 --json | sed -n 's/.*"value":\([-0-9.eE+]*\).*/\1/p')
cd "$WORK"
out=$(PKG_CONFIG_PATH="$PC" octave-cli --no-history --no-window-system --eval "
  pkg prefix '$WORK/pkg' '$WORK/pkg'; pkg local_list '$WORK/pkg/list';
  pkg install '$archive'; pkg load impactfit;
  printf('copt %.17g\n', impactfit_copt(1.5, 0.7, 1e8, 0.05, 2));
  r = impactfit_engine('mujoco', 'e', 0.5, 'v', 1, 'mass', 0.001309, 'radius', 0.005); printf('engine %.17g\n', r.value);
  f = {'impactfit_copt', 'impactfit_zhang_alpha', 'impactfit_simulate', 'impactfit_hc_eps', 'impactfit_code', 'impactfit_dem', 'impactfit_engine'};
  for i = 1:numel(f); t = evalc(['help ' f{i}]); printf('help %s %d\n', f{i}, ~isempty(strfind(t, 'Example'))); end
  try; impactfit_copt(1.5, 0.7, 'bogus', 1); catch e; printf('error %s\n', e.identifier); end
  pkg unload impactfit; pkg uninstall impactfit;
  printf('left %d\n', numel(dir('$WORK/pkg')) - 2 - exist('$WORK/pkg/list', 'file') / 2);
" 2>"$WORK/octave.err")
echo "$out"
fail=0
want=$(awk -v x="$cli_copt" 'BEGIN { printf "copt %.17g", x }') # as a double (bash's printf reads a long double)
echo "$out" | grep -qx "$want" || { echo "FAIL: copt from the package, want '$want'"; fail=1; }
want=$(awk -v x="$cli_eng" 'BEGIN { printf "engine %.17g", x }')
echo "$out" | grep -qx "$want" || { echo "FAIL: engine from the package, want '$want'"; fail=1; }
[ "$(echo "$out" | grep -c '^help .* 1$')" = 7 ] || { echo "FAIL: help texts"; fail=1; }
echo "$out" | grep -qx "error impactfit:invalidInput" || { echo "FAIL: the error identifier"; fail=1; }
echo "$out" | grep -qx "left 0" || { echo "FAIL: pkg uninstall left files in $WORK/pkg: $(ls "$WORK/pkg")"; fail=1; }
[ "$fail" = 0 ] || { cat "$WORK/octave.err"; exit 1; }
echo "test_octave_pkg: pkg install, pkg load, the same numbers as the CLI, help texts, pkg uninstall"
rm -rf "$WORK"
