#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package (issue 27): cpack -G DEB in a build configured for /usr, then
#   - its Depends are computed (dpkg-shlibdeps, and python3 from the interpreter) and every one is
#     satisfiable here (apt-get install --simulate of the .deb);
#   - it holds the program, the man pages, libimpactfit.so.0 with its soname, the headers, the CMake
#     package and pkg-config files, the Python module in Debian's layout (/usr/lib/python3/dist-packages)
#     and the Octave functions;
#   - installed with dpkg into a throw-away root (dpkg --root, the maintainer scripts run outside it
#     with DPKG_ROOT set): `impactfit copt`, `python3 -c 'import impactfit'`, the Octave function, a C
#     program built with pkg-config and one built with find_package give the same c_opt to the last digit;
#   - removed with dpkg (after Python wrote its byte-code caches), nothing of it is left in the root.
# usage: test_deb.sh SOURCE_DIR WORK_DIR   (JOBS: build jobs, default 2)
set -eu
SRC=$(cd "${1:?usage: test_deb.sh SOURCE_DIR WORK_DIR}" && pwd)
WORK=${2:?}
JOBS=${JOBS:-2}
rm -rf "$WORK"
mkdir -p "$WORK"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
for t in dpkg dpkg-deb cpack apt-get; do
  command -v "$t" >/dev/null || { echo "test_deb: SKIP: $t not found (Debian only)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "test_deb: SKIP: dpkg --root needs root"; exit 77; }

B="$WORK/build"
if ! cmake -S "$SRC" -B "$B" -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_BUILD_TYPE=Release -DIMPACTFIT_BUILD_TESTS=OFF -DIMPACTFIT_BENCH=OFF \
     -DIMPACTFIT_PYTHON=ON -DIMPACTFIT_OCTAVE=AUTO >"$WORK/build.log" 2>&1 ||
   ! cmake --build "$B" --parallel "$JOBS" >>"$WORK/build.log" 2>&1 ||
   ! (cd "$B" && cpack -G DEB >>"$WORK/build.log" 2>&1); then
  tail -n 40 "$WORK/build.log"; echo "FAIL: build or cpack"; exit 1
fi
deb=$(ls "$B"/impactfit_*_*.deb)
echo "package: $deb"

# dependencies: computed, and satisfiable here
deps=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $deps"
for want in libgsl libnlopt libgomp libc6 python3; do
  case "$deps" in *"$want"*) ok "Depends names $want" ;; *) bad "Depends lacks $want" ;; esac
done
if apt-get install --simulate "$deb" >"$WORK/sim.log" 2>&1; then ok "apt-get --simulate: the dependencies resolve"
else tail -n 20 "$WORK/sim.log"; bad "apt-get install --simulate"; fi

# contents
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$WORK/files"
for m in impactfit impactfit-copt impactfit-engine; do
  if grep -qx -- "/usr/share/man/man1/$m.1\(.gz\)\?" "$WORK/files"; then ok "man page $m(1)"; else bad "no man page $m(1)"; fi
done
for f in /usr/bin/impactfit /usr/include/impactfit/impactfit.h /usr/lib/x86_64-linux-gnu/cmake/impactfit/impactfitConfig.cmake \
  /usr/lib/x86_64-linux-gnu/pkgconfig/impactfit.pc /usr/lib/python3/dist-packages/impactfit/__init__.py; do
  if grep -qx -- "$f" "$WORK/files"; then ok "contains $f"; else bad "no $f in the package"; fi
done
grep -q '^/usr/lib/python3/dist-packages/impactfit/_impactfit.*\.so$' "$WORK/files" && ok "the extension module" ||
  bad "no extension module"
so=$(grep '/usr/lib/x86_64-linux-gnu/libimpactfit\.so\.[0-9]*\.[0-9]*\.[0-9]*$' "$WORK/files" | head -n 1)
[ -n "$so" ] && ok "library $so" || bad "no versioned libimpactfit.so"

# install into a throw-away root
R="$WORK/root"
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers" "$R/usr/bin"
: >"$R/var/lib/dpkg/status"
if dpkg --root="$R" --force-depends --force-script-chrootless -i "$deb" >"$WORK/dpkg.log" 2>&1; then
  ok "dpkg --root -i"
else
  cat "$WORK/dpkg.log"; bad "dpkg --root -i"; exit 1
fi
LIB="$R/usr/lib/x86_64-linux-gnu"
ARGS=(--n 1.5 --e 0.7 --k 1e9 --mass 0.5 --v 2)
cli=$("$R/usr/bin/impactfit" copt "${ARGS[@]}" --json | sed -n 's/.*"c_opt":\([-0-9.eE+]*\).*/\1/p')
[ -n "$cli" ] && ok "impactfit copt: c_opt $cli" || bad "impactfit copt from the package"
objdump -p "$R/usr/bin/impactfit" | grep -q 'NEEDED *libimpactfit.so.0' && ok "the program links libimpactfit.so.0" ||
  bad "the program does not link the soname libimpactfit.so.0"
py=$(cd "$WORK" && env -u PYTHONDONTWRITEBYTECODE PYTHONPATH="$R/usr/lib/python3/dist-packages" /usr/bin/python3 -c \
  "import impactfit; print(repr(impactfit.copt(1.5, 0.7, 1e9, 0.5, 2)))" 2>&1) || true
pyr=$(python3 -c "print(repr(float('$cli')))" 2>/dev/null || echo none)
# the same double? (the CLI prints the shortest text that reads back to it, C's %.17g may print more digits)
same_double() { python3 -c "import sys; sys.exit(0 if float('$1') == float('$2') else 1)" 2>/dev/null; }
[ "$py" = "$pyr" ] && ok "python3 -c 'import impactfit': $py" || bad "Python from the package: '$py', the CLI says $pyr"
if command -v octave-cli >/dev/null && [ -d "$R/usr/share/impactfit/octave" ]; then
  oc=$(cd "$WORK" && octave-cli --no-history --no-window-system --eval \
    "addpath('$R/usr/share/impactfit/octave'); printf('%.17g\n', impactfit_copt(1.5, 0.7, 1e9, 0.5, 2))" 2>/dev/null | tail -n 1)
  same_double "$oc" "$cli" && ok "Octave: $oc" || bad "Octave from the package: '$oc'"
fi
# a C program with pkg-config, one with find_package
# shellcheck disable=SC2046
if cc -std=c11 "$SRC/tests/consumer/consumer.c" -o "$WORK/pc" \
     $(PKG_CONFIG_PATH="$LIB/pkgconfig" pkg-config --cflags --libs impactfit) -lm; then
  got=$(LD_LIBRARY_PATH="$LIB" "$WORK/pc" 1.5 0.7 1e9 0.5 2 | sed -n 's/^c_opt //p')
  same_double "$got" "$cli" && ok "pkg-config consumer: $got" || bad "pkg-config consumer: '$got'"
else bad "pkg-config consumer build"; fi
if cmake -S "$SRC/tests/consumer" -B "$WORK/fp" -DCMAKE_PREFIX_PATH="$R/usr" >"$WORK/fp.log" 2>&1 &&
   cmake --build "$WORK/fp" --target consumer >>"$WORK/fp.log" 2>&1; then
  got=$(LD_LIBRARY_PATH="$LIB" "$WORK/fp/consumer" 1.5 0.7 1e9 0.5 2 | sed -n 's/^c_opt //p')
  same_double "$got" "$cli" && ok "find_package consumer: $got" || bad "find_package consumer: '$got'"
else tail -n 20 "$WORK/fp.log"; bad "find_package consumer build"; fi

# remove: nothing of the package is left (Python's caches included)
find "$R/usr/lib/python3/dist-packages/impactfit" -name __pycache__ | grep -q . && ok "Python wrote its caches" ||
  bad "no __pycache__ was written (the removal check would prove nothing)"
if dpkg --root="$R" --force-depends --force-script-chrootless --purge impactfit >"$WORK/rm.log" 2>&1; then
  ok "dpkg --purge"
else cat "$WORK/rm.log"; bad "dpkg --purge"; fi
left=$(find "$R/usr" -mindepth 1 \( -type f -o -type l \) | head -n 20)
[ -z "$left" ] && ok "nothing left under the root's /usr" || bad "left after removal: $left"
leftd=$(find "$R/usr" -mindepth 1 -type d -path '*impactfit*' | head -n 5)
[ -z "$leftd" ] && ok "no impactfit folders left" || bad "folders left: $leftd"

[ "$fail" = 0 ] && { echo "test_deb: the Debian package installs, works and removes cleanly"; rm -rf "$WORK"; }
[ "$fail" = 0 ]
