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
 *   - a blow-up is ENONFINITE or unstable, never a silent number;
 *   - Euler on a linear law (flat impedance d0 = dwidth, no clamp: condition A) is the linear map
 *     z_{k+1} = A z_k, A = [[1 − h²a, h(1 − hb)], [−ha, 1 − hb]] (a = K d², b = B d): z_k = A^k z_0 from
 *     A's eigenvalues, A^k = (λ1^k (A − λ2 I) − λ2^k (A − λ1 I))/(λ1 − λ2). The contact starts at
 *     x_0 = φ v h, u_0 = v and lasts N(φ) steps, N the first k with x_k ≤ 0; e(φ) = −u_N/v is linear in
 *     φ between the roots of x_k(φ) = 0, so the exact mean over φ is a sum of midpoint values;
 *   - RK4 one step in contact on the same law: P = Σ_{j≤4} (hC)^j/j!, C = [[0, 1], [−a, −b]];
 *   - the amplification functions at the classical stability bounds: symplectic Euler's eigenvalues
 *     leave the unit disc at h² a + 2 h b = 4 (Schur–Cohn: trace = 2 − hb − h²a ≥ −(1 + det),
 *     det = 1 − hb); RK4 on an undamped oscillator at h ω = 2√2 (|R(iy)| = 1 at y² = 8);
 *   - explicit-euler and frozen-force (Chrono's maps) one step, written out: x' = x + h u, u' = u − h f/M,
 *     and x' = x + h u − h² f/(2M), u' = u − h f/M; their branch: contact, clamp and the law's switches;
 *   - continuous time (a NULL stepper type): Kelvin–Voigt's exact e at every phase;
 *   - the inverse on the mean states an unreachable e with the range of the means met. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

#include <complex.h> /* after the library's headers: its macro I */

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

/* ---------------------------------------------------------------- moved from the engines' test */

static impactfit_law flat_law(double M, double B, double K, double d) {
  impactfit_law law;
  memset(&law, 0, sizeof law);
  law.type = impactfit_law_impedance;
  double p[9] = {M, B, K, d, d, 0.001, 0.5, 2.0, 1.0};
  memcpy(law.p, p, sizeof p);
  return law;
}

static impactfit_stepper stepper(const impactfit_stepper_type *type, impactfit_law law, const impactfit_transition *end,
                                 double M, double h) {
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  st.type = type;
  st.law = law;
  st.end = end;
  st.mass = M;
  st.dt = h;
  return st;
}

/* ---------------------------------------------------------------- 1. Euler, linear, exact */

typedef struct {
  double h, a, b, v;
  double complex l1, l2;
  double A[2][2];
} euler_lin;

static euler_lin euler_lin_make(double h, double a, double b, double v) {
  euler_lin E = {.h = h, .a = a, .b = b, .v = v};
  E.A[0][0] = 1.0 - h * h * a;
  E.A[0][1] = h * (1.0 - h * b);
  E.A[1][0] = -h * a;
  E.A[1][1] = 1.0 - h * b;
  double tr = E.A[0][0] + E.A[1][1], det = E.A[0][0] * E.A[1][1] - E.A[0][1] * E.A[1][0];
  double complex s = csqrt(0.25 * tr * tr - det + 0.0 * I);
  E.l1 = 0.5 * tr + s;
  E.l2 = 0.5 * tr - s;
  return E;
}

/* A^k from the eigenvalues */
static void euler_pow(const euler_lin *E, int k, double P[2][2]) {
  double complex p1 = cpow(E->l1, k), p2 = cpow(E->l2, k), dl = E->l1 - E->l2;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double complex v = (p1 * (E->A[i][j] - (i == j ? E->l2 : 0.0)) - p2 * (E->A[i][j] - (i == j ? E->l1 : 0.0))) / dl;
      P[i][j] = creal(v);
    }
}

/* x_k(φ) = P00 φ v h + P01 v, u_k(φ) = P10 φ v h + P11 v */
static int euler_N(const euler_lin *E, double phi) {
  for (int k = 1; k < 100000; k++) {
    double P[2][2];
    euler_pow(E, k, P);
    if (P[0][0] * phi * E->h + P[0][1] <= 0.0)
      return k;
  }
  return -1;
}

static double euler_e(const euler_lin *E, double phi) {
  double P[2][2];
  euler_pow(E, euler_N(E, phi), P);
  return -(P[1][0] * phi * E->h + P[1][1]);
}

static int cmp_d(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static void test_euler_linear(void) {
  const double M = 2.0, h = 1e-3, d = 0.9, omega = 300.0, zeta = 0.2, v = 1.3;
  const double K = omega * omega / (d * d), B = 2.0 * zeta * omega / d;
  impactfit_stepper st = stepper(impactfit_stepper_euler, flat_law(M, B, K, d), impactfit_transition_A, M, h);
  euler_lin E = euler_lin_make(h, K * d * d, B * d, v);
  impactfit_error err;
  /* per phase */
  for (int i = 0; i < 20; i++) {
    double phi = (i + 0.37) / 20.0;
    impactfit_step_impact o;
    CHECK(impactfit_step_impact_at(&st, v, phi, &o, &err) == 0, "euler linear: impact at %g", phi);
    CHECK_ABS(o.e, euler_e(&E, phi), 1e-12, "euler linear: e(%g) vs the eigen-decomposition", phi);
    CHECK(o.contact_steps == euler_N(&E, phi), "euler linear: %ld contact steps at %g (want %d)", o.contact_steps, phi,
          euler_N(&E, phi));
  }
  /* the exact mean: e is linear in φ between the roots of x_k(φ) = 0 */
  double br[256];
  int nb = 0;
  br[nb++] = 0.0;
  for (int k = 1; k < 200 && nb < 250; k++) {
    double P[2][2];
    euler_pow(&E, k, P);
    double r = -P[0][1] / (P[0][0] * h);
    if (r > 0.0 && r < 1.0)
      br[nb++] = r;
  }
  br[nb++] = 1.0;
  qsort(br, (size_t)nb, sizeof br[0], cmp_d);
  double mean = 0.0, emin = INFINITY, emax = -INFINITY;
  for (int i = 0; i + 1 < nb; i++) {
    double a = br[i], b = br[i + 1];
    if (b <= a)
      continue;
    int N = euler_N(&E, 0.5 * (a + b));
    double P[2][2];
    euler_pow(&E, N, P);
    double ea = -(P[1][0] * a * h + P[1][1]), eb = -(P[1][0] * b * h + P[1][1]);
    mean += 0.5 * (ea + eb) * (b - a);
    emin = fmin(emin, fmin(ea, eb));
    emax = fmax(emax, fmax(ea, eb));
  }
  impactfit_step_stats S;
  CHECK(impactfit_step_phase_stats(&st, v, &S, &err) == 0, "euler linear: phase statistics");
  CHECK_ABS(S.e_mean, mean, 1e-12, "euler linear: mean over the phase vs the exact piecewise-linear mean");
  CHECK_ABS(S.e_min, emin, 1e-9, "euler linear: smallest e");
  CHECK_ABS(S.e_max, emax, 1e-9, "euler linear: largest e");
  printf("euler linear: mean %.15f (exact %.15f), %d pieces, %ld impacts\n", S.e_mean, mean, S.pieces, S.impacts);
}

/* ---------------------------------------------------------------- 2. RK4, one step */

static void test_rk4_step(void) {
  const double M = 0.7, h = 2e-3, d = 0.95, a = 4e4, b = 60.0;
  impactfit_stepper st = stepper(impactfit_stepper_rk4, flat_law(M, b / d, a / (d * d), d), impactfit_transition_A, M,
                                 h);
  /* deep in contact, approaching: every stage has x > 0 */
  impactfit_step_state s = {.x = 0.01, .u = 0.5};
  double x0 = s.x, u0 = s.u;
  CHECK(st.type->step(&st, &s) == 0, "rk4: step");
  /* P = I + hC + (hC)²/2 + (hC)³/6 + (hC)⁴/24, C = [[0, 1], [−a, −b]] */
  double C[2][2] = {{0.0, h}, {-a * h, -b * h}}, T[2][2] = {{1, 0}, {0, 1}}, P[2][2] = {{1, 0}, {0, 1}};
  for (int j = 1; j <= 4; j++) {
    double N[2][2];
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 2; c++)
        N[r][c] = (T[r][0] * C[0][c] + T[r][1] * C[1][c]) / j;
    memcpy(T, N, sizeof T);
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 2; c++)
        P[r][c] += T[r][c];
  }
  CHECK_REL(s.x, P[0][0] * x0 + P[0][1] * u0, 1e-13, "rk4: x after one step vs the polynomial of hC");
  CHECK_REL(s.u, P[1][0] * x0 + P[1][1] * u0, 1e-13, "rk4: u after one step vs the polynomial of hC");
  CHECK(s.contact && (s.branch & 0x01010101) == 0x01010101, "rk4: contact at all four stages (branch %x)", s.branch);
}

/* ---------------------------------------------------------------- 3. amplification at the bounds */

static void test_amplification(void) {
  const double M = 1.5, a = 2.5e5, b = 120.0;
  impactfit_stepper st = stepper(impactfit_stepper_euler, flat_law(M, 1.0, 1.0, 0.9), impactfit_transition_A, M, 1.0);
  double hs = (-b + sqrt(b * b + 4.0 * a)) / a; /* h² a + 2 h b = 4 */
  st.dt = hs * (1.0 - 1e-7);
  double r1 = st.type->amplification(&st, a * M, b * M);
  st.dt = hs * (1.0 + 1e-7);
  double r2 = st.type->amplification(&st, a * M, b * M);
  CHECK(r1 <= 1.0 && r2 > 1.0, "euler: spectral radius crosses 1 at h = %.9g (%.12f, %.12f)", hs, r1, r2);
  /* RK4 on x'' = −ω² x: |R(ihω)| = 1 at hω = 2√2 */
  impactfit_stepper rk = stepper(impactfit_stepper_rk4, flat_law(M, 1.0, 1.0, 0.9), impactfit_transition_A, M, 1.0);
  double w = sqrt(a), hr = 2.0 * sqrt(2.0) / w;
  rk.dt = hr * (1.0 - 1e-6);
  double q1 = rk.type->amplification(&rk, a * M, 0.0);
  rk.dt = hr * (1.0 + 1e-6);
  double q2 = rk.type->amplification(&rk, a * M, 0.0);
  CHECK(q1 <= 1.0 && q2 > 1.0, "rk4: |R(i h w)| crosses 1 at h w = 2 sqrt 2 (%.12f, %.12f)", q1, q2);
}

/* ---------------------------------------------------------------- MuJoCo's registry entries */

/* an e no value reaches: ENOROOT with the reachable range (the exact scan) */
static int flat_build(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  (void)ctx;
  (void)err;
  *st = stepper(impactfit_stepper_euler, flat_law(1.0, value, 1e4, 0.9), impactfit_transition_C, 1.0, 1e-3);
  return 0;
}

static void test_unreachable(void) {
  double value;
  impactfit_step_stats S;
  impactfit_error err;
  int s = impactfit_step_solve_mean(flat_build, NULL, 1.0, 0.999999, 1.0, 10.0, 3.0, 0.0, &value, &S, &err);
  CHECK(s == IMPACTFIT_ENOROOT && S.e_max < 0.999999 && S.e_min > 0.0,
        "unreachable: ENOROOT with the range of the mean [%g, %g] (%.300s)", S.e_min, S.e_max, err.message);
  double target = 0.5 * (S.e_min + S.e_max);
  s = impactfit_step_solve_mean(flat_build, NULL, 1.0, target, 1.0, 10.0, NAN, 0.0, &value, &S, &err);
  CHECK(s == 0 && fabs(S.e_mean - target) <= 1e-10, "unreachable: a value inside the range solves (%g)", target);
}

/* ---------------------------------------------------------------- Simbody and Chrono */

#define R5 0.005
#define M5 (4.0 / 3.0 * M_PI * R5 * R5 * R5 * 2500.0)

/* continuous time: a NULL type; Kelvin–Voigt f = k δ + c δ' under A: e = exp(−ζ π/√(1 − ζ²)), ζ = c/(2 √(k M)) */
static void test_continuous(void) {
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  st.type = NULL;
  double k = 1e4, M = 0.01, zeta = 0.3;
  st.law = impactfit_law_power_make(k, 1.0, 2.0 * zeta * sqrt(k * M), 0.0);
  st.end = impactfit_transition_A;
  st.mass = M;
  st.dt = NAN; /* not used */
  double exact = exp(-zeta * M_PI / sqrt(1.0 - zeta * zeta));
  impactfit_step_stats S;
  impactfit_error err;
  int s = impactfit_step_phase_stats(&st, 2.0, &S, &err);
  CHECK(s == 0, "continuous phase stats: %s", s ? err.message : "");
  CHECK_REL(S.e_mean, exact, 1e-10, "continuous: e_mean = Kelvin-Voigt e");
  CHECK(S.e_min == S.e_mean && S.e_max == S.e_mean && S.e_continuous == S.e_mean, "continuous: min = max = mean");
  CHECK(S.stable == 1 && S.pieces == 1 && S.impacts == 1, "continuous: one stable piece");
  impactfit_step_impact im;
  s = impactfit_step_impact_at(&st, 2.0, 0.37, &im, &err);
  CHECK(s == 0 && im.e == S.e_mean, "continuous: the same e at every phase");
  double dtmax = 0.0;
  s = impactfit_step_max_stable_dt(&st, 2.0, &dtmax, &err);
  CHECK(s == 0 && isinf(dtmax), "continuous: no step to bound");
  st.law.type = NULL;
  CHECK(impactfit_stepper_check(&st, &err) == IMPACTFIT_EINVAL && strstr(err.message, "needs a law"),
        "continuous time without a law: %s", err.message);
  /* a fixed-step stepper still needs dt */
  st.law = impactfit_law_power_make(k, 1.0, 1.0, 0.0);
  st.type = impactfit_stepper_euler;
  CHECK(impactfit_step_phase_stats(&st, 2.0, &S, &err) == IMPACTFIT_EINVAL, "euler refuses dt = NaN");
}

/* explicit-euler and frozen-force, one step written out, with their branch bits */
static double approach_switch_law_force(const impactfit_law *law, double x, double u) {
  return law->type->force(law->p, x, u, NULL, NULL);
}

static void test_chrono_maps(void) {
  CHECK(impactfit_stepper_type_from_name("explicit-euler") == impactfit_stepper_explicit_euler &&
            impactfit_stepper_type_from_name("frozen-force") == impactfit_stepper_frozen_force &&
            impactfit_stepper_type_from_name("continuous") == NULL,
        "the built-ins by name; continuous time is a NULL type, not a registered stepper");
  const impactfit_stepper_type *extra[] = {impactfit_stepper_rk4};
  CHECK(impactfit_stepper_type_from_name_in("rk4", extra, 1) == impactfit_stepper_rk4 &&
            impactfit_stepper_type_from_name_in("nope", extra, 1) == NULL,
        "lookup with extra types");
  /* the approach damper: f = k δ^n + c δ^m δ' while approaching, k δ^n after (its switch is δ') */
  impactfit_law law = impactfit_law_power_make(3e4, 1.0, 5.0, 0.0);
  law.type = impactfit_law_approach_damper;
  const double M = 0.2, h = 1e-3;
  for (int map = 0; map < 2; map++) {
    impactfit_stepper st = stepper(map ? impactfit_stepper_frozen_force : impactfit_stepper_explicit_euler, law,
                                   impactfit_transition_C, M, h);
    for (int side = 0; side < 2; side++) {
      impactfit_step_state s = {.x = 1e-3, .u = side ? 0.4 : -0.1};
      double x0 = s.x, u0 = s.u, f = approach_switch_law_force(&law, x0, u0), a = -f / M;
      CHECK(st.type->step(&st, &s) == 0, "chrono map %d: step", map);
      double xw = map ? x0 + h * u0 + 0.5 * h * h * a : x0 + h * u0, uw = u0 + h * a;
      CHECK(s.x == xw && s.u == uw && s.f == f, "chrono map %d side %d: (%.17g, %.17g) written out (%.17g, %.17g)", map,
            side, s.x, s.u, xw, uw);
      CHECK(s.contact && s.branch == (side ? 2 : 0), "chrono map %d side %d: branch %d has the switch side", map, side,
            s.branch);
    }
  }
}

int main(void) {
  test_maps();
  test_stable_step();
  test_phase_mean();
  test_convergence();
  test_inverse();
  test_errors();
  test_euler_linear();
  test_rk4_step();
  test_amplification();
  test_unreachable();
  test_continuous();
  test_chrono_maps();
  return tu_report("test_stepper");
}
