#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds and runs a consumer project with
# CMake (find_package) and with pkg-config.
set -eu
BUILD=${1:?usage: run.sh BUILD_DIR SOURCE_DIR}
SRC=${2:?}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cmake --install "$BUILD" --prefix "$TMP/prefix" >/dev/null
test -x "$TMP/prefix/bin/impactfit"
"$TMP/prefix/bin/impactfit" --version
cmake -S "$SRC/tests/consumer" -B "$TMP/cbuild" -DCMAKE_PREFIX_PATH="$TMP/prefix" >/dev/null
cmake --build "$TMP/cbuild" >/dev/null
LD_LIBRARY_PATH="$TMP/prefix/lib:$TMP/prefix/lib64:$TMP/prefix/lib/x86_64-linux-gnu" "$TMP/cbuild/consumer"
PC=$(find "$TMP/prefix" -name impactfit.pc -printf '%h')
# shellcheck disable=SC2046
cc -std=c11 "$SRC/tests/consumer/consumer.c" -o "$TMP/consumer_pc" \
  $(PKG_CONFIG_PATH="$PC" pkg-config --cflags --libs impactfit) -lm
LIBDIR=$(PKG_CONFIG_PATH="$PC" pkg-config --variable=libdir impactfit)
LD_LIBRARY_PATH="$LIBDIR" "$TMP/consumer_pc"
echo "consumer: find_package and pkg-config builds work"
