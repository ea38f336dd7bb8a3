/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The OpenMP functions the library calls (the sweep runner, src/sweep/runner.c; the engines' phase statistics,
 * src/codes/solve_steps.c and src/law/step_family.c), for the WebAssembly
 * build, which has no OpenMP: one thread, and its pragmas are ignored (-Wno-unknown-pragmas). The
 * runner's rows are the same for any thread count (docs/ARCHITECTURE.md), one thread included. */
#ifndef IMPACTFIT_WASM_OMP_H
#define IMPACTFIT_WASM_OMP_H

#include <emscripten.h>

static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
static inline int omp_in_parallel(void) { return 0; }
static inline double omp_get_wtime(void) { return emscripten_get_now() / 1000.0; }

#endif
