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

/* Switches GSL's aborting error handler off (see common.c). */
void impactfit__gsl_quiet(void);

#endif
