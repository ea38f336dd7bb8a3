/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Status codes and error reports (include/impactfit/common.h). */
#include "common_impl.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/version.h"

const char *impactfit_strerror(int status) {
  switch (status) {
#define IMPACTFIT__STATUS_MSG(name, value, msg) \
  case value:                                   \
    return msg;
    IMPACTFIT_STATUS_LIST(IMPACTFIT__STATUS_MSG)
#undef IMPACTFIT__STATUS_MSG
  default:
    return "unknown status";
  }
}

const char *impactfit_status_name(int status) {
  switch (status) {
#define IMPACTFIT__STATUS_NAME(name, value, msg) \
  case value:                                    \
    return #name;
    IMPACTFIT_STATUS_LIST(IMPACTFIT__STATUS_NAME)
#undef IMPACTFIT__STATUS_NAME
  default:
    return "UNKNOWN";
  }
}

int impactfit_status_is_input_error(int status) { return status == IMPACTFIT_EINVAL || status == IMPACTFIT_EPARSE; }

void impactfit_error_clear(impactfit_error *err) {
  if (!err)
    return;
  err->status = IMPACTFIT_OK;
  err->message[0] = '\0';
  err->file = NULL;
  err->line = 0;
}

const char *impactfit_version(void) { return IMPACTFIT_VERSION_STRING; }

int impactfit__fail(impactfit_error *err, int status, const char *file, int line, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->status = status;
    err->file = file;
    err->line = line;
  }
  return status;
}

/* The GSL handler scope (common_impl.h). gsl_set_error_handler() writes one process-wide pointer
 * and is not thread-safe: only the first thread to enter and the last to leave touch it, under
 * gsl_lock. A thread already inside (a nested impactfit call) only counts on its own. */
static pthread_mutex_t gsl_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long gsl_threads;             /* threads inside a scope (gsl_lock) */
static gsl_error_handler_t *gsl_host;         /* the handler found at the first entry (gsl_lock) */
static _Thread_local unsigned long gsl_depth; /* this thread's nesting */

impactfit__gsl_scope impactfit__gsl_enter(void) {
  impactfit__gsl_scope s = {0};
  if (gsl_depth++ > 0)
    return s;
  pthread_mutex_lock(&gsl_lock);
  if (gsl_threads++ == 0)
    gsl_host = gsl_set_error_handler_off();
  pthread_mutex_unlock(&gsl_lock);
  return s;
}

void impactfit__gsl_leave(impactfit__gsl_scope *s) {
  (void)s;
  if (--gsl_depth > 0)
    return;
  pthread_mutex_lock(&gsl_lock);
  if (--gsl_threads == 0)
    gsl_set_error_handler(gsl_host);
  pthread_mutex_unlock(&gsl_lock);
}
