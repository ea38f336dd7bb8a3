/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engines' steppers and registry (include/impactfit/stepper.h, engines.h) against independent
 * derivations; the engines themselves are run by tests/engines/ (ctest -L mbd-engines).
 *
 * MuJoCo (src/engines/mujoco.c):
 *  1. Euler on a linear law (flat impedance d0 = dwidth, no clamp: condition A) is the linear map
 *     z_{k+1} = A z_k, A = [[1 − h²a, h(1 − hb)], [−ha, 1 − hb]] (a = K d², b = B d): z_k = A^k z_0 from
 *     A's eigenvalues, A^k = (λ1^k (A − λ2 I) − λ2^k (A − λ1 I))/(λ1 − λ2). The contact starts at
 *     x_0 = φ v h, u_0 = v and lasts N(φ) steps, N the first k with x_k ≤ 0; e(φ) = −u_N/v is linear in
 *     φ between the roots of x_k(φ) = 0, so the exact mean over φ is a sum of midpoint values.
 *  2. RK4 one step in contact on the same law: P = Σ_{j≤4} (hC)^j/j!, C = [[0, 1], [−a, −b]].
 *  3. The amplification functions at the classical stability bounds: symplectic Euler's eigenvalues
 *     leave the unit disc at h² a + 2 h b = 4 (Schur–Cohn: trace = 2 − hb − h²a ≥ −(1 + det),
 *     det = 1 − hb); RK4 on an undamped oscillator at h ω = 2√2 (|R(iy)| = 1 at y² = 8).
 *  4. dt → 0: the mean e over the phase of MuJoCo's default law tends to law.h's continuous-time e, at
 *     first order for Euler (halving dt halves the error).
 *  5. The mean over the phase against a second method: jumps of e(φ) located from e's values (not from
 *     the steppers' signatures) on 1024 samples, then GSL's adaptive qags on every piece.
 *  6. The registry: versions, run_here, the inverse's round trip, an unreachable e. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_integration.h>

#include "impactfit/engines.h"
#include "impactfit/law.h"
#include "impactfit/stepper.h"
#include "testutil.h"

/* the impedance law with a flat impedance d: f = M d (B δ' + K d δ) */
static impactfit_law flat_law(double M, double B, double K, double d) {
  impactfit_law law;
  memset(&law, 0, sizeof law);
  law.type = impactfit_law_impedance;
  double p[8] = {M, B, K, d, d, 0.001, 0.5, 2.0};
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

static impactfit_engine_request mujoco_request(const char *integrator, double dt) {
  impactfit_engine_request rq = impactfit_engine_default_request();
  impactfit_error err;
  if (impactfit_engine_model_find("mujoco", NULL, "soft contact", &rq.model, &err))
    fprintf(stderr, "%s\n", err.message);
  rq.integrator = integrator;
  rq.dt = dt;
  return rq;
}

/* 4. dt → 0 */
static void test_limit(void) {
  impactfit_error err;
  impactfit_engine_request rq = mujoco_request("euler", 1e-4);
  impactfit_stepper st;
  CHECK(impactfit_engine_stepper(&rq, 1.0, &st, &err) == 0, "limit: stepper");
  double d[3];
  impactfit_step_stats S;
  for (int k = 0; k < 3; k++) {
    st.dt = 1e-4 / (1 << k);
    CHECK(impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0, "limit: stats at %g", st.dt);
    d[k] = S.e_mean - S.e_continuous;
  }
  printf("limit: Euler mean - continuous e at dt 1e-4, 5e-5, 2.5e-5: %.3e %.3e %.3e (e = %.9f)\n", d[0], d[1], d[2],
         S.e_continuous);
  CHECK_REL(S.e_continuous, 0.135697, 5e-6, "limit: continuous-time e of MuJoCo's defaults (issue 24: 0.1357)");
  CHECK(fabs(d[0] / d[1] - 2.0) < 0.2 && fabs(d[1] / d[2] - 2.0) < 0.2, "limit: Euler converges at first order");
  CHECK(fabs(2.0 * d[2] - d[1]) < 2e-6, "limit: Euler's mean extrapolated to dt = 0 (%.3g) is the continuous-time e",
        2.0 * d[2] - d[1]);
}

/* 5. the mean against jumps found from e's values and GSL qags on the pieces */
typedef struct {
  const impactfit_stepper *st;
  long n;
} qctx;

static double e_at(double phi, void *p) {
  qctx *c = p;
  impactfit_step_impact o;
  impactfit_error err;
  c->n++;
  return impactfit_step_impact_at(c->st, 1.0, phi, &o, &err) == 0 ? o.e : NAN;
}

static void test_mean_qags(const char *integrator, double dt, double dampratio) {
  impactfit_error err;
  impactfit_engine_request rq = mujoco_request(integrator, dt);
  impactfit_stepper st;
  CHECK(impactfit_engine_stepper(&rq, dampratio, &st, &err) == 0, "qags: stepper");
  impactfit_step_stats S;
  CHECK(impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0, "qags: stats");
  qctx c = {&st, 0};
  enum { NS = 1024 };
  double br[NS + 2];
  int nb = 0;
  br[nb++] = 0.0;
  double prev = e_at(0x1p-40, &c), pphi = 0x1p-40;
  for (int i = 1; i <= NS; i++) {
    double phi = (double)i / NS, e = e_at(phi, &c);
    if (fabs(e - prev) > 1e-3) { /* a jump of e: bisect on the values */
      double lo = pphi, hi = phi, elo = prev, ehi = e;
      while (hi - lo > 1e-15 * fmax(1.0, hi)) {
        double m = 0.5 * (lo + hi), em = e_at(m, &c);
        if (fabs(em - elo) < fabs(ehi - em))
          lo = m, elo = em;
        else
          hi = m, ehi = em;
      }
      br[nb++] = 0.5 * (lo + hi);
    }
    prev = e;
    pphi = phi;
  }
  br[nb++] = 1.0;
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(2000);
  gsl_function F = {e_at, &c};
  double mean = 0.0, abserr = 0.0;
  for (int i = 0; i + 1 < nb; i++) {
    double r, ae;
    gsl_integration_qags(&F, br[i], br[i + 1], 1e-15, 1e-13, 2000, w, &r, &ae);
    mean += r;
    abserr += ae;
  }
  gsl_integration_workspace_free(w);
  printf("qags: %s dt %g dampratio %g: mean %.15f, qags %.15f (+- %.1e, %d value jumps, %ld impacts; stats %d pieces, "
         "%ld impacts)\n",
         integrator, dt, dampratio, S.e_mean, mean, abserr, nb - 2, c.n, S.pieces, S.impacts);
  CHECK_ABS(S.e_mean, mean, 1e-12 + abserr, "qags: %s dt %g dampratio %g: mean over the phase vs qags", integrator, dt,
            dampratio);
}

/* 6. the registry */
static void test_registry(void) {
  const impactfit_engine_model *md;
  impactfit_error err;
  CHECK(impactfit_engine_model_find("mujoco", NULL, "soft contact", &md, &err) == 0 && md->run_here &&
            strcmp(md->versions, "2.2.2") == 0,
        "registry: MuJoCo's default version is 2.2.2, run here");
  CHECK(impactfit_engine_model_find("MuJoCo", "3.5.0", "soft contact direct", &md, &err) == 0 && !md->run_here &&
            strstr(md->integrators, "implicitfast"),
        "registry: 3.5.0 is formula only, with implicitfast");
  CHECK(impactfit_engine_model_find("mujoco", "2.3.4", NULL, &md, &err) == 0 && !md->run_here, "registry: 2.3.4 is "
                                                                                               "formula only");
  CHECK(impactfit_engine_model_find("mujoco", "2.1.0", "soft contact", &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "2.2.2") && strstr(err.message, "3.0.0-3.12.0"),
        "registry: an unread version lists the versions read (%.300s)", err.message);
  /* the inverse and the forward agree; impactfit's input under refsafe */
  const char *ints[] = {"euler", "rk4", "implicit"};
  for (int k = 0; k < 3; k++)
    for (int j = 1; j <= 9; j += 4) {
      impactfit_engine_request rq = mujoco_request(ints[k], NAN);
      rq.e = 0.1 * j;
      impactfit_engine_answer a, f;
      CHECK(impactfit_engine_solve(&rq, &a, &err) == 0 && a.reachable, "registry: %s e %g solves", ints[k], rq.e);
      rq.e = NAN;
      rq.value = a.value;
      CHECK(impactfit_engine_solve(&rq, &f, &err) == 0, "registry: forward");
      CHECK_ABS(f.e_mean, 0.1 * j, 1e-10, "registry: %s forward at the inverse's dampratio gives e %g", ints[k],
                0.1 * j);
      CHECK_ABS(a.e_mean, f.e_mean, 1e-15, "registry: the inverse's statistics are the forward's");
      CHECK(strstr(a.input, "<default><geom solref=\"0.02 ") != NULL, "registry: paste text %.300s", a.input);
    }
  /* timeconst below 2 dt: the law uses 2 dt (refsafe), or the typed value with refsafe 0 */
  impactfit_engine_request rq = mujoco_request("euler", 0.002);
  rq.n_settings = 2;
  rq.settings[0].name = "solref";
  rq.settings[0].count = 2;
  rq.settings[0].values[0] = 0.003;
  rq.settings[0].values[1] = 0.5;
  rq.settings[1].name = "refsafe";
  rq.settings[1].count = 1;
  rq.settings[1].values[0] = 1;
  impactfit_stepper st;
  impactfit_engine_stepper(&rq, 0.5, &st, &err);
  CHECK_REL(st.law.p[1], 2.0 / (0.95 * 0.004), 1e-15, "registry: refsafe raises timeconst to 2 dt in B");
  rq.settings[1].values[0] = 0;
  impactfit_engine_stepper(&rq, 0.5, &st, &err);
  CHECK_REL(st.law.p[2], 1.0 / (0.95 * 0.95 * 0.003 * 0.003 * 0.25), 1e-15, "registry: refsafe off keeps timeconst");
  impactfit_engine_answer a;
  rq.e = 0.5;
  CHECK(impactfit_engine_solve(&rq, &a, &err) == 0 && strstr(a.input, "refsafe=\"disable\""),
        "registry: the paste text turns refsafe off when asked (%.300s)", a.input);
}

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

int main(void) {
  test_euler_linear();
  test_rk4_step();
  test_amplification();
  test_limit();
  test_mean_qags("euler", 0.002, 1.0);
  test_mean_qags("rk4", 0.002, 1.0);
  test_mean_qags("rk4", 0.002, 0.3);
  test_mean_qags("rk4", 0.0005, 0.1);
  test_registry();
  test_unreachable();
  return tu_report("test_engines");
}
