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

/* The free approach through the prediction distance taken at once (the type's affine map: x + dt u, u/(1 + dt c)
 * a step) against the same step map computed one by one (the type without it): at every phase e within 1e-13
 * (the rounding of a closed-form power against that of 2e4 additions), the same steps from the first that acted,
 * contact steps and signature; with and without linear damping (whose flight loss enters e), a plane and a pair,
 * at the default step and far below it (2e4 steps of approach). */
static void rapier_flight(void) {
  impactfit_stepper_type plain = impactfit__stepper_rapier;
  plain.affine = NULL;
  static const double dts[3] = {1.0 / 60.0, 1e-4, 1e-6}, rs[2] = {0.3, 0.8}, vs[2] = {1.0, 0.37}, cs[2] = {0.0, 2.0};
  double worst = 0.0;
  for (int id = 0; id < 3; id++)
    for (int ir = 0; ir < 2; ir++)
      for (int iv = 0; iv < 2; iv++)
        for (int ic = 0; ic < 2; ic++) {
          impactfit_stepper fast, slow;
          impactfit__rapier_stepper(&fast, ic ? 0.5 * M : M, dts[id], !ic, rs[ir]);
          fast.p[IMPACTFIT__RAPIER_DAMPING] = cs[ic];
          slow = fast;
          slow.type = &plain;
          for (int i = 0; i < 5; i++) {
            double phi = (i + 0.5) / 5.0 + 0.013 * id;
            impactfit_step_impact a, b;
            impactfit_error err;
            int sa = impactfit_step_impact_at(&fast, vs[iv], phi, &a, &err);
            int sb = sa ? 1 : impactfit_step_impact_at(&slow, vs[iv], phi, &b, &err);
            CHECK(sa == 0 && sb == 0, "rapier flight: dt %g phi %g: %s", dts[id], phi, err.message);
            if (sa || sb)
              continue;
            double d = fabs(a.e - b.e);
            worst = d > worst ? d : worst;
            CHECK(d <= 1e-13, "rapier flight: dt %g r %g v %g c %g phi %g: e %.17g at once, %.17g stepped", dts[id],
                  rs[ir], vs[iv], cs[ic], phi, a.e, b.e);
            CHECK(a.steps == b.steps && a.contact_steps == b.contact_steps && a.signature == b.signature,
                  "rapier flight: dt %g phi %g: steps %ld/%ld, contact %ld/%ld, signatures %s", dts[id], phi, a.steps,
                  b.steps, a.contact_steps, b.contact_steps, a.signature == b.signature ? "equal" : "differ");
            if (ic)
              CHECK(a.e < rs[ir] * (1.0 - 0.5 * 0.02 / vs[iv] * cs[ic] * 0.5),
                    "rapier flight: the damping's flight loss enters e (got %.17g)", a.e);
          }
        }
  printf("test_rapier: the approach at once against stepped: e within %.3g\n", worst);
}

/* An approach of more than 1e6 steps (0.1 m/s at dt 1e-7 s: 2e6 steps in the prediction distance), refused once
 * ("the engine acts 0.02 m before touching"): taken at once, e = r at every phase (the closed form, no damping);
 * the type without its affine map still says why it cannot step it one by one */
static void rapier_long_flight(void) {
  impactfit_stepper_type plain = impactfit__stepper_rapier;
  plain.affine = NULL;
  impactfit_stepper st;
  impactfit__rapier_stepper(&st, 0.1, 1e-7, 1, 0.5);
  for (int i = 0; i < 3; i++)
    CLOSE(e_at(&st, 0.1, 0.2 + 0.3 * i), 0.5, 1e-12, "rapier: e = r after 2e6 steps of approach");
  st.type = &plain;
  impactfit_step_impact o;
  impactfit_error err;
  int rc = impactfit_step_impact_at(&st, 0.1, 0.5, &o, &err);
  CHECK(rc == IMPACTFIT_EINVAL && strstr(err.message, "no affine approach"), "rapier: stepped one by one: %s",
        rc ? err.message : "ok");
}

int main(void) {
  rapier();
  rapier_long_flight();
  rapier_flight();
  rapier_registry();
  return tu_report("test_rapier");
}
