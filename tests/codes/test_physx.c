/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PhysX 4.1 in the code registry (src/codes/physx.c; the engine itself: tests/engines/physx_impacts.c), against the
 * closed forms of its step derived by hand: above bounceThresholdVelocity (0.2 PxTolerancesScale.speed, 2 m/s
 * by default) e = r at the phases whose step closes the gap, 0.8 gap/h for the slowed ones; below it e = 0;
 * the registry's inverse then meets e with r = e above the threshold and says NOT REACHABLE below it. */
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

/* PhysX: above the threshold the bounce gives r u at the step whose start gap closes within it; below it the
 * speculative bias closes 0.8 of the gap per step: e = 0; a step starting inside the contact distance with
 * u h < gap < 1.25 u h slows the body to 0.8 gap/h, which bounces next: e = r 0.8 gap/(h v) */
static void physx(void) {
  impactfit_stepper st;
  impactfit__physx_stepper(&st, M, 1.0 / 60.0, 1, 0.6);
  for (int i = 1; i <= 5; i++) {
    CLOSE(e_at(&st, 3.0, 0.2 * i - 0.05), 0.6, 1e-12, "physx: e = r above the threshold");
    CLOSE(e_at(&st, 1.0, 0.2 * i - 0.05), 0.0, 1e-12, "physx: e = 0 below the threshold");
  }
  /* the slowed branch: v = 2.25, h = 2^-10 (v h = 2.197e-3); a step start gap g = (J - k - phi) v h in
   * [v h, 1.25 v h) exists for phi in (0.75, 1) (g = (1 + 1 - phi)... the step two before touching) */
  impactfit__physx_stepper(&st, M, 0x1p-10, 1, 0.5);
  double v = 2.25, h = 0x1p-10;
  for (int i = 0; i < 3; i++) {
    double phi = 0.8 + 0.05 * i, g = (2.0 - phi) * v * h, slowed = 0.8 * g / h;
    /* the slowed speed bounces when it exceeds 2 m/s */
    double want = slowed > 2.0 ? 0.5 * slowed / v : 0.0;
    CLOSE(e_at(&st, v, phi), want, 1e-12, "physx: the slowed branch");
  }
  /* the threshold moves with PxTolerancesScale.speed: 0.2 speed */
  impactfit__physx_stepper(&st, M, 1.0 / 60.0, 0, 0.5);
  st.p[IMPACTFIT__PHYSX_THRESHOLD] = 0.2;
  CLOSE(e_at(&st, 1.0, 0.5), 0.5, 1e-12, "physx: speed 1 lowers the threshold to 0.2 m/s");
}

/* the entry: r = e above the 2 m/s threshold, out of reach below it, reachable there with speed 1 (0.2 m/s) */
static void physx_registry(void) {
  impactfit_error err;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  ct_request r = ct_make(ct_find("physx", NULL, NULL, NULL));
  r.q.e = 0.6;
  r.q.v = 3.0;
  CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "physx: e 0.6 at 3 m/s: %s", err.message);
  CLOSE(a.e, 0.6, 1e-9, "physx: the answer's mean");
  /* a mean of 0.6 with e = r at the closing phases and less at the slowed ones: r >= 0.6, within the slowed share */
  CHECK(a.value >= 0.6 - 1e-12 && a.value <= 0.6 / 0.75, "physx: r = %.12g for mean 0.6", a.value);
  CLOSE(a.e_naive, 0.3, 0.3 * 0.25, "physx: the naive input (eAVERAGE with a ground at 0) gives about e/2");
  r.q.v = 1.0;
  CHECK(ct_solve(&r, &a, &err) == 0 && !a.reachable && strstr(a.note, "NOT REACHABLE") == a.note,
        "physx: e 0.6 at 1 m/s below the threshold: %s", a.note);
  ct_set1(&r, "speed", 1.0);
  CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "physx: speed 1 at 1 m/s: %s", err.message);
  CLOSE(a.e, 0.6, 1e-9, "physx: speed 1's mean");
  impactfit_code_answer_free(&a);
}

int main(void) {
  physx();
  physx_registry();
  return tu_report("test_physx");
}
