/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cannon-es 0.20 in the code registry (src/codes/cannon.c; the engine itself: tests/engines/cannon_impacts.c),
 * against the closed form of one SPOOK contact step derived by hand (e = (b (1 + r) + 4 phi/(1 + 4d))/(1 + M eps)
 * − 1 without damping, by hand with it), through the step map and through the registry's entry (its inputs
 * reach the map's parameters; the inverse meets the asked phase mean). */
#include "codes/npm_engines_impl.h"
#include "codes_test.h"

static const double M = CT_M5; /* a 5 mm glass sphere */

#define CLOSE(got, want, tol, ...) CHECK_ABS(got, want, tol, __VA_ARGS__)
#define check(ok, what, got, want) CHECK(ok, "%s: got %.17g, want %.17g", what, (double)(got), (double)(want))

static inline double e_at(const impactfit_stepper *st, double v, double phi) {
  impactfit_step_impact o;
  impactfit_error err;
  int s = impactfit_step_impact_at(st, v, phi, &o, &err);
  CHECK(s == 0, "impact at %g: %s", phi, s ? err.message : "");
  return s ? NAN : o.e;
}

static inline double mean_of(const impactfit_stepper *st, double v) {
  impactfit_step_stats S;
  impactfit_error err;
  int s = impactfit_step_phase_stats(st, v, &S, &err);
  CHECK(s == 0, "stats: %s", s ? err.message : "");
  return s ? NAN : S.e_mean;
}

/* cannon-es: with x = phi v h at the first contact step and no damping, one step leaves at
 * e = (b (1 + r) + 4 phi/(1 + 4d))/(1 + M eps) - 1 (a = 4/(h (1 + 4d)), b = 4d/(1 + 4d)), and that step ends the
 * contact when it leaves a gap: phi v h - e v h <= 0, i.e. e >= phi */
static void cannon(void) {
  static const double dts[3] = {1.0 / 60.0, 1e-3, 1e-4};
  for (int k = 0; k < 3; k++) {
    impactfit_stepper st;
    impactfit__cannon_stepper(&st, M, dts[k], 1, 0.5);
    st.p[IMPACTFIT__CANNON_DAMPING] = 0.0;
    double d = 3.0, b = 4.0 * d / (1.0 + 4.0 * d), eps = 4.0 / (dts[k] * dts[k] * 1e7 * (1.0 + 4.0 * d));
    for (int i = 1; i <= 4; i++) {
      double phi = 0.1 * i, want = (b * 1.5 + 4.0 * phi / (1.0 + 4.0 * d)) / (1.0 + M * eps) - 1.0;
      CLOSE(e_at(&st, 1.0, phi), want, 1e-12, "cannon: one contact step");
    }
    /* the same at another speed: e does not depend on v */
    CLOSE(e_at(&st, 0.05, 0.3), e_at(&st, 2.0, 0.3), 1e-12, "cannon: e independent of the speed");
  }
  /* damping, by hand: two free steps, the contact step, the free step that ends the impact, each velocity scaled
   * by (1 - 0.01)^h after the impulse and before the position (World.ts:810-841) */
  impactfit_stepper st;
  impactfit__cannon_stepper(&st, M, 1.0 / 60.0, 1, 0.5);
  double h = 1.0 / 60.0, v = 1.0, phi = 0.3, ld = pow(0.99, h), d = 3.0;
  double a = 4.0 / (h * (1.0 + 4.0 * d)), b = 4.0 * d / (1.0 + 4.0 * d), eps = 4.0 / (h * h * 1e7 * (1.0 + 4.0 * d));
  double x = (phi - 2.0) * v * h, u = v;
  for (int k = 0; k < 2; k++) {
    u *= ld;
    x += h * u;
  }
  double lam = (a * x + b * 1.5 * u) / (1.0 / M + eps);
  u = (u - lam / M) * ld;
  x += h * u;
  check(x <= 0.0 && u < 0.0, "cannon: the contact step ends the contact", x, u);
  u *= ld;
  CLOSE(e_at(&st, v, phi), -u / v, 1e-12, "cannon: linearDamping 0.01 by hand");
}

/* the entry: its settings reach the step map (one contact step against the closed form without damping), and
 * its inverse meets the asked phase mean */
static void cannon_registry(void) {
  impactfit_error err;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  ct_request r = ct_make(ct_find("cannon", NULL, NULL, NULL));
  ct_set1(&r, "linearDamping", 0.0);
  ct_set1(&r, "contactEquationRelaxation", 2.0);
  r.q.dt = 1e-3;
  impactfit_stepper st;
  CHECK(impactfit_code_stepper(ct_q(&r), 0.5, &st, &err) == 0, "cannon: stepper: %s", err.message);
  double h = 1e-3, d = 2.0, b = 4.0 * d / (1.0 + 4.0 * d), eps = 4.0 / (h * h * 1e7 * (1.0 + 4.0 * d));
  for (int i = 1; i <= 4; i++) {
    double phi = 0.1 * i, want = (b * 1.5 + 4.0 * phi / (1.0 + 4.0 * d)) / (1.0 + M * eps) - 1.0;
    CLOSE(e_at(&st, 1.0, phi), want, 1e-12, "cannon: the entry's contact step at phi %g", phi);
  }
  ct_request q = ct_make(ct_find("cannon", NULL, NULL, NULL));
  q.q.e = 0.5;
  CHECK(ct_solve(&q, &a, &err) == 0 && a.reachable, "cannon: e 0.5: %s", err.message);
  CLOSE(a.e, 0.5, 1e-9, "cannon: the answer's mean");
  impactfit__cannon_stepper(&st, CT_M5, 1.0 / 60.0, 1, a.value);
  CLOSE(mean_of(&st, 1.0), 0.5, 1e-9, "cannon: the map at the answer's restitution %.12g", a.value);
  CHECK(a.e_min < 0.5 && a.e_max > 0.5, "cannon: one impact spreads over the phase");
  /* the naive input: a restitution on the sphere alone leaves the world's default contact material, r = 0 */
  impactfit__cannon_stepper(&st, CT_M5, 1.0 / 60.0, 1, 0.0);
  CLOSE(a.e_naive, mean_of(&st, 1.0), 1e-12, "cannon: the naive input is r = 0");
  CHECK(a.e_naive > 0.1 && a.e_naive < 0.2, "cannon: r = 0 still bounces (%g)", a.e_naive);
  impactfit_code_answer_free(&a);
}

int main(void) {
  cannon();
  cannon_registry();
  return tu_report("test_cannon");
}
