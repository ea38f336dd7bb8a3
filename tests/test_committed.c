/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The committed surrogates exported by the library (committed.h) against the generated headers'
 * own static inline functions compiled here: the same values bit for bit inside each box, EINVAL
 * with the box named outside it; and the surrogate values against exact references (the c_opt
 * of the Kelvin–Voigt case n = 1, Δτ(0, 1) = π). */
#include <math.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "impactfit/generated/copt_surrogate.h"
#include "impactfit/generated/dem_damping.h"
#include "impactfit/generated/poursina2020.h"
#include "impactfit/generated/ramaswamy_dtau_surrogate.h"
#include "impactfit/generated/ramaswamy_eps.h"
#include "impactfit/generated/zhang_a_surrogate.h"
#include "impactfit/generated/zhang_c_surrogate.h"
#include "testutil.h"

int main(void) {
  impactfit_error err;
  double z, a;
  /* bit for bit inside the boxes, on a grid touching the edges */
  int same = 1;
  for (int i = 0; i <= 20; i++)
    for (int j = 0; j <= 40; j++) {
      double n = 1.0 + i / 20.0, e = j == 0 ? 1e-4 : j / 40.0;
      same &= impactfit_committed_copt_zeta(n, e, &z, NULL) == 0 && z == impactfit_copt_zeta(n, e);
      for (int k = 0; k <= 8; k++) {
        double m = k / 4.0, ez = e < 0.01 ? 0.01 : e, zc, zac;
        same &= impactfit_committed_zhang_zeta(impactfit_transition_C, n, m, ez, &zc, &a, NULL) == 0 &&
                zc == impactfit_zhang_c_zeta(n, m, ez) &&
                (ez == 1.0 ? isnan(a) : a == impactfit_zhang_c_alpha(n, m, ez));
        same &= impactfit_committed_zhang_zeta(impactfit_transition_A, n, m, ez, &zac, NULL, NULL) == 0 &&
                zac == impactfit_zhang_a_zeta(n, m, ez);
      }
      double eps = 100.0 * j / 40.0, d;
      same &= impactfit_committed_dtau(eps, n, &d, NULL) == 0 && d == impactfit_ramaswamy_dtau_surrogate(eps, n);
    }
  CHECK(same, "committed copt, Zhang C/A and dtau surrogates equal the generated headers bit for bit");
  double x;
  CHECK(impactfit_committed_rh_eps("lsq", 0.37, &x, NULL) == 0 && x == impactfit_ramaswamy_eps_lsq(0.37), "rh lsq");
  CHECK(impactfit_committed_rh_eps("minimax", 0.37, &x, NULL) == 0 && x == impactfit_ramaswamy_eps_minimax(0.37),
        "rh minimax");
  /* outside the boxes: EINVAL naming the header */
  CHECK(impactfit_committed_copt_zeta(2.5, 0.5, &z, &err) == IMPACTFIT_EINVAL && strstr(err.message, "copt_surrogate."
                                                                                                     "h"),
        "copt outside its box: %s", err.message);
  CHECK(impactfit_committed_copt_zeta(1.5, 5e-5, &z, &err) == IMPACTFIT_EINVAL, "copt below e_lo");
  CHECK(impactfit_committed_zhang_zeta(impactfit_transition_A, 1.5, 2.5, 0.5, &z, &a, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "zhang_a_surrogate.h"),
        "zhang A outside its box: %s", err.message);
  CHECK(impactfit_committed_zhang_zeta(impactfit_transition_B, 1.5, 0.5, 0.5, &z, &a, &err) == IMPACTFIT_EINVAL,
        "zhang under B: EINVAL");
  CHECK(impactfit_committed_dtau(101.0, 1.5, &z, &err) == IMPACTFIT_EINVAL, "dtau outside its box");
  CHECK(impactfit_committed_rh_eps("lsq", 0.0, &x, &err) == IMPACTFIT_EINVAL, "rh at e = 0");
  CHECK(impactfit_committed_rh_eps("best", 0.5, &x, &err) == IMPACTFIT_EINVAL, "rh unknown form");
  CHECK(impactfit_committed_copt_zeta(1.5, 0.5, NULL, &err) == IMPACTFIT_EINVAL, "NULL result");
  /* e = 1: zeta 0, alpha undefined */
  CHECK(impactfit_committed_zhang_zeta(NULL, 1.5, 0.5, 1.0, &z, &a, NULL) == 0 && z == 0.0 && isnan(a), "e = 1");
  /* exact references: n = 1 (Kelvin-Voigt, C): e = exp(-2 xi acos xi / sqrt(1 - xi^2)), xi = zeta/2 */
  for (double e = 0.2; e < 0.96; e += 0.15) {
    CHECK(impactfit_committed_copt_zeta(1.0, e, &z, NULL) == 0, "copt n = 1");
    double xi = z / 2.0;
    CHECK_ABS(exp(-2.0 * xi * acos(xi) / sqrt(1.0 - xi * xi)), e, 1e-8, "Kelvin-Voigt e of the surrogate zeta, e = %g",
              e);
  }
  CHECK(impactfit_committed_dtau(0.0, 1.0, &z, NULL) == 0, "dtau(0, 1)");
  CHECK_REL(z, M_PI, 1e-9, "dtau(0, 1) = pi");
  /* every generated header answers NaN outside its box (a -1 was taken for a negative damping) */
  CHECK(isnan(impactfit_copt_c(2.7, 0.7, 1e8, 0.05, 2)) && isnan(impactfit_copt_c(1.5, 0.7, -1e8, 0.05, 2)) &&
            impactfit_copt_c(1.5, 0.7, 1e8, 0.05, 2) > 0.0,
        "copt_surrogate.h: c NaN above n = 2 and for k < 0, > 0 inside");
  CHECK(isnan(impactfit_ramaswamy_dtau_surrogate_dt(1.0, 2.5, 1e8, 0.05, 2)), "ramaswamy_dtau_surrogate.h: NaN at n "
                                                                              "2.5");
  CHECK(isnan(impactfit_dem_hertz_prefactor_clamped(1.5)) && impactfit_dem_hertz_prefactor_clamped(0.5) > 0.0,
        "dem_damping.h: NaN outside (0, 1]");
  /* a fitted header: NaN outside the data each stage was fitted to (n in [1, 2], e in [0.45, 1]) */
  CHECK(isnan(impactfit_poursina2020_alpha(2.7)) && isnan(impactfit_poursina2020_beta(0.5)) &&
            isnan(impactfit_poursina2020_per_n(0, 0.3)) && isfinite(impactfit_poursina2020_alpha(1.5)) &&
            isfinite(impactfit_poursina2020_per_n(0, 0.7)),
        "poursina2020.h: NaN outside the fitted data, finite inside");
  return tu_report("test_committed");
}
