#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pip: the README's one-liner, `python3 -m venv --system-site-packages venv && venv/bin/pip install .`, as
# README.md has it, offline, with python3 being each of three Pythons:
#   - Debian's python3 with its site-packages (NumPy from the system): import from another directory,
#     the CLI's numbers to the last digit, arrays, `pip uninstall` removes every file, `pip wheel`;
#   - Debian's python3 in a bare venv (no system site-packages: no wheel, no setuptools beyond pip's,
#     no NumPy): installs, gives the numbers, and an array argument says how to get NumPy;
#   - a Python that is not Debian's (pyenv's, or `python3` on PATH when it is not /usr/bin/python3),
#     which has pip but no `wheel`: the case that failed with "invalid command 'bdist_wheel'" while the
#     package was built with setuptools (python/build_backend/ now builds the wheel itself). Without
#     such a Python on the machine that case says SKIP.
# The build (build-pip/ in the copy of the source) is reused by the later installs: only the extension
# is built again for another interpreter.
# usage: test_pip.sh SOURCE_DIR CLI WORK_DIR   (CMAKE_BUILD_PARALLEL_LEVEL: build jobs, default 2)
set -eu
SRC=$(cd "${1:?usage: test_pip.sh SOURCE_DIR CLI WORK_DIR}" && pwd)
CLI=$(realpath "${2:?}")
WORK=${3:?}
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 # offline, as the machines of the project are
PY=/usr/bin/python3
"$PY" -c "import venv, ensurepip" 2>/dev/null || {
  echo "test_pip: SKIP: python3-venv missing (bash scripts/deps.sh python)"
  exit 77
}
rm -rf "$WORK"
mkdir -p "$WORK"
fail=0
ok() { echo "ok: $*"; }
bad() {
  echo "FAIL: $*"
  fail=$((fail + 1))
}

# a copy of the source (pip builds in the tree it is given; the checkout stays clean)
mkdir -p "$WORK/src"
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$SRC" && git ls-files -z | xargs -0 cp --parents -t "$WORK/src")
else
  tar -C "$SRC" --exclude='./build*' --exclude=./reports -cf - . | tar -C "$WORK/src" -xf -
fi
want_version=$(sed -n 's/^project(impactfit VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
cli_copt=$("$CLI" copt --n 1.5 --e 0.7 --k 1e8 --mass 0.05 --v 2 --json | sed -n 's/.*"c_opt":\([-0-9.eE+]*\).*/\1/p')
mkdir -p "$WORK/elsewhere"

# the README's line, as typed (its venv renamed per case)
readme_pip=$(sed -n 's/^    \(python3 -m venv .* && venv\/bin\/pip install \.\) .*/\1/p' "$SRC/README.md" | head -n 1)
[ -n "$readme_pip" ] || {
  echo "FAIL: no pip one-liner in README.md"
  exit 1
}
# install_in NAME PYTHON [VENV OPTIONS]: the README's line with that interpreter as python3 (with VENV
# OPTIONS: the same two steps with those options instead); sets V (the venv's bin)
install_in() {
  local name=$1 py=$2 line
  shift 2
  V=$WORK/$name/bin
  mkdir -p "$WORK/$name.shim"
  ln -sf "$py" "$WORK/$name.shim/python3"
  if [ $# = 0 ]; then
    line=$(sed "s| venv \&\& venv/| $WORK/$name \&\& $WORK/$name/|" <<<"$readme_pip")
    [ "$line" != "$readme_pip" ] || {
      bad "$name: the README's line has no 'venv && venv/' to rename: $readme_pip"
      return 1
    }
  else
    line="python3 -m venv $* $WORK/$name && $WORK/$name/bin/pip install ."
  fi
  if (cd "$WORK/src" && PATH="$WORK/$name.shim:$PATH" PIP_NO_CACHE_DIR=1 bash -c "$line") >"$WORK/$name.log" 2>&1; then
    ok "$name: pip install . ($("$V/python" -c 'import sys; print(sys.version.split()[0])'))"
  else
    tail -n 40 "$WORK/$name.log"
    bad "$name: pip install ."
    return 1
  fi
  local got where py_copt
  cd "$WORK/elsewhere"
  got=$("$V/python" -c "import impactfit; print(impactfit.__version__)")
  [ "$got" = "$want_version" ] && ok "$name: version $got (CMakeLists.txt)" ||
    bad "$name: version '$got', CMakeLists.txt says $want_version"
  where=$("$V/python" -c "import impactfit; print(impactfit.__file__)")
  case "$where" in "$WORK/$name/"*) ok "$name: imported from the environment" ;; *) bad "$name: imported from $where" ;; esac
  py_copt=$("$V/python" -c "import impactfit; print(repr(impactfit.copt(1.5, 0.7, 1e8, 0.05, 2)))")
  [ "$("$PY" -c "print(float('$cli_copt') == float('$py_copt'))")" = True ] && ok "$name: copt $py_copt = CLI" ||
    bad "$name: copt $py_copt, CLI $cli_copt"
  cd /
}

# 1. Debian's python3 with the system's NumPy
if install_in system "$PY"; then
  cd "$WORK/elsewhere"
  cli=$("$CLI" engine --code mujoco --e 0.5 --v 1 --mass 0.001309 --radius 0.005 --json | "$PY" -c "import json,sys; print(repr(json.load(sys.stdin)['value']))")
  py=$("$V/python" -c "import impactfit; print(repr(impactfit.engine('mujoco', e=0.5, v=1.0, mass=0.001309, radius=0.005)['value']))")
  [ "$cli" = "$py" ] && ok "engine: $py = CLI" || bad "engine: $py, CLI $cli"
  "$V/python" -c "import impactfit, numpy; r = impactfit.copt(1.5, numpy.array([0.3, 0.7])); assert r.shape == (2,)" &&
    ok "arrays through the system's NumPy" || bad "arrays"
  # uninstall: nothing of it is left in the environment
  "$V/pip" uninstall -y impactfit >"$WORK/un.log" 2>&1 && ok "pip uninstall" || {
    cat "$WORK/un.log"
    bad "pip uninstall"
  }
  left=$(find "$WORK/system/lib" -iname '*impactfit*' | head -n 5)
  [ -z "$left" ] && ok "nothing of impactfit left in the environment" || bad "left after uninstall: $left"
  if "$V/python" -c "import impactfit" 2>/dev/null; then bad "import impactfit still works after uninstall"; else ok "import fails after uninstall"; fi
  # a wheel
  if "$V/pip" wheel --no-deps -w "$WORK/wheels" "$WORK/src" >"$WORK/wheel.log" 2>&1 &&
    ls "$WORK/wheels"/impactfit-"$want_version"-*.whl >/dev/null 2>&1; then
    ok "pip wheel: $(basename "$(ls "$WORK/wheels"/*.whl)")"
  else
    tail -n 20 "$WORK/wheel.log"
    bad "pip wheel"
  fi
  cd /
fi

# 2. Debian's python3, a bare venv: no NumPy, and the array error says how to get it
if install_in bare "$PY" --clear; then
  msg=$(cd "$WORK/elsewhere" && "$V/python" -c "import impactfit; impactfit.copt(1.5, [0.3, 0.7])" 2>&1 | tail -n 1)
  case $msg in
  *"need NumPy"*"$WORK/bare/bin/python"*"-m pip install numpy"*) ok "bare venv: the array error says: $msg" ;;
  *) bad "bare venv: the array error says: $msg" ;;
  esac
fi

# 3. a Python that is not Debian's, without `wheel`
other=""
for cand in "$(command -v python3 2>/dev/null)" "$HOME"/.pyenv/versions/3.*/bin/python3; do
  [ -x "$cand" ] || continue
  real=$(realpath "$cand")
  case $real in /usr/bin/* | /bin/*) continue ;; esac
  # a pyenv shim runs the selected version; take the interpreter itself
  real=$("$cand" -c "import sys; print(sys.executable)" 2>/dev/null) || continue
  "$real" -c "import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 9) else 1)" 2>/dev/null || continue
  other=$real
  break
done
if [ -n "$other" ]; then
  "$other" -c "import wheel" 2>/dev/null && echo "note: $other has wheel in its site-packages; its venv does not"
  install_in other "$other" || true
else
  echo "test_pip: SKIP: the case of a Python that is not Debian's (none on this machine: pyenv, conda, a source build)"
fi
cd /
[ "$fail" = 0 ] && {
  echo "test_pip: pip install works from Debian's python3 (with and without its site-packages) and ${other:-no other Python}"
  rm -rf "$WORK"
}
[ "$fail" = 0 ]
