/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Engines' time steps as steppers (include/impactfit/stepper.h), against results derived here:
 *   - the Euler and RK4 step maps of a linear law, entry by entry from the equations written out in
 *     the test, and their spectral radius against the Jacobian of the stepper measured by differences;
 *   - the spectral radius of semi-implicit Euler on f = k δ + c δ' crosses 1 at h²a + 2hb = 4 (Jury's
 *     conditions for λ² − (2 − h²a − hb)λ + (1 − hb) = 0), a = k/M, b = c/M; the largest stable step
 *     (radius ≤ 1 and every e ≤ 1) lies at or below it, stable just below and not just above;
 *   - dt → 0: e over the phase converges to the law's continuous-time e (law.h), at first order in dt
 *     for Euler (the error halves with dt);
 *   - the exact piecewise mean over φ against a 40000-point midpoint rule (its error is at most the jumps of e(φ) times 1/80000);
 *   - the inverse on the mean: the returned value's mean (by the midpoint rule) is the asked e;
 *   - a blow-up is ENONFINITE or unstable, never a silent number. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

static impactfit_stepper linear(const impactfit_stepper_type *t, double k, double c, double M, double dt,
                                const impactfit_transition *end) {
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  st.type = t;
  st.law = impactfit_law_power_make(k, 1.0, c, 0.0);
  st.end = end;
  st.mass = M;
  st.dt = dt;
  return st;
}

static void test_maps(void) {
  double k = 3e3, c = 2.0, M = 0.05, h = 1e-3, a = k / M, b = c / M;
  for (int t = 0; t < 2; t++) {
    impactfit_stepper st = linear(t ? impactfit_stepper_rk4 : impactfit_stepper_euler, k, c, M, h,
                                  impactfit_transition_A);
    /* the map on a state deep in contact (all RK4 stages in contact) */
    double x = 0.01, u = 0.3;
    impactfit_step_state s = {.x = x, .u = u};
    st.type->step(&st, &s);
    double xe, ue;
    if (!t) {
      ue = u - h * (a * x + b * u);
      xe = x + h * ue;
    } else {
      /* RK4 on x' = u, u' = −a x − b u, written out */
      double k1x = u, k1u = -a * x - b * u;
      double k2x = u + h / 2 * k1u, k2u = -a * (x + h / 2 * k1x) - b * k2x;
      double k3x = u + h / 2 * k2u, k3u = -a * (x + h / 2 * k2x) - b * k3x;
      double k4x = u + h * k3u, k4u = -a * (x + h * k3x) - b * k4x;
      xe = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
      ue = u + h / 6 * (k1u + 2 * k2u + 2 * k3u + k4u);
    }
    CHECK_REL(s.x, xe, 1e-15, "%s map: x", st.type->name);
    CHECK_REL(s.u, ue, 1e-15, "%s map: u", st.type->name);
    /* spectral radius: the type's formula against the Jacobian by differences */
    double J[2][2], eps = 1e-7;
    for (int j = 0; j < 2; j++) {
      impactfit_step_state p = {.x = x + (j == 0 ? eps : 0), .u = u + (j == 1 ? eps : 0)};
      impactfit_step_state m = {.x = x - (j == 0 ? eps : 0), .u = u - (j == 1 ? eps : 0)};
      st.type->step(&st, &p);
      st.type->step(&st, &m);
      J[0][j] = (p.x - m.x) / (2 * eps);
      J[1][j] = (p.u - m.u) / (2 * eps);
    }
    double rho = impactfit_step_spectral_radius(J[0][0], J[0][1], J[1][0], J[1][1]);
    CHECK_REL(st.type->amplification(&st, k, c), rho, 1e-6, "%s spectral radius", st.type->name);
  }
  /* the spectral radius helper on known matrices */
  CHECK_REL(impactfit_step_spectral_radius(0.5, 0, 0, -2), 2.0, 1e-15, "radius of diag(0.5, -2)");
  CHECK_REL(impactfit_step_spectral_radius(0, -1, 1, 0), 1.0, 1e-15, "radius of a rotation");
}

static void test_stable_step(void) {
  double k = 1e3, c = 0.5, M = 1e-3, a = k / M, b = c / M;
  double want = (-b + sqrt(b * b + 4 * a)) / a;
  impactfit_stepper st = linear(impactfit_stepper_euler, k, c, M, 1e-4, impactfit_transition_A);
  double dtm;
  impactfit_error err;
  int s = impactfit_step_max_stable_dt(&st, 1.0, &dtm, &err);
  CHECK(s == 0, "largest stable step: %s", err.message);
  /* the spectral radius crosses 1 at Jury's bound h^2 a + 2 h b = 4 */
  impactfit_stepper sj = st;
  sj.dt = want * (1.0 - 1e-7);
  double r1 = sj.type->amplification(&sj, k, c);
  sj.dt = want * (1.0 + 1e-7);
  double r2 = sj.type->amplification(&sj, k, c);
  CHECK(r1 <= 1.0 && r2 > 1.0, "semi-implicit Euler's spectral radius crosses 1 at h^2 a + 2 h b = 4 (%.12f, %.12f)",
        r1, r2);
  /* stable also needs e <= 1 at every phase (stepper.h): that binds first here (single impacts return
   * e up to about 2 just below Jury's bound), so the largest stable step lies below it, with every e <= 1
   * just below and some e > 1 (or a radius > 1) just above */
  CHECK(dtm <= want * (1.0 + 2e-6), "the largest stable step %g is at most Jury's bound %g", dtm, want);
  impactfit_step_stats Sb, Sa;
  sj.dt = dtm * (1.0 - 1e-4);
  int sb = impactfit_step_phase_stats(&sj, 1.0, &Sb, &err);
  sj.dt = dtm * (1.0 + 1e-4);
  int sa = impactfit_step_phase_stats(&sj, 1.0, &Sa, &err);
  CHECK(sb == 0 && Sb.stable && Sb.e_max <= 1.0 && Sb.rho_max <= 1.0 + 1e-9,
        "just below the largest stable step: every e <= 1 (max %g), radius <= 1", Sb.e_max);
  CHECK(sa == IMPACTFIT_ENONFINITE || (sa == 0 && !Sa.stable), "just above the largest stable step: unstable");
  /* beyond it: unstable, reported */
  st.dt = 1.2 * want;
  impactfit_step_stats S;
  s = impactfit_step_phase_stats(&st, 1.0, &S, &err);
  CHECK(s == IMPACTFIT_ENONFINITE || (s == 0 && !S.stable), "dt above the limit: unstable (status %d, stable %d)", s,
        s ? -1 : S.stable);
}

static double midpoint_mean(const impactfit_stepper *st, double v, int N) {
  double sum = 0.0;
  for (int i = 0; i < N; i++) {
    impactfit_step_impact im;
    if (impactfit_step_impact_at(st, v, (i + 0.5) / N, &im, NULL))
      return NAN;
    sum += im.e;
  }
  return sum / N;
}

static impactfit_law mujoco_law(double tc, double dr) {
  impactfit_law law = {.type = impactfit_law_impedance};
  double dmax = 0.95,
         p[9] = {1.309e-3, 2 / (dmax * tc), 1 / (dmax * dmax * tc * tc * dr * dr), 0.9, 0.95, 0.001, 0.5, 2, 1};
  memcpy(law.p, p, sizeof p);
  return law;
}

static void test_phase_mean(void) {
  const impactfit_stepper_type *types[2] = {impactfit_stepper_euler, impactfit_stepper_rk4};
  for (int t = 0; t < 2; t++)
    for (int c = 0; c < 2; c++) {
      impactfit_stepper st;
      memset(&st, 0, sizeof st);
      st.type = types[t];
      st.mass = 1.309e-3;
      st.dt = 0.002;
      st.end = impactfit_transition_C;
      st.law = c ? mujoco_law(0.02, 1.0) : impactfit_law_power_make(5e3, 1.5, 20.0, 0.5);
      impactfit_step_stats S;
      impactfit_error err;
      if (c == 0)
        st.dt = 2e-4;
      int s = impactfit_step_phase_stats(&st, 1.0, &S, &err);
      CHECK(s == 0, "phase stats %s: %s", st.type->name, err.message);
      double mid = midpoint_mean(&st, 1.0, 40000);
      CHECK_ABS(S.e_mean, mid, 5e-7, "%s %s: exact piecewise mean vs 40000-point midpoint rule (%d pieces)",
                st.type->name, c ? "impedance" : "power", S.pieces);
      CHECK(S.e_min <= S.e_mean && S.e_mean <= S.e_max, "%s: min <= mean <= max", st.type->name);
      printf("%s %s dt=%g: mean %.12g (midpoint %.12g), [%.6g, %.6g], continuous %.10g, %d pieces, %ld impacts\n",
             st.type->name, c ? "impedance" : "power", st.dt, S.e_mean, mid, S.e_min, S.e_max, S.e_continuous, S.pieces,
             S.impacts);
    }
}

static void test_convergence(void) {
  /* Euler: the error of the mean halves with dt (first order); RK4's is smaller */
  impactfit_law law = mujoco_law(0.02, 0.5);
  impactfit_law_impact_params lp = impactfit_law_impact_default_params();
  lp.law = law;
  lp.mass = 1.309e-3;
  impactfit_law_impact_result r;
  impactfit_law_impact_solve(NULL, &lp, &r, NULL);
  double prev = NAN;
  for (int i = 0; i < 3; i++) {
    impactfit_stepper st;
    memset(&st, 0, sizeof st);
    st.type = impactfit_stepper_euler;
    st.law = law;
    st.end = impactfit_transition_C;
    st.mass = 1.309e-3;
    st.dt = 1e-4 / (1 << i);
    impactfit_step_stats S;
    if (impactfit_step_phase_stats(&st, 1.0, &S, NULL))
      continue;
    CHECK_ABS(S.e_continuous, r.e_out, 1e-15, "the continuous limit is law.h's e");
    double errv = fabs(S.e_mean - r.e_out);
    if (i > 0)
      CHECK(errv < 0.65 * prev && errv > 0.35 * prev, "Euler first order: error %.3g after %.3g", errv, prev);
    prev = errv;
  }
  CHECK(prev < 2e-3, "Euler at dt = 2.5e-5: mean within 2e-3 of the continuous e (%.3g)", prev);
}

static int build_dampratio(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  (void)err;
  *st = *(const impactfit_stepper *)ctx;
  st->law = mujoco_law(0.02, value);
  return 0;
}

static void test_inverse(void) {
  impactfit_stepper base;
  memset(&base, 0, sizeof base);
  base.type = impactfit_stepper_euler;
  base.end = impactfit_transition_C;
  base.mass = 1.309e-3;
  base.dt = 0.002;
  const double es[] = {0.1, 0.5, 0.8};
  for (int i = 0; i < 3; i++) {
    double dr;
    impactfit_step_stats S;
    impactfit_error err;
    int s = impactfit_step_solve_mean(build_dampratio, &base, 1.0, es[i], i == 1 ? 0.05 : 1e-3, i == 1 ? 5.0 : 1e2,
                                      i == 1 ? NAN : 0.3, 1e-10, &dr, &S, &err);
    CHECK(s == 0, "inverse on the mean e = %g: %s", es[i], err.message);
    if (s)
      continue;
    CHECK_ABS(S.e_mean, es[i], 1e-10, "inverse: the mean at the returned dampratio");
    impactfit_stepper st;
    build_dampratio(&base, dr, &st, NULL);
    CHECK_ABS(midpoint_mean(&st, 1.0, 20000), es[i], 1e-6, "inverse e = %g: the midpoint-rule mean at dampratio %g",
              es[i], dr);
  }
  double dr;
  impactfit_step_stats S;
  impactfit_error err;
  int s = impactfit_step_solve_mean(build_dampratio, &base, 1.0, 0.999, 1e-1, 1e2, 1.0, 0.0, &dr, &S, &err);
  CHECK(s == IMPACTFIT_ENOROOT && strstr(err.message, "range over"), "unreachable mean: %d %s", s, err.message);
}

static void test_errors(void) {
  impactfit_stepper st = linear(impactfit_stepper_euler, 1.0, 0.0, 1.0, 0.0, NULL);
  impactfit_step_impact im;
  impactfit_error err;
  CHECK(impactfit_step_impact_at(&st, 1.0, 0.5, &im, &err) == IMPACTFIT_EINVAL && strstr(err.message, "dt"),
        "dt = 0 refused: %s", err.message);
  st.dt = 0.1;
  CHECK(impactfit_step_impact_at(&st, 1.0, 0.0, &im, &err) == IMPACTFIT_EINVAL, "phase 0 refused");
  CHECK(impactfit_step_impact_at(&st, 1.0, 1.5, &im, &err) == IMPACTFIT_EINVAL, "phase 1.5 refused");
  st.end = impactfit_transition_B;
  CHECK(impactfit_step_impact_at(&st, 1.0, 0.5, &im, &err) == IMPACTFIT_EINVAL, "condition B refused");
  CHECK(impactfit_stepper_type_from_name("rk4") == impactfit_stepper_rk4, "lookup rk4");
  CHECK(impactfit_stepper_type_from_name("nope") == NULL, "unknown stepper");
  /* parameters by name, on a program's own type found beside the registered ones */
  static const char *const own_names[] = {"gain", "bias"};
  static const char *const own_units[] = {"-", "N"};
  static const impactfit_stepper_type own = {
      .name = "own-euler", .n_params = 2, .param_names = own_names, .param_units = own_units, .needs_law = 1};
  const impactfit_stepper_type *extra[] = {&own};
  CHECK(impactfit_stepper_type_from_name_in("own-euler", extra, 1) == &own &&
            impactfit_stepper_type_from_name_in("rk4", extra, 1) == impactfit_stepper_rk4 &&
            impactfit_stepper_type_from_name_in("own-euler", NULL, 0) == NULL,
        "a program's own stepper by name");
  impactfit_stepper os = {.type = &own};
  double g = 0.0;
  CHECK(impactfit_stepper_param_index(&own, "gain") == 0 && impactfit_stepper_param_index(&own, "bias") == 1 &&
            impactfit_stepper_param_index(&own, "nope") == -1 && impactfit_stepper_param_index(NULL, "gain") == -1,
        "stepper parameters: index by name");
  CHECK(impactfit_stepper_set(&os, "bias", 1e-5, &err) == 0 && os.p[1] == 1e-5 &&
            impactfit_stepper_set(&os, "gain", 0.2, &err) == 0 && impactfit_stepper_get(&os, "gain", &g, &err) == 0 &&
            g == 0.2,
        "stepper parameters: set and get by name");
  CHECK(impactfit_stepper_set(&os, "Gain", 0.2, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "no parameter 'Gain'") && strstr(err.message, "gain, bias"),
        "unknown stepper parameter: %s", err.message);
  os.type = impactfit_stepper_rk4;
  CHECK(impactfit_stepper_set(&os, "x", 1.0, &err) == IMPACTFIT_EINVAL && strstr(err.message, "none"),
        "rk4 has no parameters: %s", err.message);
  /* a violently unstable step blows up: ENONFINITE with a message, or reported unstable */
  st = linear(impactfit_stepper_euler, 1e6, 0.0, 1e-3, 0.01, impactfit_transition_A);
  int s = impactfit_step_impact_at(&st, 1.0, 0.5, &im, &err);
  CHECK(s == IMPACTFIT_ENONFINITE || (s == 0 && im.rho_max > 1.0), "unstable step: %d rho %g", s, im.rho_max);
}

int main(void) {
  test_maps();
  test_stable_step();
  test_phase_mean();
  test_convergence();
  test_inverse();
  test_errors();
  return tu_report("test_stepper");
}
