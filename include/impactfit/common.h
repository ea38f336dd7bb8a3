/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — common definitions: export macro, status codes, error reports.
 *
 * Every fallible function of libimpactfit returns an int status from the list below (0 on success,
 * a negative code on error) and, when given a non-NULL impactfit_error *, fills it with a message
 * naming the reason. The library never calls exit() or abort() and installs no global error handler
 * of its own.
 *
 * GSL's error handler (gsl_set_error_handler, process-wide). GSL reports errors by calling one
 * handler for the whole process, aborting by default; impactfit needs GSL's errors as return codes.
 * Contract:
 *   - While an impactfit function runs, GSL's handler is off (gsl_set_error_handler_off): GSL errors
 *     inside impactfit are recoverable, come back as impactfit status codes and never reach the
 *     host's handler.
 *   - When the last impactfit call running in the process returns, the handler that was installed
 *     when the first one started is put back: after every call the host's handler is installed again
 *     (tests/test_gsl_handler.c checks it, failing calls and a parallel sweep included). No init or
 *     finish call is needed.
 *   - Calls may nest and run concurrently (host threads, impactfit's own OpenMP threads): the first
 *     thread to enter switches the handler off and the last to leave restores it, under a mutex;
 *     a thread already inside only counts on its own.
 *   - Because the handler is one pointer for the whole process, while impactfit runs in one thread,
 *     GSL calls of the host in other threads also run with the handler off (their errors are still
 *     returned as GSL status codes), and a host that calls gsl_set_error_handler() in one thread
 *     while impactfit runs in another has its change undone when impactfit returns. Single-threaded
 *     hosts and hosts that set their handler once before calling impactfit see no effect.
 */
#ifndef IMPACTFIT_COMMON_H
#define IMPACTFIT_COMMON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define IMPACTFIT_EXPORT
#else
#define IMPACTFIT_EXPORT __attribute__((visibility("default")))
#endif

/* The one list of status codes: X(name, value, message). Zero is success, positive values are
 * informational stops, negative values are errors. The enum, impactfit_status_name() and
 * impactfit_strerror() are all generated from it. */
#define IMPACTFIT_STATUS_LIST(X)                        \
  X(OK, 0, "success")                                   \
  X(EINVAL, -1, "invalid argument")                     \
  X(ENOMEM, -2, "out of memory")                        \
  X(ENOSEP, -3, "no separation within the time bound")  \
  X(ENONFINITE, -4, "non-finite value in the solution") \
  X(ENOCONV, -5, "no convergence")                      \
  X(ENOROOT, -6, "no solution exists")                  \
  X(ESTEP, -7, "integrator step failed")                \
  X(EIO, -8, "input/output error")                      \
  X(EPARSE, -9, "malformed input")                      \
  X(EINTR, -10, "interrupted")

typedef enum impactfit_status {
#define IMPACTFIT__STATUS_ENUM(name, value, msg) IMPACTFIT_##name = value,
  IMPACTFIT_STATUS_LIST(IMPACTFIT__STATUS_ENUM)
#undef IMPACTFIT__STATUS_ENUM
} impactfit_status;

/* Short description of a status code ("no separation within the time bound"). Never NULL. */
IMPACTFIT_EXPORT const char *impactfit_strerror(int status);
/* The code's name without prefix ("ENOSEP"). Never NULL. */
IMPACTFIT_EXPORT const char *impactfit_status_name(int status);
/* 1 if the status means the caller's input was invalid (EINVAL, EPARSE), 0 otherwise
 * (numerical failures: ENOSEP, ENOCONV, ENOROOT, ...). The CLI maps the former to exit code 2. */
IMPACTFIT_EXPORT int impactfit_status_is_input_error(int status);

/* A detailed error report. Pass NULL where the detail is not wanted. */
typedef struct impactfit_error {
  int status;        /* the status that was returned */
  char message[512]; /* human-readable reason, without a trailing newline */
  const char *file;  /* source file and line of the library that raised it (for bug reports) */
  int line;
} impactfit_error;

/* Resets an error report to success; accepts NULL. */
IMPACTFIT_EXPORT void impactfit_error_clear(impactfit_error *err);

/* Version of the library at run time, "MAJOR.MINOR.PATCH". */
IMPACTFIT_EXPORT const char *impactfit_version(void);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_COMMON_H */
