# SPDX-License-Identifier: GPL-3.0-or-later
# The WebAssembly build (docs/WEB.md): Emscripten's own toolchain file, found where Debian's
# emscripten package puts it (or under $EMSCRIPTEN), with IMPACTFIT_WASM on. scripts/wasm.sh
# configures build-wasm/ with it and the cached dependencies:
#   cmake -G Ninja -S . -B build-wasm -DCMAKE_TOOLCHAIN_FILE=cmake/wasm-toolchain.cmake \
#         -DIMPACTFIT_WASM_PREFIXES="<gsl>;<nlopt>;<xxhash>"
if(DEFINED ENV{EMSCRIPTEN})
  set(_em "$ENV{EMSCRIPTEN}")
else()
  set(_em /usr/share/emscripten)
endif()
include("${_em}/cmake/Modules/Platform/Emscripten.cmake")
set(IMPACTFIT_WASM ON CACHE BOOL "The WebAssembly build of the core (src/wasm)" FORCE)
