/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals of the sweep module (not installed). The general utilities it used to hold (INI reader,
 * file reader, XXH64, strict numbers, %.17g) are in src/common/io_impl.h. */
#ifndef IMPACTFIT_SWEEP_IMPL_H
#define IMPACTFIT_SWEEP_IMPL_H

#include <stddef.h>

#include "../common/io_impl.h"
#include "impactfit/sweep.h"

/* impactfit_sweep_parse with a grid of at most max_points points (≤ 1e9, the public bound). The
 * parser checks every point, so a legal billion-point grid takes minutes to read: the fuzz harnesses
 * bound it to keep each input fast. */
int impactfit__sweep_parse_bounded(const char *text, size_t len, const char *name, double max_points,
                                   impactfit_sweep **out, impactfit_error *err);

#endif
