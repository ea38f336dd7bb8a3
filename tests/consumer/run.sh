#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The ways a program can use impactfit, each built and run against the CLI's c_opt:
#   1. the shared install of BUILD_DIR (cmake --install to a temporary prefix):
#      find_package from a C project and from a C++-only project; pkg-config from C and C++
#   2. a static-only install (-DBUILD_SHARED_LIBS=OFF, built here): find_package from C and C++-only
#      projects, pkg-config --static from C and C++
#   3. add_subdirectory of SOURCE_DIR from a C project and from a C++-only project
# None of the consumers uses OpenMP: no OpenMP flag may appear on their compile lines. Each prints
# c_opt with %.17g, which must equal the installed CLI's `impactfit copt ... --json` to the last digit.
# usage: run.sh BUILD_DIR SOURCE_DIR   (JOBS: parallel build jobs, default 2)
set -eu
BUILD=${1:?usage: run.sh BUILD_DIR SOURCE_DIR}
SRC=${2:?}
JOBS=${JOBS:-2}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
ARGS=(1.5 0.7 1e9 0.5 2) # n e k mass v

cmake --install "$BUILD" --prefix "$TMP/prefix" >/dev/null
test -x "$TMP/prefix/bin/impactfit"
"$TMP/prefix/bin/impactfit" --version
cli=$("$TMP/prefix/bin/impactfit" copt --n "${ARGS[0]}" --e "${ARGS[1]}" --k "${ARGS[2]}" --mass "${ARGS[3]}" \
  --v "${ARGS[4]}" --json | sed -n 's/.*"c_opt":\([-0-9.eE+]*\).*/\1/p')
[ -n "$cli" ] || { echo "FAIL: no c_opt from impactfit copt --json"; exit 1; }
echo "CLI: c_opt $cli"

# an installed impactfit checks without the repository: its data are in PREFIX/share/impactfit
if (cd "$TMP" && "$TMP/prefix/bin/impactfit" check --topic hc-formulas >"$TMP/check.out" 2>&1); then
  echo "ok: installed 'impactfit check --topic hc-formulas' from outside the repository"
else
  echo "FAIL: installed impactfit check:"; cat "$TMP/check.out"; fail=$((fail + 1))
fi
if (cd "$TMP" && "$TMP/prefix/bin/impactfit" check --src "$TMP/nothing" >/dev/null 2>"$TMP/check.err") ||
  ! grep -q -- '--src' "$TMP/check.err"; then
  echo "FAIL: check --src without data: $(cat "$TMP/check.err")"; fail=$((fail + 1))
else
  echo "ok: check --src DIR without sweeps/ names --src"
fi

# check NAME PROGRAM [ENV...]: runs the consumer, compares its c_opt with the CLI's
check() {
  local name=$1 prog=$2 out got
  shift 2
  if ! out=$(env "$@" "$prog" "${ARGS[@]}" 2>&1); then
    echo "FAIL: $name: the consumer failed:"; printf '%s\n' "$out"; fail=$((fail + 1)); return
  fi
  got=$(printf '%s\n' "$out" | sed -n 's/^c_opt //p')
  # the same double: the CLI prints the shortest text that reads back to it, the consumer %.17g
  if [ -n "$got" ] && python3 -c 'import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))' "$got" "$cli"; then
    echo "ok: $name: c_opt $got"
  else
    echo "FAIL: $name: c_opt '$got', the CLI says $cli"; fail=$((fail + 1))
  fi
}

# cmake_consumer NAME LANG MODE [CMAKE ARGS...]: configures and builds tests/consumer, checks that
# no OpenMP flag reached the compile lines, runs it
cmake_consumer() {
  local name=$1 lang=$2 mode=$3 dir="$TMP/c_$1"
  shift 3
  if ! cmake -S "$SRC/tests/consumer" -B "$dir" -DCONSUMER_LANG="$lang" -DCONSUMER_MODE="$mode" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@" >"$dir.log" 2>&1 ||
    ! cmake --build "$dir" --target consumer --parallel "$JOBS" >>"$dir.log" 2>&1; then
    echo "FAIL: $name: configure or build failed:"; tail -n 30 "$dir.log"; fail=$((fail + 1)); return
  fi
  if ! grep '"command"' "$dir/compile_commands.json" | grep -q 'consumer\.c\(pp\)\?\.o'; then
    echo "FAIL: $name: no compile line of the consumer in compile_commands.json"; fail=$((fail + 1))
  elif grep '"command"' "$dir/compile_commands.json" | grep 'consumer\.c\(pp\)\?\.o' | grep -q -- 'openmp'; then
    echo "FAIL: $name: OpenMP flags on the consumer's compile line"; fail=$((fail + 1))
  fi
  check "$name" "$dir/consumer" LD_LIBRARY_PATH="${LIBPATH:-}"
}

# 1. the shared install
LIBPATH=$(dirname "$(find "$TMP/prefix" -name 'libimpactfit.so' | head -n 1)")
cmake_consumer find_package_c C package -DCMAKE_PREFIX_PATH="$TMP/prefix"
cmake_consumer find_package_cxx CXX package -DCMAKE_PREFIX_PATH="$TMP/prefix"
PC=$(dirname "$(find "$TMP/prefix" -name impactfit.pc | head -n 1)")
# shellcheck disable=SC2046
if cc -std=c11 "$SRC/tests/consumer/consumer.c" -o "$TMP/pc_c" $(PKG_CONFIG_PATH="$PC" pkg-config --cflags --libs impactfit) -lm &&
  c++ -std=c++11 "$SRC/tests/consumer/consumer.cpp" -o "$TMP/pc_cxx" $(PKG_CONFIG_PATH="$PC" pkg-config --cflags --libs impactfit); then
  # no LD_LIBRARY_PATH: the pkg-config file's run path finds the library of a prefix outside the system's
  check pkg-config_c "$TMP/pc_c" LD_LIBRARY_PATH=
  check pkg-config_cxx "$TMP/pc_cxx" LD_LIBRARY_PATH=
else
  echo "FAIL: pkg-config builds"; fail=$((fail + 1))
fi

# 2. a static-only install: the library and the CLI of SOURCE_DIR with -DBUILD_SHARED_LIBS=OFF
# (build type None: no optimisation flags, the quickest build; the results are the same doubles, which check
# compares to the last digit)
if cmake -S "$SRC" -B "$TMP/static" -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=OFF -DIMPACTFIT_BUILD_TESTS=OFF \
     -DIMPACTFIT_PYTHON=OFF -DIMPACTFIT_OCTAVE=OFF >"$TMP/static.log" 2>&1 &&
  cmake --build "$TMP/static" --target impactfit impactfit_cli --parallel "$JOBS" >>"$TMP/static.log" 2>&1 &&
  cmake --install "$TMP/static" --prefix "$TMP/sprefix" >>"$TMP/static.log" 2>&1; then
  if find "$TMP/sprefix" -name 'libimpactfit.so*' | grep -q .; then
    echo "FAIL: the static install has a shared library"; fail=$((fail + 1))
  fi
  LIBPATH="" cmake_consumer static_find_package_c C package -DCMAKE_PREFIX_PATH="$TMP/sprefix"
  LIBPATH="" cmake_consumer static_find_package_cxx CXX package -DCMAKE_PREFIX_PATH="$TMP/sprefix"
  SPC=$(dirname "$(find "$TMP/sprefix" -name impactfit.pc | head -n 1)")
  # shellcheck disable=SC2046
  if cc -std=c11 "$SRC/tests/consumer/consumer.c" -o "$TMP/spc_c" $(PKG_CONFIG_PATH="$SPC" pkg-config --static --cflags --libs impactfit) -lm &&
    c++ -std=c++11 "$SRC/tests/consumer/consumer.cpp" -o "$TMP/spc_cxx" $(PKG_CONFIG_PATH="$SPC" pkg-config --static --cflags --libs impactfit); then
    check pkg-config_static_c "$TMP/spc_c"
    check pkg-config_static_cxx "$TMP/spc_cxx"
  else
    echo "FAIL: pkg-config --static builds"; fail=$((fail + 1))
  fi
else
  echo "FAIL: the static build or install:"; tail -n 30 "$TMP/static.log"; fail=$((fail + 1))
fi

# 3. add_subdirectory of the source tree (the consumer builds the library itself)
LIBPATH="" cmake_consumer subdirectory_c C subdirectory -DIMPACTFIT_SOURCE_DIR="$SRC" -DCMAKE_BUILD_TYPE=None
LIBPATH="" cmake_consumer subdirectory_cxx CXX subdirectory -DIMPACTFIT_SOURCE_DIR="$SRC" -DCMAKE_BUILD_TYPE=None

if [ "$fail" -ne 0 ]; then
  echo "consumer: $fail failure(s)"
  exit 1
fi
echo "consumer: find_package (C, C++), pkg-config (shared, --static), static install, add_subdirectory (C, C++): all give the CLI's c_opt"
