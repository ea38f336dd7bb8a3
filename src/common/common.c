/* Status codes and error reports (include/impactfit/common.h). */
#include "common_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/version.h"

const char *impactfit_strerror(int status) {
  switch (status) {
#define IMPACTFIT__STATUS_MSG(name, value, msg)                                                    \
  case value:                                                                                      \
    return msg;
    IMPACTFIT_STATUS_LIST(IMPACTFIT__STATUS_MSG)
#undef IMPACTFIT__STATUS_MSG
  default:
    return "unknown status";
  }
}

const char *impactfit_status_name(int status) {
  switch (status) {
#define IMPACTFIT__STATUS_NAME(name, value, msg)                                                   \
  case value:                                                                                      \
    return #name;
    IMPACTFIT_STATUS_LIST(IMPACTFIT__STATUS_NAME)
#undef IMPACTFIT__STATUS_NAME
  default:
    return "UNKNOWN";
  }
}

int impactfit_status_is_input_error(int status) {
  return status == IMPACTFIT_EINVAL || status == IMPACTFIT_EPARSE;
}

void impactfit_error_clear(impactfit_error *err) {
  if (!err)
    return;
  err->status = IMPACTFIT_OK;
  err->message[0] = '\0';
  err->file = NULL;
  err->line = 0;
}

const char *impactfit_version(void) { return IMPACTFIT_VERSION_STRING; }

int impactfit__fail(impactfit_error *err, int status, const char *file, int line, const char *fmt,
                    ...) {
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

void impactfit__gsl_quiet(void) {
  /* GSL's default handler aborts; the library reports errors through return codes instead.
   * gsl_set_error_handler_off() is idempotent and writes one pointer, so calling it at every
   * entry point that uses GSL is cheap and race-free in practice (all threads store the same value). */
  gsl_set_error_handler_off();
}
