/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The committed surrogates (include/impactfit/generated/) compiled into the library: see
 * include/impactfit/committed.h. Each function calls the header's own static inline evaluation. */
#include "impactfit/committed.h"

#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/generated/copt_surrogate.h"
#include "impactfit/generated/ramaswamy_dtau_surrogate.h"
#include "impactfit/generated/ramaswamy_eps.h"
#include "impactfit/generated/zhang_a_surrogate.h"
#include "impactfit/generated/zhang_c_surrogate.h"

int impactfit_committed_copt_zeta(double n, double e, double *zeta, impactfit_error *err) {
  if (!zeta)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no result given");
  double z = impactfit_copt_zeta(n, e);
  if (!(z >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "copt surrogate: (n, e) = (%g, %g) is outside its box "
                           "(include/impactfit/generated/copt_surrogate.h)",
                           n, e);
  *zeta = z;
  return 0;
}

int impactfit_committed_zhang_zeta(const impactfit_transition *tr, double n, double m, double e, double *zeta,
                                   double *alpha, impactfit_error *err) {
  if (!zeta)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no result given");
  if (!tr)
    tr = impactfit_transition_C;
  if (tr != impactfit_transition_C && tr != impactfit_transition_A)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "Zhang surrogate: committed for transition conditions C and A only (got %s)", tr->name);
  int c = tr == impactfit_transition_C;
  double z = c ? impactfit_zhang_c_zeta(n, m, e) : impactfit_zhang_a_zeta(n, m, e);
  if (!(z >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "Zhang surrogate (%s): (n, m, e) = (%g, %g, %g) is outside its box "
                           "(include/impactfit/generated/zhang_%s_surrogate.h)",
                           tr->name, n, m, e, c ? "c" : "a");
  *zeta = z;
  if (alpha) {
    double a = c ? impactfit_zhang_c_alpha(n, m, e) : impactfit_zhang_a_alpha(n, m, e);
    *alpha = a; /* NaN at e = 1: undefined */
  }
  return 0;
}

int impactfit_committed_dtau(double eps, double n, double *dtau, impactfit_error *err) {
  if (!dtau)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no result given");
  double d = impactfit_ramaswamy_dtau_surrogate(eps, n);
  if (!(d >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "dtau surrogate: (eps, n) = (%g, %g) is outside its box "
                           "(include/impactfit/generated/ramaswamy_dtau_surrogate.h)",
                           eps, n);
  *dtau = d;
  return 0;
}

int impactfit_committed_rh_eps(const char *which, double e, double *eps, impactfit_error *err) {
  if (!eps || !which)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no form or result given");
  int lsq = !strcmp(which, "lsq");
  if (!lsq && strcmp(which, "minimax"))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "Ramaswamy-Humbert refit: expected lsq or minimax, got '%s'", which);
  if (!(e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the coefficient of restitution must be in (0, 1] (got %g)", e);
  *eps = lsq ? impactfit_ramaswamy_eps_lsq(e) : impactfit_ramaswamy_eps_minimax(e);
  return 0;
}
