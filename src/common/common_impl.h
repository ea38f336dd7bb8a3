/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal helpers shared by all modules (not installed). */
#ifndef IMPACTFIT_COMMON_IMPL_H
#define IMPACTFIT_COMMON_IMPL_H

#include <gsl/gsl_errno.h>

#include "impactfit/common.h"

/* Fills err (if not NULL) with status, message and the raising file/line; returns status. */
int impactfit__fail(impactfit_error *err, int status, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#define IMPACTFIT__PI 3.14159265358979323846
#define IMPACTFIT__FAIL(err, status, ...) impactfit__fail((err), (status), __FILE__, __LINE__, __VA_ARGS__)

/* GSL's error handler while impactfit runs (the contract is in include/impactfit/common.h).
 * IMPACTFIT__GSL_SCOPE; as a statement in a function: from there to the function's return, GSL's
 * process-wide error handler is off (GSL errors come back as status codes, which impactfit turns into
 * its own); when the last impactfit call of the process returns, the handler found at the first
 * entry is put back. Nested and concurrent scopes (host threads, impactfit's OpenMP threads) are
 * counted: a per-thread depth, and under a mutex the number of threads inside. Every function that
 * can reach a GSL routine reporting through gsl_error() opens one: the public entry points and the
 * internal ones that other modules call. */
typedef struct impactfit__gsl_scope {
  int unused_;
} impactfit__gsl_scope;
impactfit__gsl_scope impactfit__gsl_enter(void);
void impactfit__gsl_leave(impactfit__gsl_scope *s);
#define IMPACTFIT__GSL_SCOPE                 \
  impactfit__gsl_scope impactfit__gsl_scope_ \
      __attribute__((cleanup(impactfit__gsl_leave), unused)) = impactfit__gsl_enter()

#endif
