#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The WebAssembly build of impactfit's core (docs/WEB.md): Debian's Emscripten (scripts/deps.sh wasm),
# GSL, NLopt and xxHash built from Debian's own source packages (the versions the native build links),
# cached by version, then the CMake build build-wasm/ (cmake/wasm-toolchain.cmake) and its module.
# (inih's source package is not in the archive here: src/wasm/ini_compat.c stands in for it, checked
# against Debian's libinih by the ctest test_ini_compat.)
# usage: scripts/wasm.sh [deps | build | update | check-deps]
#   deps        builds the three dependencies that are not in the cache yet (apt-get source needs a
#               deb-src entry for the archive the binary packages come from: added when missing)
#   build       (default) deps, then build-wasm/ and its module build-wasm/web/impactfit-core.js
#   update      build, then copies the module into web/ (the committed page's module)
#   check-deps  exits 0 when every dependency is in the cache (nothing to build), 1 otherwise
# The build folder: $IMPACTFIT_WASM_BUILD, default build-wasm/ (the test command's is build-test/wasm/).
# The cache: $IMPACTFIT_WASM_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/impactfit-wasm, one folder per
# package, Debian version and Emscripten version; a second run builds none of them.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
what=${1:-build}
case $what in deps | build | update | check-deps) ;; *)
  echo "scripts/wasm.sh: error: expected deps, build, update or check-deps, got '$what'" >&2
  exit 2
  ;;
esac
# Debian's emcc runs its tools under node; this machine's node may not be Debian's (its modules are in
# /usr/share/nodejs). EM_CACHE stays unset: Debian's emscripten ships its system libraries prebuilt.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
unset EM_CACHE
# configure runs its test programs under node: node 18+'s own fetch makes the generated loader fetch the
# .wasm by path, which fails ("Failed to parse URL"); without it the loader reads the file
export NODE_OPTIONS="--no-experimental-fetch${NODE_OPTIONS:+ $NODE_OPTIONS}"
if ! command -v emcc >/dev/null 2>&1; then
  echo "scripts/wasm.sh: error: emcc not found (bash scripts/deps.sh wasm)" >&2
  exit 2
fi
jobs=$(nproc)
emver=$(emcc --version 2>/dev/null | sed -n '1s/.* \([0-9][0-9.]*\) .*/\1/p')
cache=${IMPACTFIT_WASM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/impactfit-wasm}
# source package, the binary package whose version the native build links, and the recipe's version
# (bump it when that package's build lines below change: its cache is rebuilt)
deps="gsl:libgsl-dev:1 nlopt:libnlopt-dev:2 xxhash:libxxhash-dev:1"

version_of() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }
prefix_of() { # prefix_of SRC BIN RECIPE: the cache folder of that source package's version
  local v
  v=$(version_of "$2")
  [ -n "$v" ] || {
    echo "scripts/wasm.sh: error: $2 is not installed (bash scripts/deps.sh build)" >&2
    exit 2
  }
  echo "$cache/$1-$v-emscripten-$emver-r$3"
}

if [ "$what" = check-deps ]; then
  for d in $deps; do
    IFS=: read -r src bin rec <<<"$d"
    [ -f "$(prefix_of "$src" "$bin" "$rec")/.done" ] || exit 1
  done
  exit 0
fi

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# a deb-src entry for every deb entry of the archive (deb822 .sources files and one-line lists)
ensure_deb_src() {
  if grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    return 0
  fi
  echo "scripts/wasm.sh: adding deb-src entries for apt-get source (/etc/apt/sources.list.d/impactfit-deb-src.*)"
  local f tmp
  tmp=$(mktemp)
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed -n 's/^Types:.*\bdeb\b.*/Types: deb-src/; p' "$f" >>"$tmp" && echo >>"$tmp"
  done
  [ -s "$tmp" ] && as_root install -m 644 "$tmp" /etc/apt/sources.list.d/impactfit-deb-src.sources
  : >"$tmp"
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^deb \(.*\)/deb-src \1/p' "$f" >>"$tmp"
  done
  [ -s "$tmp" ] && as_root install -m 644 "$tmp" /etc/apt/sources.list.d/impactfit-deb-src.list
  rm -f "$tmp"
  as_root apt-get update -qq
}

# build_one SRC BIN RECIPE: unpacks Debian's source of the installed version and builds it into the cache
build_one() {
  local src=$1 bin=$2 recipe=$3 v pre work t0
  v=$(version_of "$bin")
  pre=$(prefix_of "$src" "$bin" "$recipe")
  [ -f "$pre/.done" ] && return 0
  ensure_deb_src
  t0=$(date +%s)
  echo "scripts/wasm.sh: building $src $v with emscripten $emver into $pre"
  mkdir -p "$cache"
  # one build folder per version: an interrupted build continues where it stopped
  work="$pre.build"
  if [ ! -f "$work/.unpacked" ]; then
    rm -rf "$work"
    mkdir -p "$work"
    (cd "$work" && apt-get source -qq --only-source "$src=$v" >/dev/null 2>&1) || {
      echo "scripts/wasm.sh: error: apt-get source $src=$v failed (no deb-src entry, or no network to Debian's archive)" >&2
      rm -rf "$work"
      exit 1
    }
    touch "$work/.unpacked"
  fi
  local dir
  dir=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
  rm -rf "$pre.tmp"
  mkdir -p "$pre.tmp/include" "$pre.tmp/lib"
  # the native build's floating-point contract: no contraction into fused multiply-adds; the source
  # folder's path (in the cache) left out of __FILE__ (NLopt's assertions), so that the module does not
  # depend on where the cache is
  local cflags="-O2 -ffp-contract=off -ffile-prefix-map=$dir=$(basename "$dir")"
  case $src in
  gsl)
    # the library only: Debian's source has no manual (doc/ leaves SUBDIRS); configure once per build folder
    (cd "$dir" && { [ -f config.status ] || emconfigure ./configure --quiet --disable-shared --enable-static \
      --prefix="$pre.tmp" CFLAGS="$cflags" >configure.log 2>&1; } &&
      sed -i 's/^\(SUBDIRS = .*\) doc$/\1/' Makefile &&
      emmake make -j"$jobs" -s >make.log 2>&1 && emmake make -s install >install.log 2>&1) || {
      tail -n 30 "$dir"/*.log >&2
      exit 1
    }
    ;;
  nlopt)
    # the C algorithms only (NLOPT_CXX off: StoGO and AGS are C++ and unused by impactfit)
    (emcmake cmake -S "$dir" -B "$dir/b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="$cflags" \
      -DBUILD_SHARED_LIBS=OFF -DNLOPT_CXX=OFF -DNLOPT_PYTHON=OFF -DNLOPT_OCTAVE=OFF -DNLOPT_MATLAB=OFF \
      -DNLOPT_GUILE=OFF -DNLOPT_SWIG=OFF -DNLOPT_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$pre.tmp" \
      -DCMAKE_INSTALL_LIBDIR=lib >"$dir/configure.log" 2>&1 &&
      cmake --build "$dir/b" -j"$jobs" >"$dir/make.log" 2>&1 && cmake --install "$dir/b" >"$dir/install.log" 2>&1) || {
      tail -n 30 "$dir"/*.log >&2
      exit 1
    }
    ;;
  xxhash)
    emcc $cflags -c "$dir/xxhash.c" -o "$dir/xxhash.o"
    emar rcs "$pre.tmp/lib/libxxhash.a" "$dir/xxhash.o"
    cp "$dir/xxhash.h" "$pre.tmp/include/"
    ;;
  esac
  echo "$src $v emscripten $emver recipe $recipe, built in $(($(date +%s) - t0)) s" >"$pre.tmp/.done"
  rm -rf "$pre"
  mv "$pre.tmp" "$pre"
  rm -rf "$work"
  cat "$pre/.done"
}

for d in $deps; do
  IFS=: read -r src bin rec <<<"$d"
  build_one "$src" "$bin" "$rec"
done
[ "$what" = deps ] && exit 0

# the module: build-wasm/ (cmake/wasm-toolchain.cmake: Emscripten's toolchain; the cached prefixes)
prefixes=""
for d in $deps; do
  IFS=: read -r src bin rec <<<"$d"
  prefixes="$prefixes;$(prefix_of "$src" "$bin" "$rec")"
done
b=${IMPACTFIT_WASM_BUILD:-build-wasm}
cmake -G Ninja -S . -B "$b" -DCMAKE_TOOLCHAIN_FILE="$top/cmake/wasm-toolchain.cmake" -DCMAKE_BUILD_TYPE=Release \
  -DIMPACTFIT_WERROR=ON -DIMPACTFIT_WASM_PREFIXES="${prefixes#;}" >/dev/null
cmake --build "$b" -j"$jobs" --target impactfit_web
if [ "$what" = update ]; then
  cp "$b/web/impactfit-core.js" "$top/web/impactfit-core.js"
  echo "scripts/wasm.sh: web/impactfit-core.js updated ($(wc -c <"$top/web/impactfit-core.js") bytes)"
fi
