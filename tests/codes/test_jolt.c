/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Jolt Physics 5.6.0 in the code registry (src/codes/jolt.c; the engine itself: tests/engines/jolt_impacts.c),
 * against the closed form of its contact row read from the source: above mMinVelocityForRestitution (1 m/s) the
 * step that would bring the bodies together takes the bias r vn, so without damping e = r at every phase (the
 * contact's r the larger of the two bodies': the ground's default 0 leaves body 1's); at or below 1 m/s the
 * speculative row stops the bodies at the surface, e = 0; mLinearDamping c scales the rebound by 1 − c dt per
 * step with a row (so e lies in [r (1 − c dt)^2, r]); the float32 integrator agrees with the double one to
 * float32's resolution; the registry's inverse gives r = e without damping and says NOT REACHABLE below 1 m/s. */
#include "codes_test.h"

static double e_at(const impactfit_stepper *st, double v, double phi) {
  impactfit_step_impact o;
  impactfit_error err;
  int s = impactfit_step_impact_at(st, v, phi, &o, &err);
  CHECK(s == 0, "jolt: impact at %g: %s", phi, s ? err.message : "");
  return s ? NAN : o.e;
}

static void test_jolt_map(void) {
  impactfit_error err;
  for (int pair = 0; pair < 2; pair++)
    for (int f32 = 0; f32 < 2; f32++) {
      ct_request r = ct_make(ct_find("jolt", NULL, NULL, NULL));
      ct_set1(&r, "mLinearDamping", 0.0);
      r.q.integrator = f32 ? "euler-float32" : "euler";
      if (pair) {
        r.q.bodies.r2 = 0.01;
        r.q.bodies.m2 = 8.0 * CT_M5;
      }
      impactfit_stepper st;
      CHECK(impactfit_code_stepper(ct_q(&r), 0.7, &st, &err) == 0, "jolt: stepper: %s", err.message);
      double tol = f32 ? 2e-6 : 1e-12;
      for (int i = 1; i <= 7; i++) {
        CHECK_ABS(e_at(&st, 2.0, i / 8.0), 0.7, tol, "jolt: e = r at phase %g (pair %d, f32 %d)", i / 8.0, pair, f32);
        CHECK_ABS(e_at(&st, 0.8, i / 8.0), 0.0, 1e-6, "jolt: e = 0 below 1 m/s (phase %g, pair %d)", i / 8.0, pair);
      }
    }
  /* the default damping 0.05 1/s: the rebound scaled by 1 - c dt for each step with a row */
  ct_request r = ct_make(ct_find("jolt", NULL, NULL, NULL));
  impactfit_stepper st;
  CHECK(impactfit_code_stepper(ct_q(&r), 0.7, &st, &err) == 0, "jolt: stepper: %s", err.message);
  double k = 1.0 - 0.05 / 60.0;
  for (int i = 1; i <= 7; i++) {
    double e = e_at(&st, 2.0, i / 8.0);
    CHECK(e <= 0.7 * (1.0 + 1e-12) && e >= 0.7 * k * k * (1.0 - 1e-12), "jolt: damped e %.12g at phase %g", e, i / 8.0);
  }
  /* body 2's mRestitution larger: the contact takes it */
  ct_set(&r, "mRestitution", 2, 0.3, 0.9);
  ct_set1(&r, "mLinearDamping", 0.0);
  CHECK(impactfit_code_stepper(ct_q(&r), 0.3, &st, &err) == 0, "jolt: stepper: %s", err.message);
  CHECK_ABS(e_at(&st, 2.0, 0.5), 0.9, 1e-12, "jolt: the larger of 0.3 and the ground's 0.9");
}

static void test_jolt_registry(void) {
  impactfit_error err;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  ct_request r = ct_make(ct_find("jolt", NULL, NULL, NULL));
  ct_set1(&r, "mLinearDamping", 0.0);
  r.q.e = 0.6;
  r.q.v = 2.0;
  CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "jolt: e 0.6 at 2 m/s: %s", err.message);
  CHECK_ABS(a.value, 0.6, 1e-9, "jolt: the inverse r = e without damping");
  CHECK_ABS(a.e, 0.6, 1e-9, "jolt: the answer's mean");
  CHECK_ABS(a.e_naive, 0.6, 1e-12, "jolt: the naive r = e");
  CHECK(a.run_here && strstr(a.input, "0.6"), "jolt: pasted: %s", a.input);
  r.q.v = 0.9;
  CHECK(ct_solve(&r, &a, &err) == 0 && !a.reachable && strstr(a.note, "NOT REACHABLE") == a.note,
        "jolt: e 0.6 at 0.9 m/s out of reach: %s", a.note);
  impactfit_code_answer_free(&a);
}

int main(void) {
  test_jolt_map();
  test_jolt_registry();
  return tu_report("test_jolt");
}
