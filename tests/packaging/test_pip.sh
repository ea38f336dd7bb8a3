#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pip (issue 27): in a virtual environment made with --system-site-packages (Debian 12 refuses pip
# outside one; NumPy comes from the system), `pip install --no-build-isolation --no-index SOURCE` builds
# the package offline with Debian's setuptools (pyproject.toml, setup.py), `import impactfit` works from
# another directory and gives the CLI's numbers to the last digit, the version is CMakeLists.txt's, and
# `pip uninstall` removes every file it installed. `pip wheel` makes the same package as a wheel.
# usage: test_pip.sh SOURCE_DIR CLI WORK_DIR   (CMAKE_BUILD_PARALLEL_LEVEL: build jobs, default 2)
set -eu
SRC=$(cd "${1:?usage: test_pip.sh SOURCE_DIR CLI WORK_DIR}" && pwd)
CLI=$(realpath "${2:?}")
WORK=${3:?}
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
PY=/usr/bin/python3
"$PY" -c "import venv, setuptools" 2>/dev/null || { echo "test_pip: SKIP: python3-venv or python3-setuptools missing (bash scripts/deps.sh python)"; exit 77; }
rm -rf "$WORK"
mkdir -p "$WORK"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# a copy of the source (pip builds in the tree it is given; the checkout stays clean)
mkdir -p "$WORK/src"
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$SRC" && git ls-files -z | xargs -0 cp --parents -t "$WORK/src")
else
  tar -C "$SRC" --exclude='./build*' --exclude=./reports -cf - . | tar -C "$WORK/src" -xf -
fi
"$PY" -m venv --system-site-packages "$WORK/venv"
V="$WORK/venv/bin"
if "$V/pip" install --no-build-isolation --no-index --no-cache-dir "$WORK/src" >"$WORK/pip.log" 2>&1; then
  ok "pip install --no-build-isolation --no-index ."
else
  tail -n 40 "$WORK/pip.log"; bad "pip install"; exit 1
fi
want_version=$(sed -n 's/^project(impactfit VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
mkdir -p "$WORK/elsewhere"
cd "$WORK/elsewhere"
got=$("$V/python" -c "import impactfit; print(impactfit.__version__)")
[ "$got" = "$want_version" ] && ok "version $got (CMakeLists.txt)" || bad "version '$got', CMakeLists.txt says $want_version"
where=$("$V/python" -c "import impactfit; print(impactfit.__file__)")
case "$where" in "$WORK/venv/"*) ok "imported from the environment: $where" ;; *) bad "imported from $where" ;; esac
# the CLI's numbers to the last digit
cli=$("$CLI" copt --n 1.5 --e 0.7 --k 1e8 --mass 0.05 --v 2 --json | sed -n 's/.*"c_opt":\([-0-9.eE+]*\).*/\1/p')
py=$("$V/python" -c "import impactfit; print(repr(impactfit.copt(1.5, 0.7, 1e8, 0.05, 2)))")
[ "$("$PY" -c "print(float('$cli') == float('$py'))")" = True ] && ok "copt: $py = CLI $cli" || bad "copt: $py, CLI $cli"
cli=$("$CLI" engine --code mujoco --e 0.5 --v 1 --mass 0.001309 --radius 0.005 --json | "$PY" -c "import json,sys; print(repr(json.load(sys.stdin)['value']))")
py=$("$V/python" -c "import impactfit; print(repr(impactfit.engine('mujoco', e=0.5, v=1.0, mass=0.001309, radius=0.005)['value']))")
[ "$cli" = "$py" ] && ok "engine: $py = CLI" || bad "engine: $py, CLI $cli"
"$V/python" -c "import impactfit, numpy; r = impactfit.copt(1.5, numpy.array([0.3, 0.7])); assert r.shape == (2,)" &&
  ok "arrays through the system's NumPy" || bad "arrays"
# uninstall: nothing of it is left in the environment
"$V/pip" uninstall -y impactfit >"$WORK/un.log" 2>&1 && ok "pip uninstall" || { cat "$WORK/un.log"; bad "pip uninstall"; }
left=$(find "$WORK/venv/lib" -iname '*impactfit*' | head -n 5)
[ -z "$left" ] && ok "nothing of impactfit left in the environment" || bad "left after uninstall: $left"
if "$V/python" -c "import impactfit" 2>/dev/null; then bad "import impactfit still works after uninstall"; else ok "import fails after uninstall"; fi
# a wheel
if "$V/pip" wheel --no-build-isolation --no-index --no-deps -w "$WORK/wheels" "$WORK/src" >"$WORK/wheel.log" 2>&1 &&
   ls "$WORK/wheels"/impactfit-"$want_version"-*.whl >/dev/null 2>&1; then
  ok "pip wheel: $(basename "$(ls "$WORK/wheels"/*.whl)")"
else
  tail -n 20 "$WORK/wheel.log"; bad "pip wheel"
fi
cd /
[ "$fail" = 0 ] && { echo "test_pip: pip install, import, uninstall and wheel work"; rm -rf "$WORK"; }
[ "$fail" = 0 ]
