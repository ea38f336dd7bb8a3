/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fit files read from memory (internal: the fuzz harness and tests). */
#ifndef IMPACTFIT_FITFILE_IMPL_H
#define IMPACTFIT_FITFILE_IMPL_H

#include <stddef.h>

#include "impactfit/fitfile.h"

/* Reads the sweep definition a fit file names (path resolved relative to the fit file). */
typedef int (*impactfit__sweep_loader)(void *ctx, const char *path, impactfit_sweep **out, impactfit_error *err);

/* impactfit_fitfile_load on text[0..len) in memory: `path` stands for the file in messages, in the
 * default name and for resolving the sweep reference, which `load` reads (impactfit_fitfile_load
 * passes impactfit_sweep_load). The fuzz harness serves the repository's sweeps from memory, so no
 * input costs a file access. */
int impactfit__fitfile_parse(const char *text, size_t len, const char *path, impactfit__sweep_loader load,
                             void *load_ctx, impactfit_fitfile **out, impactfit_error *err);

#endif
