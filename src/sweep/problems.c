/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The built-in problems (include/impactfit/sweep.h), listed in problems.def, each defined by its module. */
#include <string.h>

#include "sweep_internal.h"

static const impactfit_sweep_problem *const registry[] = {
#define X(name) &impactfit__problem_##name,
#include "problems.def"
#undef X
};

const impactfit_sweep_problem *impactfit_sweep_problem_at(size_t i) {
  return i < sizeof registry / sizeof registry[0] ? registry[i] : NULL;
}

const impactfit_sweep_problem *impactfit_sweep_problem_from_name(const char *name) {
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
    if (strcmp(registry[i]->name, name) == 0)
      return registry[i];
  return NULL;
}
