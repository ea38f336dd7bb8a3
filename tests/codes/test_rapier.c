/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rapier 0.21 in the code registry (src/codes/rapier.c; the engine itself: tests/engines/rapier_impacts.c), against
 * the closed form of its step derived by hand from the one-step map its source computes: the speculative row
 * stops the body at the surface and the restitution pass leaves at r times the approach speed, so e = r at every
 * phase, speed and step; the registry's inverse is then r = e, its naive input (the sphere's collider alone,
 * Average with the other's 0) gives e/2. */
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

/* Rapier: the speculative row stops the body at the surface, the restitution pass leaves at r u0: e = r at every
 * phase, speed and step, for a plane and two spheres; soft rows in penetration (a small prediction distance) too */
static void rapier(void) {
  static const double rs[4] = {0.1, 0.3, 0.7, 1.0};
  for (int k = 0; k < 4; k++)
    for (int fixed = 0; fixed < 2; fixed++) {
      impactfit_stepper st;
      impactfit__rapier_stepper(&st, fixed ? M : 0.5 * M, 1.0 / 60.0, fixed, rs[k]);
      for (int i = 1; i <= 5; i++)
        CLOSE(e_at(&st, 1.0, 0.2 * i - 0.05), rs[k], 1e-12, "rapier: e = r");
      CLOSE(mean_of(&st, 1.0), rs[k], 1e-12, "rapier: mean e = r");
      st.p[IMPACTFIT__RAPIER_PREDICTION] = 0.002; /* penetrating first contact steps */
      CLOSE(e_at(&st, 0.5, 0.7), rs[k], 1e-12, "rapier: e = r from a penetrating point");
    }
  /* restitution 0: the speculative row stops the body dead */
  impactfit_stepper st;
  impactfit__rapier_stepper(&st, M, 1.0 / 60.0, 1, 0.0);
  CLOSE(e_at(&st, 1.0, 0.5), 0.0, 1e-12, "rapier: restitution 0");
}

/* the entry: its stepper is the map at the engine's float32 step; the inverse gives r = e, the naive input e/2 */
static void rapier_registry(void) {
  impactfit_error err;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  for (int pair = 0; pair < 2; pair++) {
    ct_request r = ct_make(ct_find("rapier", NULL, NULL, NULL));
    if (pair) {
      r.q.bodies.r2 = 0.005;
      r.q.bodies.m2 = CT_M5;
    }
    impactfit_stepper st;
    CHECK(impactfit_code_stepper(ct_q(&r), 0.4, &st, &err) == 0, "rapier: stepper: %s", err.message);
    CHECK(st.dt == (double)(float)(1.0 / 60.0), "rapier: the float32 step 1/60 (got %.17g)", st.dt);
    CHECK_REL(st.mass, pair ? 0.5 * CT_M5 : CT_M5, 1e-15, "rapier: the effective mass (pair %d)", pair);
    CLOSE(mean_of(&st, 1.0), 0.4, 1e-12, "rapier: the entry's mean e = r (pair %d)", pair);
    r.q.e = 0.6;
    CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "rapier: e 0.6: %s", err.message);
    CLOSE(a.value, 0.6, 1e-9, "rapier: the inverse r = e (pair %d)", pair);
    CLOSE(a.e, 0.6, 1e-9, "rapier: the answer's mean");
    CLOSE(a.e_naive, 0.3, 1e-12, "rapier: the naive input on one collider gives e/2");
    CHECK(a.run_here && strstr(a.input, "setRestitution(0.6"), "rapier: pasted: %s", a.input);
  }
  impactfit_code_answer_free(&a);
}

int main(void) {
  rapier();
  rapier_registry();
  return tu_report("test_rapier");
}
