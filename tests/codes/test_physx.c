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

/* The approach through the contact distance taken at once (the type's affine map: x + h u, no impulse while the
 * bias 0.8 gap/h is at least u) against the same map stepped one by one (its type without it): the same steps,
 * contact steps and signature, e within 1e-14 (a slowed phase's e = r 0.8 gap/(h v) carries the rounding of the
 * stepped sum of the x + h u: within 8 n ulp(0.04)/(v h) of it, n the steps), for a plane and a pair, below and
 * above the threshold, from the default step down to 1e-6 s (4e4 steps at 1 m/s) */
static void physx_approach(void) {
  impactfit_stepper_type plain = impactfit__stepper_physx;
  plain.affine = NULL;
  static const double dts[4] = {1.0 / 60.0, 1e-4, 1e-5, 1e-6}, vs[3] = {1.0, 2.25, 3.0};
  double worst = 0.0;
  for (int id = 0; id < 4; id++)
    for (int pair = 0; pair < 2; pair++) {
      impactfit_stepper fast, slow;
      impactfit__physx_stepper(&fast, M, (double)(float)dts[id], !pair, 0.6);
      slow = fast;
      slow.type = &plain;
      for (int iv = 0; iv < 3; iv++)
        for (int i = 0; i < 7; i++) {
          double phi = (i + 0.5) / 7.0 + 0.013 * id;
          impactfit_step_impact a, b;
          impactfit_error err;
          int sa = impactfit_step_impact_at(&fast, vs[iv], phi, &a, &err);
          int sb = sa ? 1 : impactfit_step_impact_at(&slow, vs[iv], phi, &b, &err);
          CHECK(sa == 0 && sb == 0, "physx approach: dt %g phi %g: %s", dts[id], phi, err.message);
          if (sa || sb)
            continue;
          double d = fabs(a.e - b.e), n = (double)b.steps;
          double tol = 1e-14 + (b.e != 0.0 && b.e != 0.6 ? 8.0 * n * 0x1p-57 / (vs[iv] * fast.dt) : 0.0);
          worst = d > worst ? d : worst;
          CHECK(d <= tol, "physx approach: dt %g v %g pair %d phi %g: e %.17g at once, %.17g stepped (tol %.3g)",
                dts[id], vs[iv], pair, phi, a.e, b.e, tol);
          CHECK(a.steps == b.steps && a.contact_steps == b.contact_steps && a.signature == b.signature,
                "physx approach: dt %g v %g phi %g: steps %ld/%ld, contact %ld/%ld, signatures %s", dts[id], vs[iv],
                phi, a.steps, b.steps, a.contact_steps, b.contact_steps,
                a.signature == b.signature ? "equal" : "differ");
          CHECK(a.work < b.work || 0.04 / (vs[iv] * fast.dt) < 32.0,
                "physx approach: dt %g: work %ld at once, %ld stepped", dts[id], a.work, b.work);
          /* at the small steps the slowed share is gone from most phases: e = r above, 0 below the threshold */
          if (id == 3 && b.e != 0.0 && b.e != 0.6)
            CHECK(vs[iv] > 2.0, "physx approach: v %g phi %g: e %.17g below the threshold", vs[iv], phi, b.e);
          if (iv == 0)
            CHECK(b.e == 0.0, "physx approach: v 1 dt %g phi %g: e %.17g, want 0", dts[id], phi, b.e);
        }
    }
  printf("test_physx: the approach at once against stepped: e within %.3g\n", worst);
}

/* An approach through the contact distance longer than the step limit (1e6 steps): 0.04 m at 0.1 m/s and 1e-7 s
 * is 4e6 steps, 0.01 m/s 4e7; taken at once with no force, it is not counted against the limit (it was refused as
 * "the bodies stick"): e = 0 below the threshold at every phase, and the mean 0; above it (3 m/s: 1.3e5 steps)
 * e = r at the phases that close within a step, r 0.8 (2 - phi) at the slowed ones; the work stays a few
 * evaluations a phase */
static void physx_long_approach(void) {
  impactfit_stepper st;
  impactfit__physx_stepper(&st, M, 1e-7, 1, 0.6);
  static const double vs[3] = {0.1, 0.01, 3.0};
  for (int iv = 0; iv < 3; iv++)
    for (int i = 0; i < 4; i++) {
      double phi = 0.1 + 0.25 * i;
      impactfit_step_impact o;
      impactfit_error err;
      int s = impactfit_step_impact_at(&st, vs[iv], phi, &o, &err);
      CHECK(s == 0, "physx long approach: v %g phi %g: %s", vs[iv], phi, s ? err.message : "");
      if (s)
        continue;
      /* above: the slowed branch at phi > 0.75 (physx()), its gap carries the rounding of x + n h u near 0.04 m
       * (ulp 6.9e-18 m) against v h = 3e-7 m */
      double want = vs[iv] < 2.0 ? 0.0 : phi > 0.75 ? 0.6 * 0.8 * (2.0 - phi) : 0.6;
      CLOSE(o.e, want, vs[iv] < 2.0 ? 0.0 : 1e-10, "physx long approach: v %g phi %g", vs[iv], phi);
      CHECK(o.work < 200, "physx long approach: v %g phi %g: work %ld", vs[iv], phi, o.work);
    }
  CLOSE(mean_of(&st, 0.1), 0.0, 1e-15, "physx long approach: the mean at 0.1 m/s");
}

int main(void) {
  physx();
  physx_long_approach();
  physx_approach();
  physx_registry();
  return tu_report("test_physx");
}
