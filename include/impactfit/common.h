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

/* ---- numbers as text ---- */

/* Size of a buffer for impactfit_format_shortest. */
#define IMPACTFIT_SHORTEST_SIZE 32

/* v as the shortest decimal text that reads back (strtod) to the same double: the fewest significant
 * digits of any decimal in v's rounding interval and, of two such, the nearer to v (the even one on a
 * tie), in the notation %.17g would choose (fixed for decimal exponents -4 <= x < 17, else d.ddde±XX):
 * 0.1 -> "0.1" (not 0.10000000000000001), 1e8 -> "100000000", 1.0000000000000001e-05 -> "1e-05",
 * 4.9406564584124654e-324 -> "5e-324". Where the nearer decimal of that length lies outside the
 * interval and the farther inside (below some powers of two, where the interval is half as wide
 * below v: 46 of the 2098 powers of two), it is a digit shorter than %.17g trimmed to the fewest
 * digits that round-trip. Schubfach's algorithm (src/common/shortest.c): about 50 ns, no trial
 * printing. The C locale whatever the host set; -0 prints as "0"; NaN and infinities as "nan",
 * "inf", "-inf". buf holds IMPACTFIT_SHORTEST_SIZE bytes. Returns buf. This is how impactfit
 * prints a number a user typed (tables, CSV, JSON, messages): as typed, up to the spelling of the
 * same double. */
IMPACTFIT_EXPORT char *impactfit_format_shortest(double v, char *buf);

/* Rewrites, in place, every number of the text that was printed with %.17g (16 or 17 significant
 * digits, with a decimal point or an exponent) as impactfit_format_shortest prints the same double;
 * other text is kept. Every message of the library goes through it, so a message says "got 0.6",
 * not "got 0.59999999999999998"; the CLI's own messages too. */
IMPACTFIT_EXPORT void impactfit_shorten_numbers(char *text);

/* The candidate closest to a mistyped word (edit distance with transpositions, ignoring case: at
 * most 1 edit for words under 5 characters, 2 otherwise), or NULL when none is that close: the
 * "did you mean" of every message that lists names (commands, options, codes, models, topics). */
IMPACTFIT_EXPORT const char *impactfit_closest_name(const char *word, const char *const *candidates, size_t n);

/* ---- inputs that go together ---- */

/* The rule for optional inputs that only mean something together, such as the stiffness, mass and
 * speed that make a result dimensional: all given or none. values[i] is NaN when input i was not
 * given; names[i] names it in the message ("--k" in the CLI, "k" in Python and Octave). Sets *all
 * to 1 (all given) or 0 (none) and returns 0, or returns EINVAL with "give all of k, mass and v, or
 * none (only k given)" ("give both k and v, or neither (only k given)" for two). Every front end
 * (CLI, Python, Octave) applies this one rule to every command with such a set. */
IMPACTFIT_EXPORT int impactfit_all_or_none(size_t n, const double *values, const char *const *names, int *all,
                                           impactfit_error *err);

/* ---- versions of other programs ---- */

/* 1 when the version key lies in [min, max] (0: that end open), else 0: the range test of the
 * registry of other programs (codes.h: keys of impactfit_code.version_key). */
IMPACTFIT_EXPORT int impactfit_version_in_range(long key, long min, long max);


/* ---- growable text ---- */

/* A text that grows as it is appended to (the registry's answers and notes: never cut). Start from
 * {0} (or IMPACTFIT_TEXT_INIT); s is NULL until the first append, then NUL-terminated. An allocation
 * that fails leaves the text as it was and sets `failed` (later appends do nothing). */
typedef struct impactfit_text {
  char *s;
  size_t len, cap;
  int failed;
} impactfit_text;
#define IMPACTFIT_TEXT_INIT \
  { .s = NULL, .len = 0, .cap = 0, .failed = 0 }

/* Appends printf-style (the C locale is the caller's: numbers as printf prints them). */
IMPACTFIT_EXPORT void impactfit_text_appendf(impactfit_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text so far ("" before the first append). */
IMPACTFIT_EXPORT const char *impactfit_text_str(const impactfit_text *t);
/* The text as a malloc'd string owned by the caller (free()), the text emptied; NULL only when out of
 * memory. */
IMPACTFIT_EXPORT char *impactfit_text_take(impactfit_text *t);
/* Frees the text and empties it (NULL: no-op). */
IMPACTFIT_EXPORT void impactfit_text_free(impactfit_text *t);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_COMMON_H */
