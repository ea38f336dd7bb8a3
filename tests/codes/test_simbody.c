/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Simbody in the code registry (src/codes/simbody.c): the law against the source's formulas (HuntCrossleyForce
 * and the compliant contact subsystem of Simbody 3.7: K = (4/3) √R k^(3/2) with the surfaces' stiffness^(2/3) in
 * series, n = m = 3/2, λ = (3/2) c K), the inverse against hc.h's exact relation (1 + ε)/(1 − e ε) = exp(ε (1 +
 * e)) with ε = (3/2) c v; its integrators take no time step (continuous time). The engine itself: tests/engines/
 * simbody_impact.cpp. */
#include "codes_test.h"

static void test_simbody_law(void) {
  const char *models[] = {"HuntCrossleyForce", "CompliantContactSubsystem"};
  for (int mi = 0; mi < 2; mi++) {
    const impactfit_code_model *md = ct_find("simbody", NULL, models[mi], NULL);
    if (!md)
      return;
    int continuous = md->n_integrators == 5;
    for (int i = 0; i < md->n_integrators; i++)
      continuous &= md->integrators[i].stepper == NULL;
    CHECK(md->run_min && continuous && !strcmp(md->integrators[0].name, "rkmerson"), "%s: run here, continuous time",
          models[mi]);
    for (int plane = 1; plane >= 0; plane--) {
      ct_request r = ct_make(md);
      if (!plane) {
        r.q.bodies.r2 = 0.012;
        r.q.bodies.m2 = 0.02;
      }
      double E1 = 2e9, E2 = 5e7, c = 0.37;
      ct_set(&r, "stiffness", 2, E1, E2);
      impactfit_stepper st;
      impactfit_error err;
      int s = impactfit_code_stepper(ct_q(&r), c, &st, &err);
      CHECK(s == 0, "%s stepper: %s", models[mi], s ? err.message : "");
      double R = plane ? CT_R5 : CT_R5 * 0.012 / (CT_R5 + 0.012), M = plane ? CT_M5 : CT_M5 * 0.02 / (CT_M5 + 0.02);
      double kc = 1.0 / (pow(E1, -2.0 / 3.0) + pow(E2, -2.0 / 3.0)); /* k1 k2/(k1 + k2), ki = Ei^(2/3) */
      double K = 4.0 / 3.0 * sqrt(R) * pow(kc, 1.5);
      CHECK(st.type == NULL && st.law.type == impactfit_law_power, "%s: continuous, power", models[mi]);
      CHECK_REL(st.law.p[0], K, 1e-13, "%s plane=%d: K", models[mi], plane);
      CHECK(st.law.p[1] == 1.5 && st.law.p[3] == 1.5, "%s: n = m = 3/2", models[mi]);
      CHECK_REL(st.law.p[2], 1.5 * c * K, 1e-13, "%s plane=%d: lambda = 1.5 c K", models[mi], plane);
      CHECK_REL(st.mass, M, 1e-15, "%s plane=%d: M", models[mi], plane);
      CHECK(st.end == impactfit_transition_C, "%s: clamped at zero", models[mi]);
    }
  }
}

/* The inverse against hc.h: c = ε(e)/(1.5 v), e independent of the stiffness, the masses and the radii;
 * the naive c = (1 − e)/v gives e(ε = 1.5 (1 − e)). */
static void test_simbody_solve(void) {
  const impactfit_code_model *md = ct_find("simbody", "3.7", "HuntCrossleyForce", NULL);
  if (!md)
    return;
  double es[] = {0.1, 0.3, 0.5, 0.7, 0.9}, vs[] = {0.3, 1.0, 3.0};
  impactfit_code_answer a = {0};
  impactfit_error err;
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 3; j++) {
      ct_request r = ct_make(md);
      r.q.e = es[i];
      r.q.v = vs[j];
      if (j == 1) { /* two unequal spheres, other stiffnesses */
        r.q.bodies.r2 = 0.02;
        r.q.bodies.m2 = 0.05;
        ct_set(&r, "stiffness", 2, 3e9, 2e6);
      }
      int s = ct_solve(&r, &a, &err);
      CHECK(s == 0 && a.reachable, "simbody solve e=%g v=%g: %s", es[i], vs[j], s ? err.message : "");
      double eps, e_naive;
      impactfit_hc_eps(es[i], &eps, NULL);
      impactfit_hc_e(1.5 * (1.0 - es[i]), &e_naive, NULL);
      CHECK_REL(a.value, eps / (1.5 * vs[j]), 1e-8, "simbody c for e=%g v=%g = eps(e)/(1.5 v)", es[i], vs[j]);
      CHECK_ABS(a.e, es[i], 1e-9, "simbody e_mean");
      CHECK(a.e_min == a.e && a.e_max == a.e && a.e_continuous == a.e && isnan(a.dt) && a.stepped,
            "simbody: continuous answer (min = max = mean = continuous, dt NaN)");
      CHECK_REL(a.naive_value, (1.0 - es[i]) / vs[j], 1e-15, "simbody naive c = (1 - e)/v");
      CHECK_ABS(a.e_naive, e_naive, 2e-10, "simbody naive e = e_HC(1.5 (1 - e)) for e=%g", es[i]);
    }
  /* the literature's c typed in at 1 m/s (Hunt-Crossley; Lankarani-Nikravesh c = (1 - e^2)/(2 v)), from hc.h:
   * 0.516/0.663/0.909 and 0.665/0.725/0.913 to 3 digits */
  double hc_fig[] = {0.516, 0.663, 0.909}, ln_fig[] = {0.665, 0.725, 0.913}, e3[] = {0.1, 0.5, 0.9};
  for (int i = 0; i < 3; i++) {
    double eh, el;
    impactfit_hc_e(1.5 * (1.0 - e3[i]), &eh, NULL);
    impactfit_hc_e(0.75 * (1.0 - e3[i] * e3[i]), &el, NULL);
    CHECK_ABS(eh, hc_fig[i], 5e-4, "Hunt-Crossley's c typed in for e = %g", e3[i]);
    CHECK_ABS(el, ln_fig[i], 5e-4, "Lankarani-Nikravesh's c typed in for e = %g", e3[i]);
  }
  /* a continuous-time integrator takes no dt; unknown integrators are listed */
  ct_request r = ct_make(md);
  r.q.e = 0.5;
  r.q.dt = 1e-4;
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "takes no time step"),
        "simbody refuses a dt: %s", err.message);
  r.q.dt = NAN;
  r.q.integrator = "rk4";
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "rkmerson"),
        "simbody lists its integrators: %s", err.message);
  /* RungeKuttaFeldberg's note gives e = 1/(1.5 c v) (picked by the integrator table, not its name) */
  r.q.integrator = "rkfeldberg";
  CHECK(ct_solve(&r, &a, &err) == 0 && strstr(a.note, "1/(1.5 c v)"), "rkfeldberg note: %.900s", a.note);
  /* the compliant contact subsystem has no default stiffness */
  r.q.model = ct_find("simbody", NULL, "CompliantContactSubsystem", NULL);
  r.q.integrator = NULL;
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "stiffness"),
        "ContactMaterial needs a stiffness: %s", err.message);
  /* forward: the user's dissipation */
  r.q.model = md;
  r.q.e = NAN;
  ct_set1(&r, "dissipation", 0.5);
  CHECK(ct_solve(&r, &a, &err) == 0, "simbody forward: %s", err.message);
  double e05;
  impactfit_hc_e(0.75, &e05, NULL);
  CHECK_ABS(a.e, e05, 2e-10, "simbody forward dissipation 0.5 at 1 m/s");
  impactfit_code_answer_free(&a);
}

int main(void) {
  test_simbody_law();
  test_simbody_solve();
  return tu_report("test_simbody");
}
