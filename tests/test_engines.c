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
 *  6. The registry: versions, run_here, the inverse's round trip, an unreachable e.
 *
 * The adaptive (continuous) stepper against Kelvin–Voigt's exact e. Simbody (src/engines/simbody.c): the law
 * against the source's formulas, the inverse against hc.h's exact relation (1 + ε)/(1 − e ε) = exp(ε (1 + e))
 * with ε = (3/2) c v. Chrono (src/engines/chrono.c, formula only): the laws and the step maps derived here
 * from the source reading, not from its code.
 *
 * ODE 0.16.2 (src/engines/ode.c; the engine itself: tests/engines/ode_impacts.c):
 *  7. dWorldStep with the manual's erp = hk/(hk + c), cfm = 1/(hk + c) is backward Euler of the
 *     spring–damper: with D = 1 + h(hk + c)/M, u' = (u − (hk/M) x)/D, x' = x + h u' (solved from
 *     u' = u − (h/M)(k x' + c u'), not from the ERP/CFM row), while the row pushes, i.e. while
 *     k x + (hk + c) u > 0 at the step start; after the first step where it would pull, the bodies fly
 *     apart at that speed. Per phase with this map iterated, and the exact mean: e(φ) is linear in φ
 *     between the roots (linear in φ) of the row's sign and of x_k, so the trapezoid rule on those
 *     pieces is exact. The map's determinant is 1/D < 1 at every h: stable at any step.
 *  8. The default hard contact (erp 0.2, cfm 1e-10, bounce 0): e = erp φ up to cfm M/h; with bounce
 *     b ≥ erp: e = b at every phase; with b < erp: e = max(erp φ, b), mean erp/2 + b²/(2 erp).
 *  9. dWorldQuickStep's n SOR sweeps from λ = 0 with relaxation w on one row: λ_n = (1 − (1 − w)^n) λ*
 *     when dWorldStep's λ* > 0, 0 when λ* ≤ 0 (w ∈ (0, 2)).
 * 10. dt → 0: the mean over the phase tends to law.h's continuous-time e of clamped Kelvin–Voigt at
 *     first order.
 * 11. The registry: ODE's models, the inverse's round trip, the unreachable e of issue 24's bullet.
 *
 * Bullet 3.24 (src/engines/bullet.c; the row derived in docs/engines/BULLET.md):
 * 12. Restitution r on the plane at h = 1e-3 s, v = 1 m/s, 5 mm sphere: with tau = 0.02 √3 r_s/(v h) the
 *     breaking distance in steps, e(φ) = r + erp2 φ for φ < 1 − tau (one row, its ERP term erp2 φ v h/h in
 *     the velocity) and r − (1 − φ) above (the gap row of the step before stops the body at the surface;
 *     the next step's restitution r v minus the ERP-free speed): mean r + erp2 (1 − tau)²/2 − tau²/2,
 *     range (r − tau, r + erp2 (1 − tau)); two spheres (no row before touching): e = r + erp2 φ at any h.
 * 13. Contact stiffness and damping, one step in contact with no clamp: the row's impulse
 *     (u + erp x/h)/(1/M + cfm/h), erp = hk/(hk + c), cfm = 1/(hk + c), is backward Euler of
 *     M u' = −k x − c u: u' = (M u − h k x)/(M + h c + h² k), x' = x + h u'.
 * 14. dt → 0: the stiffness-damping mean tends to law.h's continuous e of clamped Kelvin–Voigt at first
 *     order (Richardson-extrapolated from three steps). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_integration.h>

#include <float.h>

#include "impactfit/demcodes.h"
#include "impactfit/engines.h"
#include "impactfit/hc.h"
#include "impactfit/impact.h"
#include "impactfit/law.h"
#include "impactfit/stepper.h"
#include "testutil.h"

/* the impedance law with a flat impedance d: f = M d (B δ' + K d δ) */
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
            strstr(err.message, "2.2.2") && strstr(err.message, "3.0.0-3.3.7") && strstr(err.message, "3.11.0-3.12.0"),
        "registry: an unread version lists the versions read (%.300s)", err.message);
  CHECK(impactfit_engine_model_find("mujoco", "3.3.8", "soft contact", &md, &err) == 0 && md->run_here &&
            strcmp(md->versions, "3.3.8") == 0 && strstr(md->integrators, "implicitfast"),
        "registry: 3.3.8 (npm mujoco-js) is run here");
  CHECK(impactfit_engine_model_find("mujoco", "3.3.7", "soft contact", &md, &err) == 0 && !md->run_here &&
            impactfit_engine_model_find("mujoco", "3.9.0", "soft contact", &md, &err) == 0 && !md->run_here &&
            strstr(md->law, "delta = margin - dist"),
        "registry: 3.3.7 and 3.9.0 formula only, 3.9.0 acting within the margin");
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

/* ---------------------------------------------------------------- Simbody and Chrono */

#define R5 0.005
#define M5 (4.0 / 3.0 * M_PI * R5 * R5 * R5 * 2500.0)

static const impactfit_engine_model *find(const char *code, const char *version, const char *model) {
  const impactfit_engine_model *md = NULL;
  impactfit_error err;
  int s = impactfit_engine_model_find(code, version, model, &md, &err);
  CHECK(s == 0 && md, "find %s %s %s: %s", code, version ? version : "(default)", model ? model : "(first)",
        s ? err.message : "");
  return md;
}

static void set(impactfit_engine_request *r, const char *name, int count, double a, double b) {
  impactfit_engine_setting *s = &r->settings[r->n_settings++];
  s->name = name;
  s->count = count;
  s->values[0] = a;
  s->values[1] = b;
}

/* ---------------------------------------------------------------- the adaptive stepper */

/* Kelvin–Voigt f = k δ + c δ' under A: e = exp(−ζ π/√(1 − ζ²)), ζ = c/(2 √(k M)) */
static void test_adaptive(void) {
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  st.type = impactfit_stepper_continuous;
  double k = 1e4, M = 0.01, zeta = 0.3;
  st.law = impactfit_law_power_make(k, 1.0, 2.0 * zeta * sqrt(k * M), 0.0);
  st.end = impactfit_transition_A;
  st.mass = M;
  st.dt = NAN; /* not used */
  double exact = exp(-zeta * M_PI / sqrt(1.0 - zeta * zeta));
  impactfit_step_stats S;
  impactfit_error err;
  int s = impactfit_step_phase_stats(&st, 2.0, &S, &err);
  CHECK(s == 0, "adaptive phase stats: %s", s ? err.message : "");
  CHECK_REL(S.e_mean, exact, 1e-10, "adaptive: e_mean = Kelvin-Voigt e");
  CHECK(S.e_min == S.e_mean && S.e_max == S.e_mean && S.e_continuous == S.e_mean, "adaptive: min = max = mean");
  CHECK(S.stable == 1 && S.pieces == 1 && S.impacts == 1, "adaptive: one stable piece");
  impactfit_step_impact im;
  s = impactfit_step_impact_at(&st, 2.0, 0.37, &im, &err);
  CHECK(s == 0 && im.e == S.e_mean, "adaptive: the same e at every phase");
  double dtmax = 0.0;
  s = impactfit_step_max_stable_dt(&st, 2.0, &dtmax, &err);
  CHECK(s == 0 && isinf(dtmax), "adaptive: no step to bound");
  /* a fixed-step stepper still needs dt */
  st.type = impactfit_stepper_euler;
  CHECK(impactfit_step_phase_stats(&st, 2.0, &S, &err) == IMPACTFIT_EINVAL, "euler refuses dt = NaN");
  CHECK(impactfit_stepper_type_from_name("continuous") == impactfit_stepper_continuous, "registered by name");
  CHECK(impactfit_stepper_type_from_name("explicit-euler") && impactfit_stepper_type_from_name("frozen-force"),
        "Chrono's step maps are registered");
}

/* ---------------------------------------------------------------- Simbody */

/* The law of HuntCrossleyForce and of the compliant contact subsystem: K = (4/3) √R k^(3/2) with the
 * surfaces' stiffness^(2/3) in series, n = m = 3/2, λ = (3/2) c K (from the source, Simbody 3.7). */
static void test_simbody_law(void) {
  const char *models[] = {"HuntCrossleyForce", "CompliantContactSubsystem"};
  for (int mi = 0; mi < 2; mi++) {
    const impactfit_engine_model *md = find("simbody", NULL, models[mi]);
    if (!md)
      return;
    CHECK(md->run_here == 1 && md->adaptive && strstr(md->adaptive, "rkmerson"), "%s: run here, adaptive", models[mi]);
    for (int plane = 1; plane >= 0; plane--) {
      impactfit_engine_request r = impactfit_engine_default_request();
      r.model = md;
      r.bodies.plane = plane;
      r.bodies.r2 = 0.012;
      r.bodies.m2 = 0.02;
      double E1 = 2e9, E2 = 5e7, c = 0.37;
      set(&r, "stiffness", 2, E1, E2);
      impactfit_stepper st;
      impactfit_error err;
      int s = impactfit_engine_stepper(&r, c, &st, &err);
      CHECK(s == 0, "%s stepper: %s", models[mi], s ? err.message : "");
      double R = plane ? R5 : R5 * 0.012 / (R5 + 0.012), M = plane ? M5 : M5 * 0.02 / (M5 + 0.02);
      double kc = 1.0 / (pow(E1, -2.0 / 3.0) + pow(E2, -2.0 / 3.0)); /* k1 k2/(k1 + k2), ki = Ei^(2/3) */
      double K = 4.0 / 3.0 * sqrt(R) * pow(kc, 1.5);
      CHECK(st.type == impactfit_stepper_continuous && st.law.type == impactfit_law_power, "%s: continuous, power",
            models[mi]);
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
  const impactfit_engine_model *md = find("simbody", "3.7", "HuntCrossleyForce");
  if (!md)
    return;
  double es[] = {0.1, 0.3, 0.5, 0.7, 0.9}, vs[] = {0.3, 1.0, 3.0};
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 3; j++) {
      impactfit_engine_request r = impactfit_engine_default_request();
      r.model = md;
      r.e = es[i];
      r.v = vs[j];
      if (j == 1) { /* two unequal spheres, other stiffnesses */
        r.bodies.plane = 0;
        r.bodies.r2 = 0.02;
        r.bodies.m2 = 0.05;
        set(&r, "stiffness", 2, 3e9, 2e6);
      }
      impactfit_engine_answer a;
      impactfit_error err;
      int s = impactfit_engine_solve(&r, &a, &err);
      CHECK(s == 0 && a.reachable, "simbody solve e=%g v=%g: %s", es[i], vs[j], s ? err.message : "");
      double eps, e_naive;
      impactfit_hc_eps(es[i], &eps, NULL);
      impactfit_hc_e(1.5 * (1.0 - es[i]), &e_naive, NULL);
      CHECK_REL(a.value, eps / (1.5 * vs[j]), 1e-8, "simbody c for e=%g v=%g = eps(e)/(1.5 v)", es[i], vs[j]);
      CHECK_ABS(a.e_mean, es[i], 1e-9, "simbody e_mean");
      CHECK(a.e_min == a.e_mean && a.e_max == a.e_mean && a.e_continuous == a.e_mean && isnan(a.dt),
            "simbody: adaptive answer (min = max = mean = continuous, dt NaN)");
      CHECK_REL(a.naive_value, (1.0 - es[i]) / vs[j], 1e-15, "simbody naive c = (1 - e)/v");
      CHECK_ABS(a.e_naive, e_naive, 2e-10, "simbody naive e = e_HC(1.5 (1 - e)) for e=%g", es[i]);
    }
  /* the figures of the literature's c typed in at 1 m/s (Hunt-Crossley; Lankarani-Nikravesh
   * c = (1 - e^2)/(2 v)), from hc.h: 0.516/0.663/0.909 and 0.665/0.725/0.913 to 3 digits */
  double hc_fig[] = {0.516, 0.663, 0.909}, ln_fig[] = {0.665, 0.725, 0.913}, e3[] = {0.1, 0.5, 0.9};
  for (int i = 0; i < 3; i++) {
    double eh, el;
    impactfit_hc_e(1.5 * (1.0 - e3[i]), &eh, NULL);
    impactfit_hc_e(0.75 * (1.0 - e3[i] * e3[i]), &el, NULL);
    CHECK_ABS(eh, hc_fig[i], 5e-4, "Hunt-Crossley's c typed in for e = %g", e3[i]);
    CHECK_ABS(el, ln_fig[i], 5e-4, "Lankarani-Nikravesh's c typed in for e = %g", e3[i]);
  }
  /* an adaptive integrator takes no dt; unknown integrators are listed */
  impactfit_engine_request r = impactfit_engine_default_request();
  r.model = md;
  r.e = 0.5;
  r.dt = 1e-4;
  impactfit_engine_answer a;
  impactfit_error err;
  CHECK(impactfit_engine_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "takes no time step"),
        "simbody refuses a dt: %s", err.message);
  r.dt = NAN;
  r.integrator = "rk4";
  CHECK(impactfit_engine_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "rkmerson"),
        "simbody lists its integrators: %s", err.message);
  /* RungeKuttaFeldberg's note gives e = 1/(1.5 c v) */
  r.integrator = "rkfeldberg";
  CHECK(impactfit_engine_solve(&r, &a, &err) == 0 && strstr(a.note, "1/(1.5 c v)"), "rkfeldberg note: %.900s", a.note);
  /* the compliant contact subsystem has no default stiffness */
  r.model = find("simbody", NULL, "CompliantContactSubsystem");
  r.integrator = NULL;
  CHECK(impactfit_engine_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "stiffness"),
        "ContactMaterial needs a stiffness: %s", err.message);
  /* forward: the user's dissipation */
  r.model = md;
  r.e = NAN;
  set(&r, "dissipation", 1, 0.5, 0.0);
  CHECK(impactfit_engine_solve(&r, &a, &err) == 0, "simbody forward: %s", err.message);
  double e05;
  impactfit_hc_e(0.75, &e05, NULL);
  CHECK_ABS(a.e_mean, e05, 2e-10, "simbody forward dissipation 0.5 at 1 m/s");
}

/* ---------------------------------------------------------------- Chrono */

static int kind_is_hooke(const char *model) { return strncmp(model, "Hooke", 5) == 0 || !strcmp(model, "Flores"); }

/* The laws, derived here from the source reading (docs/engines/CHRONO.md): E = 1/((1 − ν1²)/E1 + (1 − ν2²)/E2),
 * M = m1 mw/(m1 + mw) at a wall (the fixed wall's mass counts), β = ln cr/√(ln² cr + π²),
 *   Hertz: kn δ = (2/3) 2 E √(R δ) δ, gn = −2 √(5/6) β √(2 E √(R δ) M): K = (4/3) E √R, C = 2 √(5/6) |β| √(2 E √R M)
 *   Hooke: K = a (M V²/a)^(1/5), a = (16/15) √R E; C = √(4 M K/(1 + (π/ln cr)²))
 *   PlainCoulomb: Hertz with R = 1 in √(R δ)
 *   kn/gn: Hertz K = R kn, C = R M gn; Hooke K = kn, C = M gn; PlainCoulomb K = kn, C = gn. */
static void test_chrono_laws(void) {
  struct {
    const char *model;
    double n, m;
  } cases[] = {{"Hertz", 1.5, 0.25},
               {"Hooke", 1.0, 0.0},
               {"Flores", 1.0, 0.0},
               {"PlainCoulomb", 1.5, 0.25},
               {"Hertz kn/gn", 1.5, 0.5},
               {"Hooke kn/gn", 1.0, 0.0},
               {"PlainCoulomb kn/gn", 1.5, 0.5}};
  double E1 = 7e7, E2 = 2e9, nu1 = 0.35, nu2 = 0.25, mw = 0.3, Reff = 0.004, V = 2.5, cr = 0.62, kn = 3e6, gn = 55;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const impactfit_engine_model *md = find("chrono", NULL, cases[i].model);
    if (!md)
      return;
    CHECK(md->run_here == 0 && strstr(md->integrators, "euler-implicit-linearized") == md->integrators,
          "%s: formula only, the default timestepper first", cases[i].model);
    for (int plane = 1; plane >= 0; plane--) {
      impactfit_engine_request r = impactfit_engine_default_request();
      r.model = md;
      r.dt = 1e-5;
      r.bodies.plane = plane;
      r.bodies.r2 = 0.01;
      r.bodies.m2 = 0.004;
      int mat = strstr(cases[i].model, "kn/gn") == NULL;
      if (mat) {
        set(&r, "young_modulus", 2, E1, E2);
        set(&r, "poisson_ratio", 2, nu1, nu2);
      } else {
        set(&r, "kn", 1, kn, 0);
      }
      set(&r, "wall_mass", 1, mw, 0);
      if (strncmp(cases[i].model, "PlainCoulomb", 12) != 0 && strcmp(cases[i].model, "Hooke kn/gn") != 0)
        set(&r, "eff_radius", 1, Reff, 0);
      if (mat && kind_is_hooke(cases[i].model))
        set(&r, "impact_velocity", 1, V, 0);
      impactfit_stepper st;
      impactfit_error err;
      double p = mat ? cr : gn;
      int s = impactfit_engine_stepper(&r, p, &st, &err);
      CHECK(s == 0, "chrono %s stepper: %s", cases[i].model, s ? err.message : "");
      double Mdyn = plane ? M5 : M5 * 0.004 / (M5 + 0.004);
      double M = plane ? M5 * mw / (M5 + mw) : Mdyn;
      double E = 1.0 / ((1 - nu1 * nu1) / E1 + (1 - nu2 * nu2) / E2);
      double L = log(cr), beta = L / sqrt(L * L + M_PI * M_PI), K = 0, C = 0;
      const char *mo = cases[i].model;
      if (!strcmp(mo, "Hertz")) {
        K = 4.0 / 3.0 * E * sqrt(Reff);
        C = 2 * sqrt(5.0 / 6) * fabs(beta) * sqrt(2 * E * sqrt(Reff) * M);
      } else if (!strcmp(mo, "Hooke") || !strcmp(mo, "Flores")) {
        double a = 16.0 / 15.0 * sqrt(Reff) * E;
        K = a * pow(M * V * V / a, 0.2);
        C = sqrt(4 * M * K / (1 + (M_PI / L) * (M_PI / L)));
      } else if (!strcmp(mo, "PlainCoulomb")) {
        K = 4.0 / 3.0 * E;
        C = 2 * sqrt(5.0 / 6) * fabs(beta) * sqrt(2 * E * M);
      } else if (!strcmp(mo, "Hertz kn/gn")) {
        K = Reff * kn;
        C = Reff * M * gn;
      } else if (!strcmp(mo, "Hooke kn/gn")) {
        K = kn;
        C = M * gn;
      } else {
        K = kn;
        C = gn;
      }
      CHECK(st.type == impactfit_stepper_euler && st.end == impactfit_transition_C, "%s: euler, clamped", mo);
      CHECK_REL(st.law.p[0], K, 1e-13, "chrono %s plane=%d: K", mo, plane);
      CHECK_REL(st.law.p[2], C, 1e-13, "chrono %s plane=%d: C", mo, plane);
      CHECK(st.law.p[1] == cases[i].n && st.law.p[3] == cases[i].m, "chrono %s: n, m", mo);
      CHECK_REL(st.mass, Mdyn, 1e-15, "chrono %s plane=%d: the bodies' own mass steps", mo, plane);
    }
  }
}

/* versions: 4.0.0 on (3.0.0 had R = 1 m); Flores from 6.0.0 (5.0.x: no normal force) */
static void test_chrono_versions(void) {
  const impactfit_engine_model *md;
  impactfit_error err;
  CHECK(impactfit_engine_model_find("chrono", "4.0.0", "Hertz", &md, &err) == 0, "Hertz 4.0.0");
  CHECK(impactfit_engine_model_find("chrono", "10.0.0", "Hertz", &md, &err) == 0, "Hertz 10.0.0");
  CHECK(impactfit_engine_model_find("chrono", "3.0.0", "Hertz", &md, &err) == IMPACTFIT_EINVAL, "not 3.0.0");
  CHECK(impactfit_engine_model_find("chrono", "5.0.1", "Flores", &md, &err) == IMPACTFIT_EINVAL, "Flores not 5.0.1");
  CHECK(impactfit_engine_model_find("chrono", "6.0.0", "Flores", &md, &err) == 0, "Flores 6.0.0");
  CHECK(strcmp(impactfit_engine_default_version("chrono"), "10.0.0") == 0, "chrono's newest version read");
  CHECK(impactfit_engine_model_find("chrono", NULL, "Hertz", &md, &err) == 0, "Hertz default");
  impactfit_engine_request r = impactfit_engine_default_request();
  r.model = md;
  r.e = 0.5;
  impactfit_engine_answer a;
  CHECK(impactfit_engine_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "give dt"),
        "chrono has no default step: %s", err.message);
}

/* Chrono's timestep as derived from ChTimestepperEulerImplicitLinearized and ChContactSMC (the force of the
 * step's start, stored; v' = v + h F/m; x' = x + h v'), written out here for the Hertz model with
 * material properties, against impactfit_step_impact_at; and the other two maps. */
static double chrono_hertz_force(double x, double u, double E, double R, double M, double cr) {
  double L = log(cr), beta = L / sqrt(L * L + M_PI * M_PI);
  double Sn = 2 * E * sqrt(R * x), kn = 2.0 / 3.0 * Sn, gn = -2 * sqrt(5.0 / 6) * beta * sqrt(Sn * M);
  double f = kn * x + gn * u; /* Fn = kn δ − gn v_n with v_n = −δ' */
  return f < 0 ? 0 : f;
}

static double chrono_impact(int map, double v, double phi, double h, double E, double R, double Mcode, double m,
                            double cr) {
  double x = (phi - 2.0) * v * h, u = v;
  for (long k = 0; k < 10000000L; k++) {
    double f = x > 0 ? chrono_hertz_force(x, u, E, R, Mcode, cr) : 0.0, a = -f / m;
    if (map == 0) { /* linearized implicit Euler */
      u += h * a;
      x += h * u;
    } else if (map == 1) { /* EULER_EXPLICIT */
      x += h * u;
      u += h * a;
    } else { /* RUNGE_KUTTA: the stored force over the step */
      x += h * u + 0.5 * h * h * a;
      u += h * a;
    }
    if (k > 2 && x <= 0 && u < 0 && f == 0)
      return -u / v;
  }
  return NAN;
}

static void test_chrono_steps(void) {
  const impactfit_engine_model *md = find("chrono", NULL, "Hertz");
  if (!md)
    return;
  const char *ints[] = {"euler-implicit-linearized", "euler-explicit", "runge-kutta"};
  double E = 1e7, nu = 0.3, cr = 0.45, h = 2e-5, v = 1.3;
  double Es = 1.0 / (2 * (1 - nu * nu) / E), Mcode = M5 * 1.0 / (M5 + 1.0);
  for (int mi = 0; mi < 3; mi++) {
    impactfit_engine_request r = impactfit_engine_default_request();
    r.model = md;
    r.dt = h;
    r.v = v;
    r.integrator = ints[mi];
    set(&r, "young_modulus", 2, E, E);
    set(&r, "poisson_ratio", 2, nu, nu);
    impactfit_stepper st;
    impactfit_error err;
    if (impactfit_engine_stepper(&r, cr, &st, &err)) {
      CHECK(0, "chrono stepper %s: %s", ints[mi], err.message);
      continue;
    }
    for (double phi = 0.05; phi < 1.0; phi += 0.3) {
      impactfit_step_impact im;
      int s = impactfit_step_impact_at(&st, v, phi, &im, &err);
      double want = chrono_impact(mi, v, phi, h, Es, 0.1, Mcode, M5, cr);
      CHECK(s == 0, "chrono %s impact: %s", ints[mi], s ? err.message : "");
      CHECK_ABS(im.e, want, 1e-12, "chrono %s phi=%g: e of the step map", ints[mi], phi);
    }
  }
  /* dt -> 0: the default map's mean e tends to the continuous-time e of the law, which the DEM registry
   * gives too (chrono hertz, e typed = cr, R_eff = 0.1) when the wall is heavy; with the default wall of
   * 1 kg the damper carries sqrt(M_code) = sqrt(m1 mw/(m1 + mw)) while the sphere moves with m1: the DEM
   * e of the typed value whose beta is beta(cr) sqrt(M_code/m1) (ln p = beta pi/sqrt(1 - beta^2)). */
  for (int heavy = 1; heavy >= 0; heavy--) {
    double mw = heavy ? 1e12 : 1.0, Mc = M5 * mw / (M5 + mw);
    impactfit_engine_request r = impactfit_engine_default_request();
    r.model = md;
    r.v = v;
    r.dt = 1e-7;
    set(&r, "young_modulus", 2, E, E);
    set(&r, "poisson_ratio", 2, nu, nu);
    set(&r, "restitution", 1, cr, 0);
    set(&r, "wall_mass", 1, mw, 0);
    impactfit_engine_answer a;
    impactfit_error err;
    int s = impactfit_engine_solve(&r, &a, &err);
    CHECK(s == 0, "chrono forward: %s", s ? err.message : "");
    double L = log(cr), beta = L / sqrt(L * L + M_PI * M_PI) * sqrt(Mc / M5);
    double p = exp(beta * M_PI / sqrt(1.0 - beta * beta));
    const impactfit_dem_model *dm;
    double e_dem = NAN;
    if (impactfit_dem_model_find("chrono", NULL, "hertz", NULL, &dm, &err) == 0) {
      impactfit_dem_contact c = impactfit_dem_contact_default();
      c.geometry = IMPACTFIT_DEM_SPHERE_WALL;
      c.E = E;
      c.nu = nu;
      c.R_eff = 0.1;
      c.M_eff = M5;
      impactfit_dem_forward(dm, &c, -1, p, v, &e_dem, &err);
    }
    CHECK_ABS(a.e_continuous, e_dem, 1e-9, "chrono hertz continuous e = the DEM registry's (wall %g kg)", mw);
    CHECK_ABS(a.e_mean, a.e_continuous, 2e-4, "chrono hertz at dt = 1e-7 close to the continuous e");
  }
  impactfit_engine_request r = impactfit_engine_default_request();
  r.model = md;
  r.v = v;
  set(&r, "young_modulus", 2, E, E);
  set(&r, "poisson_ratio", 2, nu, nu);
  impactfit_engine_answer a;
  impactfit_error err;
  int s;
  /* the smallest reachable e: cr at the machine epsilon; e = 0.1 is out of reach */
  r.e = 0.1;
  r.dt = 1e-5;
  s = impactfit_engine_solve(&r, &a, &err);
  CHECK(s == 0 && !a.reachable && a.e_reach_min > 0.13 && strstr(a.note, "No restitution gives less than"),
        "chrono hertz cannot give e = 0.1: %.900s", a.note);
}

/* forward Euler on a linear spring-dashpot is unstable when h² k/M > h c/M (|λ|² = det = 1 − h b + h² a):
 * Chrono's EULER_EXPLICIT with Hooke kn, gn */
static void test_chrono_explicit_stability(void) {
  const impactfit_engine_model *md = find("chrono", NULL, "Hooke kn/gn");
  if (!md)
    return;
  double kn = 1e5, h = 1e-5;
  for (int i = 0; i < 2; i++) {
    double gn = i == 0 ? 0.5 * h * kn / M5 : 4.0 * h * kn / M5; /* b = gn, a = 2 kn/M5: h b below / above h^2 a */
    impactfit_engine_request r = impactfit_engine_default_request();
    r.model = md;
    r.dt = h;
    r.integrator = "euler-explicit";
    r.bodies.plane = 0;
    r.bodies.r2 = R5;
    r.bodies.m2 = M5; /* two spheres: no wall mass */
    set(&r, "kn", 1, kn, 0);
    r.value = gn;
    impactfit_engine_answer a;
    impactfit_error err;
    int s = impactfit_engine_solve(&r, &a, &err);
    CHECK(s == 0, "explicit euler forward: %s", s ? err.message : "");
    CHECK(a.stable == (i == 1), "explicit euler stable = %d for gn = %g (h b %s h^2 a)", a.stable, gn, i ? ">" : "<");
  }
}

/* ---------------------------------------------------------------- 7-11. ODE */

static impactfit_engine_request ode_request(const char *model, const char *integrator, double dt) {
  impactfit_engine_request rq = impactfit_engine_default_request();
  impactfit_error err;
  if (impactfit_engine_model_find("ode", NULL, model, &rq.model, &err))
    fprintf(stderr, "%s\n", err.message);
  rq.integrator = integrator;
  rq.dt = dt;
  return rq;
}

static void ode_set(impactfit_engine_request *rq, const char *name, double v0, double v1, int count) {
  impactfit_engine_setting *st = &rq->settings[rq->n_settings++];
  st->name = name;
  st->count = count;
  st->values[0] = v0;
  st->values[1] = v1;
}

/* backward Euler of clamped k x + c u at phase φ: e, and the roots in φ of the sign changes of the first
 * `kmax` steps (the row's push and x_k) */
typedef struct {
  double h, k, c, M, v, D;
} bek;

static void bek_state(const bek *B, double phi, int n, double *x, double *u, int *end) {
  double X = phi * B->v * B->h, U = B->v;
  *end = -1;
  for (int i = 0; i < n; i++) {
    if (X < 0.0 || B->k * X + (B->h * B->k + B->c) * U <= 0.0) { /* no contact, or the row would pull */
      *end = i;
      break;
    }
    U = (U - B->h * B->k / B->M * X) / B->D;
    X = X + B->h * U;
  }
  *x = X;
  *u = U;
}

static double bek_e(const bek *B, double phi) {
  double x, u;
  int end;
  bek_state(B, phi, 1000000, &x, &u, &end);
  return -u / B->v;
}

static void test_ode_backward_euler(double k, double c, double h) {
  const double v = 1.0;
  impactfit_engine_request rq = ode_request("spring-damper", "step", h);
  ode_set(&rq, "kp", k, 0, 1);
  impactfit_stepper st;
  impactfit_error err;
  CHECK(impactfit_engine_stepper(&rq, c, &st, &err) == 0, "ode: stepper k %g c %g h %g", k, c, h);
  const double M = rq.bodies.m1; /* a sphere on a plane: M = m1 */
  bek B = {h, k, c, M, v, 1.0 + h * (h * k + c) / M};
  for (int i = 0; i < 16; i++) {
    double phi = (i + 0.41) / 16.0;
    impactfit_step_impact o;
    CHECK(impactfit_step_impact_at(&st, v, phi, &o, &err) == 0, "ode: impact at %g", phi);
    CHECK_ABS(o.e, bek_e(&B, phi), 1e-12, "ode: k %g c %g h %g: e(%g) vs backward Euler", k, c, h, phi);
  }
  /* the exact mean: roots in φ of x_j(φ) and of the row k x_j + (hk + c) u_j, both linear in φ */
  double br[512];
  int nb = 0;
  br[nb++] = 0.0;
  for (int j = 0; j < 200 && nb < 508; j++) {
    /* the linear map's state after j unclamped steps, at φ = 0 and 1 */
    double X0 = 0.0, U0 = v, X1 = v * h, U1 = v;
    for (int i = 0; i < j; i++) {
      U0 = (U0 - h * k / M * X0) / B.D;
      X0 += h * U0;
      U1 = (U1 - h * k / M * X1) / B.D;
      X1 += h * U1;
    }
    double g0 = k * X0 + (h * k + c) * U0, g1 = k * X1 + (h * k + c) * U1;
    if (g0 != g1) {
      double r = g0 / (g0 - g1);
      if (r > 0.0 && r < 1.0)
        br[nb++] = r;
    }
    if (X0 != X1) {
      double r = X0 / (X0 - X1);
      if (r > 0.0 && r < 1.0)
        br[nb++] = r;
    }
  }
  br[nb++] = 1.0;
  qsort(br, (size_t)nb, sizeof br[0], cmp_d);
  double mean = 0.0;
  for (int i = 0; i + 1 < nb; i++) {
    double a = br[i], b = br[i + 1];
    if (b - a < 1e-15)
      continue;
    /* e is linear on (a, b): the values just inside the ends */
    double ea = bek_e(&B, a + 1e-9 * (b - a)), eb = bek_e(&B, b - 1e-9 * (b - a));
    mean += 0.5 * (ea + eb) * (b - a);
  }
  impactfit_step_stats S;
  CHECK(impactfit_step_phase_stats(&st, v, &S, &err) == 0, "ode: phase statistics");
  CHECK_ABS(S.e_mean, mean, 1e-10, "ode: k %g c %g h %g: mean over the phase vs the exact piecewise-linear mean", k, c,
            h);
  CHECK(S.stable, "ode: backward Euler is stable (h^2 k/M = %g)", h * h * k / M);
  printf("ode backward Euler: k %g c %g h %g (h^2 k/M %.3g): mean %.15f (exact %.15f), %d pieces\n", k, c, h,
         h * h * k / M, S.e_mean, mean, S.pieces);
}

static void test_ode_hard(void) {
  impactfit_error err;
  for (int j = 0; j < 3; j++) {
    double b = j == 0 ? 0.0 : j == 1 ? 0.3 : 0.9;
    impactfit_stepper st;
    if (b == 0.0) { /* the world's defaults typed as a soft contact, bounce off */
      impactfit_engine_request rq = ode_request("erp-cfm", "step", 1e-3);
      ode_set(&rq, "cfm", 1e-10, 0, 1);
      CHECK(impactfit_engine_stepper(&rq, 0.2, &st, &err) == 0, "ode hard: stepper");
    } else {
      impactfit_engine_request rq = ode_request("bounce", "step", 1e-3);
      ode_set(&rq, "bounce", 0.0, 0.0, 2);
      CHECK(impactfit_engine_stepper(&rq, b, &st, &err) == 0, "ode hard: stepper");
    }
    for (int i = 0; i < 8; i++) {
      double phi = (i + 0.5) / 8.0;
      impactfit_step_impact o;
      CHECK(impactfit_step_impact_at(&st, 1.0, phi, &o, &err) == 0, "ode hard: impact");
      CHECK_ABS(o.e, b == 0.0 ? 0.2 * phi : b, 1e-8, "ode hard: bounce %g: e(%g) = %s", b, phi,
                b == 0.0 ? "0.2 phi" : "bounce");
    }
  }
}

/* the default hard contact with bounce b < erp = 0.2: e(φ) = max(0.2 φ, b), so the mean is 0.1 + b²/0.4 and the
 * bounce for a mean e in (0.1, 0.2) is sqrt(0.4 (e − 0.1)) */
static void test_ode_bounce_mean(void) {
  impactfit_error err;
  for (int j = 0; j < 3; j++) {
    double e = 0.12 + 0.03 * j;
    impactfit_engine_request rq = ode_request("bounce", "step", 1e-2);
    ode_set(&rq, "bounce", 0.0, 0.0, 2);
    rq.e = e;
    impactfit_engine_answer a;
    CHECK(impactfit_engine_solve(&rq, &a, &err) == 0 && a.reachable, "ode bounce mean: solves %g", e);
    CHECK_ABS(a.value, sqrt(0.4 * (e - 0.1)), 1e-8, "ode bounce mean: bounce for e %g = sqrt(0.4 (e - 0.1))", e);
    CHECK_ABS(a.e_naive, 0.1 + e * e / 0.4, 1e-9, "ode bounce mean: bounce = e gives 0.1 + e^2/0.4 (e %g)", e);
  }
}

static void test_ode_quickstep(void) {
  const double iters[3] = {1, 5, 20}, ws[3] = {0.7, 1.0, 1.3};
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      impactfit_engine_request rq = ode_request("erp-cfm", "step", 1e-3);
      ode_set(&rq, "cfm", 0.5, 0, 1);
      impactfit_stepper ex, qs;
      impactfit_error err;
      impactfit_engine_stepper(&rq, 0.4, &ex, &err);
      rq.integrator = "quickstep";
      ode_set(&rq, "quickstep", iters[a], ws[b], 2);
      CHECK(impactfit_engine_stepper(&rq, 0.4, &qs, &err) == 0, "ode quickstep: stepper");
      for (int i = 0; i < 4; i++) {
        /* pushing (λ* > 0) and pulling (λ* < 0) states */
        impactfit_step_state s0 = {.x = 1e-4 * (i + 1), .u = i < 2 ? 0.3 : -0.9}, s1 = s0;
        ex.type->step(&ex, &s0);
        qs.type->step(&qs, &s1);
        double want = s0.f > 0.0 ? (1.0 - pow(1.0 - ws[b], iters[a])) * s0.f : 0.0;
        CHECK_ABS(s1.f, want, 1e-13 * fabs(s0.f) + 1e-300,
                  "ode quickstep: %g sweeps, w %g: lambda = (1 - (1 - w)^n) lambda* (state %d)", iters[a], ws[b], i);
      }
    }
}

static void test_ode_limit(void) {
  const double k = 1e3, c = 0.05;
  impactfit_engine_request rq = ode_request("spring-damper", "step", 1e-5);
  ode_set(&rq, "kp", k, 0, 1);
  double d[3], ec = NAN;
  impactfit_error err;
  for (int j = 0; j < 3; j++) {
    rq.dt = 1e-5 / (1 << j);
    impactfit_stepper st;
    impactfit_step_stats S;
    CHECK(impactfit_engine_stepper(&rq, c, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0,
          "ode limit: stats at %g", rq.dt);
    d[j] = S.e_mean - S.e_continuous;
    ec = S.e_continuous;
  }
  /* law.h's engine on the same law, independently of the stepper */
  impactfit_law_impact_params lp = impactfit_law_impact_default_params();
  lp.law = impactfit_law_power_make(k, 1.0, c, 0.0);
  lp.mass = rq.bodies.m1;
  lp.v = 1.0;
  lp.transition = impactfit_transition_C;
  impactfit_law_impact_result r;
  CHECK(impactfit_law_impact_solve(NULL, &lp, &r, &err) == 0, "ode limit: law");
  CHECK_ABS(ec, r.e_out, 1e-12, "ode limit: the stepper's continuous law is clamped Kelvin-Voigt k %g c %g", k, c);
  printf("ode limit: mean - continuous e at dt 1e-5, 5e-6, 2.5e-6: %.3e %.3e %.3e (e = %.9f)\n", d[0], d[1], d[2], ec);
  CHECK(fabs(d[0] / d[1] - 2.0) < 0.1 && fabs(d[1] / d[2] - 2.0) < 0.1, "ode limit: first order");
  CHECK(fabs(2.0 * d[2] - d[1]) < 0.02 * fabs(d[1]), "ode limit: extrapolated to dt = 0 (%.3g of %.3g)",
        2.0 * d[2] - d[1], d[1]);
}

static void test_ode_registry(void) {
  const impactfit_engine_model *md;
  impactfit_error err;
  const char *models[3] = {"spring-damper", "erp-cfm", "bounce"};
  for (int i = 0; i < 3; i++)
    CHECK(impactfit_engine_model_find("ode", NULL, models[i], &md, &err) == 0 && md->run_here &&
              strcmp(md->versions, "0.16.2") == 0 && strstr(md->source, "contact.cpp:141-213"),
          "ode registry: %s", models[i]);
  const char *ints[2] = {"step", "quickstep"};
  for (int k = 0; k < 2; k++)
    for (int j = 1; j <= 9; j += 4) {
      impactfit_engine_request rq = ode_request("spring-damper", ints[k], 1e-4);
      ode_set(&rq, "kp", 1e3, 0, 1);
      rq.e = 0.1 * j;
      impactfit_engine_answer a, f;
      int s = impactfit_engine_solve(&rq, &a, &err);
      if (j == 9) { /* 0.9 at h = 1e-4: the mean reaches only 0.875 */
        CHECK(s == 0 && !a.reachable && a.e_reach_max < 0.9, "ode registry: e 0.9 unreachable at 1e-4 (%g)",
              a.e_reach_max);
        continue;
      }
      CHECK(s == 0 && a.reachable, "ode registry: %s e %g solves", ints[k], rq.e);
      rq.e = NAN;
      rq.value = a.value;
      CHECK(impactfit_engine_solve(&rq, &f, &err) == 0, "ode registry: forward");
      CHECK_ABS(f.e_mean, 0.1 * j, 1e-9, "ode registry: %s forward at the inverse's kd gives e %g", ints[k], 0.1 * j);
      CHECK(strstr(a.input, "dContactSoftERP | dContactSoftCFM") && strstr(a.input, "soft_erp"),
            "ode registry: paste text %.300s", a.input);
    }
  /* issue 24: kp = 1e3 N/m, M = 1.309 g, h = 1e-3: no kd gives a mean e above 0.4028 */
  impactfit_engine_request rq = ode_request("spring-damper", "step", 1e-3);
  ode_set(&rq, "kp", 1e3, 0, 1);
  rq.e = 0.45;
  impactfit_engine_answer a;
  CHECK(impactfit_engine_solve(&rq, &a, &err) == 0 && !a.reachable && a.e_reach_max < 0.4028 && a.e_reach_max > 0.4026,
        "ode registry: 0.45 unreachable, the mean at most 0.4027 (%g)", a.e_reach_max);
}

/* ---------------------------------------------------------------- Bullet */

static impactfit_engine_request bullet_request(const char *model, double dt, int plane) {
  impactfit_engine_request rq = impactfit_engine_default_request();
  impactfit_error err;
  if (impactfit_engine_model_find("bullet", NULL, model, &rq.model, &err))
    fprintf(stderr, "%s\n", err.message);
  rq.dt = dt;
  rq.v = 1.0;
  rq.bodies.r1 = 0.005;
  rq.bodies.m1 = 4.0 / 3.0 * M_PI * 0.005 * 0.005 * 0.005 * 2500.0;
  rq.bodies.plane = plane;
  if (!plane) {
    rq.bodies.r2 = 0.005;
    rq.bodies.m2 = rq.bodies.m1;
  }
  return rq;
}

/* 12. restitution */
static void test_bullet_restitution(void) {
  impactfit_error err;
  impactfit_stepper st;
  impactfit_step_stats S;
  impactfit_engine_request rq = bullet_request("restitution", 1e-3, 1);
  for (int k = 0; k < 3; k++) {
    double r = 0.3 + 0.2 * k, tau = 0.02 * sqrt(3.0) * 0.005 / 1e-3;
    CHECK(impactfit_engine_stepper(&rq, r, &st, &err) == 0, "bullet: restitution stepper");
    for (int i = 1; i < 16; i++) {
      double phi = i / 16.0, want = phi < 1.0 - tau ? r + 0.2 * phi : r - (1.0 - phi);
      impactfit_step_impact o;
      CHECK(impactfit_step_impact_at(&st, 1.0, phi, &o, &err) == 0 && fabs(o.e - want) < 1e-12,
            "bullet: restitution %g, e(%g) = %.15g (closed form %.15g)", r, phi, o.e, want);
    }
    CHECK(impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0, "bullet: restitution stats");
    double mean = r + 0.2 * (1 - tau) * (1 - tau) / 2 - tau * tau / 2;
    CHECK(fabs(S.e_mean - mean) < 1e-11 && fabs(S.e_min - (r - tau)) < 1e-9 &&
              fabs(S.e_max - (r + 0.2 * (1 - tau))) < 1e-9,
          "bullet: restitution %g mean %.15g [%.12g, %.12g] (closed form %.15g [%.12g, %.12g])", r, S.e_mean, S.e_min,
          S.e_max, mean, r - tau, r + 0.2 * (1 - tau));
  }
  /* two spheres: e = r + erp2 phi at h = 1e-4 (no row before touching), mean r + 0.1 */
  rq = bullet_request("restitution", 1e-4, 0);
  CHECK(impactfit_engine_stepper(&rq, 0.5, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0,
        "bullet: spheres stats");
  CHECK(fabs(S.e_mean - 0.6) < 1e-11 && fabs(S.e_min - 0.5) < 1e-9 && fabs(S.e_max - 0.7) < 1e-9,
        "bullet: two spheres, restitution 0.5 at 1e-4: mean %.15g [%.12g, %.12g] (want 0.6 [0.5, 0.7])", S.e_mean,
        S.e_min, S.e_max);
  /* the plane at 1e-4: the rows before touching stop the sphere (the e = 0) */
  rq = bullet_request("restitution", 1e-4, 1);
  CHECK(impactfit_engine_stepper(&rq, 0.5, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0 &&
            S.e_max < 1e-12,
        "bullet: the plane at 1e-4, restitution 0.5 gives %.3g", S.e_max);
}

/* 13. one stiffness-damping step is backward Euler */
static void test_bullet_backward_euler(void) {
  impactfit_error err;
  impactfit_stepper st;
  impactfit_engine_request rq = bullet_request("contact stiffness damping", 1e-3, 1);
  impactfit_engine_setting set[2] = {{.name = "kp", .count = 1, .values = {1e3}},
                                     {.name = "other", .count = 2, .values = {1e30, 0.0}}};
  rq.settings[0] = set[0];
  rq.settings[1] = set[1];
  rq.n_settings = 2;
  double c = 0.3;
  CHECK(impactfit_engine_stepper(&rq, c, &st, &err) == 0, "bullet: stiffness stepper");
  double k = 1.0 / (1.0 / 1e3 + 1.0 / 1e30), M = st.mass, h = st.dt;
  impactfit_step_state s;
  memset(&s, 0, sizeof s);
  s.x = 2e-4;
  s.u = 0.7;
  s.mem[1] = 1.0; /* an existing point with no impulse: no warm start */
  double u1 = (M * s.u - h * k * s.x) / (M + h * c + h * h * k), x1 = s.x + h * u1;
  CHECK(st.type->step(&st, &s) == 0 && fabs(s.u - u1) < 1e-14 && fabs(s.x - x1) < 1e-17,
        "bullet: one step (%.17g, %.17g), backward Euler (%.17g, %.17g)", s.x, s.u, x1, u1);
}

/* 14. dt -> 0 */
static void test_bullet_limit(void) {
  impactfit_error err;
  impactfit_stepper st;
  impactfit_step_stats S;
  double em[3];
  for (int i = 0; i < 3; i++) {
    impactfit_engine_request rq = bullet_request("contact stiffness damping", 4e-5 / (1 << i), 1);
    impactfit_engine_setting set[2] = {{.name = "kp", .count = 1, .values = {1e3}},
                                       {.name = "other", .count = 2, .values = {1e30, 0.0}}};
    rq.settings[0] = set[0];
    rq.settings[1] = set[1];
    rq.n_settings = 2;
    CHECK(impactfit_engine_stepper(&rq, 0.5, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0,
          "bullet: limit stats");
    em[i] = S.e_mean;
  }
  double ex = (8.0 * em[2] - 6.0 * em[1] + em[0]) / 3.0, d1 = em[1] - S.e_continuous, d2 = em[2] - S.e_continuous;
  CHECK(fabs(d1 / d2 - 2.0) < 0.1, "bullet: first order in h (%.6g %.6g)", d1, d2);
  CHECK(fabs(ex - S.e_continuous) < 3e-5, "bullet: the extrapolated mean %.9g is the continuous e %.9g", ex,
        S.e_continuous);
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
  test_adaptive();
  test_simbody_law();
  test_simbody_solve();
  test_chrono_laws();
  test_chrono_versions();
  test_chrono_steps();
  test_chrono_explicit_stability();
  test_ode_backward_euler(1e3, 0.05, 1e-3);
  test_ode_backward_euler(1e3, 1e-9, 1e-3);
  test_ode_backward_euler(1e3, 0.5, 1e-4);
  test_ode_backward_euler(1e5, 0.3, 1e-3);
  test_ode_hard();
  test_ode_bounce_mean();
  test_ode_quickstep();
  test_ode_limit();
  test_ode_registry();
  test_bullet_restitution();
  test_bullet_backward_euler();
  test_bullet_limit();
  return tu_report("test_engines");
}
