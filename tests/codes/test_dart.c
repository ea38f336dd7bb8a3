/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DART 6.12.1 in the code registry (src/codes/dart.c; the engine itself: tests/engines/dart_impacts.cpp), against
 * the one-row step derived here from ContactConstraint.cpp:501-549 and the LCP of one row:
 *  - above the bouncing threshold (r v > 0.1 m/s) the first contact step's row asks b = u + r u (the bounce beats
 *    the penetration correction, at most 1e-3 m/s), the LCP's diagonal is (1/M)(1 + CFM), so the impulse is
 *    M (1 + r) u/(1 + CFM) and the bodies leave at u (r − CFM)/(1 + CFM); a next step that still starts in
 *    contact has b = −e u + correction < 0 (no impulse): e = (r − CFM)/(1 + CFM) at every phase, step and speed,
 *    on a ground and for two spheres (M = m1 m2/(m1 + m2));
 *  - below it (r v <= 0.1 m/s) the only push is the correction, at most maxERV: 0 <= e <= maxERV/v;
 *  - the registry: the contact's r is the product of the two shapes' coefficients (the ground's default 1 in the
 *    registry, DART's own 0 gives no bounce), the inverse meets the asked e with r = e (1 + CFM) + CFM, the naive
 *    input r = e gives (e − CFM)/(1 + CFM), and an e between the threshold's two sides is refused (the mean jumps). */
#include "codes_test.h"

static const double CFM = 1e-5;

static double e_at(const impactfit_stepper *st, double v, double phi) {
  impactfit_step_impact o;
  impactfit_error err;
  int s = impactfit_step_impact_at(st, v, phi, &o, &err);
  CHECK(s == 0, "dart: impact at %g: %s", phi, s ? err.message : "");
  return s ? NAN : o.e;
}

static void test_dart_bounce(void) {
  impactfit_error err;
  static const double dts[3] = {1e-3, 5e-4, 4e-3}, vs[3] = {0.5, 1.0, 2.0}, rs[3] = {0.3, 0.6, 0.95};
  for (int pair = 0; pair < 2; pair++)
    for (int k = 0; k < 3; k++) {
      ct_request r = ct_make(ct_find("dart", NULL, NULL, NULL));
      r.q.dt = dts[k];
      if (pair) {
        r.q.bodies.r2 = 0.02;
        r.q.bodies.m2 = 4.0 * CT_M5;
      }
      impactfit_stepper st;
      CHECK(impactfit_code_stepper(ct_q(&r), rs[k], &st, &err) == 0, "dart: stepper: %s", err.message);
      double M = pair ? CT_M5 * 4.0 * CT_M5 / (5.0 * CT_M5) : CT_M5;
      CHECK_REL(st.mass, M, 1e-15, "dart: the effective mass (pair %d)", pair);
      double want = (rs[k] - CFM) / (1.0 + CFM);
      for (int j = 0; j < 3; j++)
        for (int i = 1; i <= 7; i++)
          CHECK_ABS(e_at(&st, vs[j], i / 8.0), want, 1e-14, "dart: e(%g) at r %g, v %g, dt %g, pair %d", i / 8.0, rs[k],
                    vs[j], dts[k], pair);
      impactfit_step_stats S;
      CHECK(impactfit_step_phase_stats(&st, vs[k], &S, &err) == 0, "dart: stats");
      CHECK_ABS(S.e_mean, want, 1e-14, "dart: mean at r %g", rs[k]);
      CHECK_ABS(S.e_max - S.e_min, 0.0, 1e-14, "dart: no spread over the phase");
    }
}

static void test_dart_threshold(void) {
  impactfit_error err;
  ct_request r = ct_make(ct_find("dart", NULL, NULL, NULL));
  impactfit_stepper st;
  /* r v = 0.5 x 0.15 = 0.075 m/s: no bounce, only the correction (at most 1e-3 m/s) */
  CHECK(impactfit_code_stepper(ct_q(&r), 0.5, &st, &err) == 0, "dart: stepper");
  for (int i = 1; i <= 7; i++) {
    double e = e_at(&st, 0.15, i / 8.0);
    CHECK(e >= 0.0 && e <= 1e-3 / 0.15 * (1.0 + 1e-12), "dart: below the threshold e(%g) = %.6g in [0, maxERV/v]",
          i / 8.0, e);
  }
  /* just above it: 0.5 x 0.2001 = 0.10005 > 0.1 */
  CHECK_ABS(e_at(&st, 0.2001, 0.5), (0.5 - CFM) / (1.0 + CFM), 1e-14, "dart: just above the threshold");
  /* a coefficient below 1e-3: no bounce at any speed */
  CHECK(impactfit_code_stepper(ct_q(&r), 5e-4, &st, &err) == 0, "dart: stepper");
  CHECK(e_at(&st, 1000.0, 0.5) <= 1e-3 / 1000.0 * (1.0 + 1e-12), "dart: r <= 1e-3 never bounces");
}

static void test_dart_registry(void) {
  impactfit_error err;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  ct_request r = ct_make(ct_find("dart", NULL, NULL, NULL));
  r.q.e = 0.5;
  r.q.v = 1.5;
  CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "dart: e 0.5: %s", err.message);
  CHECK_REL(a.value, 0.5 * (1.0 + CFM) + CFM, 1e-10, "dart: r = e (1 + CFM) + CFM");
  CHECK_ABS(a.e, 0.5, 1e-10, "dart: the answer's mean");
  CHECK_ABS(a.e_naive, (0.5 - CFM) / (1.0 + CFM), 1e-14, "dart: the naive r = e");
  CHECK(a.run_here && strstr(a.input, "setRestitutionCoeff(1)") && strstr(a.note, "CFM"),
        "dart: run here, the ground's 1 pasted, the CFM said: %s", a.note);
  /* the ground's coefficient 0.5: the product halves body 1's; the inverse doubles it */
  ct_set1(&r, "restitutionCoeff", 0.5);
  r.set[r.q.n_settings - 1].body = 2; /* the ground's alone */
  CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "dart: ground 0.5: %s", err.message);
  CHECK_REL(a.value, 2.0 * (0.5 * (1.0 + CFM) + CFM), 1e-10, "dart: the product with the ground's 0.5");
  /* out of reach: at 0.15 m/s r must exceed 0.1/0.15 to bounce, so the means jump from <= maxERV/v = 0.0067
   * (the correction's speed) to (0.1/0.15 - CFM)/(1 + CFM) = 0.666660: the stepped inverse finds the jump and the
   * answer says NOT REACHABLE first, with the jump's two sides (no single reachable range, no value); at 0.1
   * m/s only r > 1 bounces, e > 0.99998 */
  static const double vs[2] = {0.15, 0.1};
  for (int k = 0; k < 2; k++) {
    ct_request u = ct_make(ct_find("dart", NULL, NULL, NULL));
    u.q.e = 0.5;
    u.q.v = vs[k];
    int s = ct_solve(&u, &a, &err);
    const char *j = s ? NULL : strstr(a.note, "jumps across 0.5 near the value ");
    double at = NAN, below = NAN, above = NAN;
    CHECK(s == 0 && !a.reachable && strstr(a.note, "NOT REACHABLE at dt = 0.001 s with euler: ") == a.note && j &&
              sscanf(j, "jumps across 0.5 near the value %lf, from %lf to %lf", &at, &below, &above) == 3,
          "dart: e 0.5 at %g m/s across the threshold's jump: %d %s", vs[k], s, s ? err.message : a.note);
    double rj = 0.1 / vs[k];
    CHECK_REL(at, rj, 1e-9, "dart: the jump at r v = 0.1 m/s (%g m/s)", vs[k]);
    CHECK(below >= 0.0 && below <= 1e-3 / vs[k] * (1.0 + 1e-12), "dart: below the jump e %.9g <= maxERV/v", below);
    CHECK_REL(above, (rj - CFM) / (1.0 + CFM), 1e-8, "dart: above the jump e = (r - CFM)/(1 + CFM) (%g m/s)", vs[k]);
    CHECK(isnan(a.e_reach_min) && isnan(a.e_reach_max) && !a.input[0], "dart: no reachable range, no paste text");
  }
  /* forward at the shape's default restitution 0 (no bounce below the threshold: r b = 0): the same answer as at
   * 1e-300, e = maxERV/v where the correction pushes the sphere out, 0 where the step's contact ends at rest */
  impactfit_code_answer z, t;
  memset(&z, 0, sizeof z);
  memset(&t, 0, sizeof t);
  ct_request f = ct_make(ct_find("dart", NULL, NULL, NULL));
  f.q.v = 1.0;
  f.q.value = 0.0;
  int s0 = ct_solve(&f, &z, &err);
  CHECK(s0 == 0, "dart: forward at restitution 0: %s", s0 ? err.message : "");
  f.q.value = 1e-300;
  CHECK(ct_solve(&f, &t, &err) == 0 && s0 == 0 && z.e == t.e && z.e_min == t.e_min && z.e_max == t.e_max,
        "dart: restitution 0 as 1e-300: e %.17g [%g, %g] vs %.17g", z.e, z.e_min, z.e_max, t.e);
  CHECK(s0 == 0 && z.e_max <= 1e-3 * (1.0 + 1e-12) && z.e_min >= 0.0, "dart: restitution 0: e within [0, maxERV/v]");
  /* the mean against the midpoint rule on 20000 phases (e(φ) rises linearly to maxERV/v and stays there, one kink:
   * the rule's error below 1e-12). The correction's number of steps changes with φ, so that the signature changes
   * between almost every two phases: the bisection of each change stopped at 4096 of them, and the pieces' rules
   * over the kinks left were 4.9e-9 off (0.000949509974 against 0.000949505099); e alone places the breaks now */
  impactfit_stepper st;
  f.q.value = 0.0;
  if (impactfit_code_stepper(ct_q(&f), 0.0, &st, &err) == 0) {
    enum { N = 20000 };
    double sum = 0.0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
      impactfit_step_impact o;
      bad += impactfit_step_impact_at(&st, 1.0, (i + 0.5) / N, &o, &err) != 0;
      sum += o.e;
    }
    CHECK(bad == 0, "dart: the midpoint rule's impacts");
    CHECK_ABS(z.e, sum / N, 1e-11, "dart: restitution 0 at 1 m/s: the mean against the midpoint rule on %d phases", N);
  } else
    CHECK(0, "dart: the stepper at 0: %s", err.message);
  impactfit_code_answer_free(&z);
  impactfit_code_answer_free(&t);
  impactfit_code_answer_free(&a);
}

int main(void) {
  test_dart_bounce();
  test_dart_threshold();
  test_dart_registry();
  return tu_report("test_dart");
}
