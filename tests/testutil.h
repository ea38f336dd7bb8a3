/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Minimal test helpers (in the spirit of GSL's gsl_test_rel): every check prints a line on failure
 * with the file, line, the values and the tolerance; main returns the number of failures. */
#ifndef IMPACTFIT_TESTUTIL_H
#define IMPACTFIT_TESTUTIL_H

#include <math.h>
#include <stdio.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static int tu_failures = 0;
static int tu_checks = 0;

/* |got − want| ≤ tol·|want| (or ≤ tol when want = 0); NaN and infinities never pass. */
static inline int tu_rel(double got, double want, double tol, const char *file, int line, const char *what) {
  tu_checks++;
  double err = fabs(got - want), scale = (want == 0.0) ? 1.0 : fabs(want);
  int ok = isfinite(got) && isfinite(want) && err <= tol * scale;
  if (!ok) {
    tu_failures++;
    fprintf(stderr, "%s:%d: FAIL %s: got %.17g, want %.17g (rel err %.3g > %.3g)\n", file, line, what, got, want,
            err / scale, tol);
  }
  return ok;
}

static inline int tu_abs(double got, double want, double tol, const char *file, int line, const char *what) {
  tu_checks++;
  double err = fabs(got - want);
  int ok = isfinite(got) && isfinite(want) && err <= tol;
  if (!ok) {
    tu_failures++;
    fprintf(stderr, "%s:%d: FAIL %s: got %.17g, want %.17g (abs err %.3g > %.3g)\n", file, line, what, got, want, err,
            tol);
  }
  return ok;
}

static inline int tu_true(int cond, const char *file, int line, const char *what) {
  tu_checks++;
  if (!cond) {
    tu_failures++;
    fprintf(stderr, "%s:%d: FAIL %s\n", file, line, what);
  }
  return cond;
}

#define CHECK_REL(got, want, tol, ...)                          \
  do {                                                          \
    char tu_what_[1024];                                        \
    snprintf(tu_what_, sizeof tu_what_, __VA_ARGS__);           \
    tu_rel((got), (want), (tol), __FILE__, __LINE__, tu_what_); \
  } while (0)
#define CHECK_ABS(got, want, tol, ...)                          \
  do {                                                          \
    char tu_what_[1024];                                        \
    snprintf(tu_what_, sizeof tu_what_, __VA_ARGS__);           \
    tu_abs((got), (want), (tol), __FILE__, __LINE__, tu_what_); \
  } while (0)
#define CHECK(cond, ...)                              \
  do {                                                \
    char tu_what_[1024];                              \
    snprintf(tu_what_, sizeof tu_what_, __VA_ARGS__); \
    tu_true((cond), __FILE__, __LINE__, tu_what_);    \
  } while (0)

static inline int tu_report(const char *name) {
  if (tu_failures)
    fprintf(stderr, "%s: %d of %d checks failed\n", name, tu_failures, tu_checks);
  else
    printf("%s: all %d checks passed\n", name, tu_checks);
  return tu_failures ? 1 : 0;
}

#endif
