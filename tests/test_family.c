/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The phase statistics' family of reference impacts (src/law/step_family.c) against the same step map stepped in
 * __float128: MuJoCo's soft contact (its default solimp, rscale 1, no gravity) under its RK4 and semi-implicit
 * Euler at dt 1e-5 s, contacts of 1.4e3-8.1e3 steps, where the family's first check (φ = 1/2 through the family
 * of the other three nodes) was refused by the error of its quadratic in the label (1.3e-13 to 1.2e-12 against
 * the check's 1e-13) and every phase was stepped in full. The map is written here from stepper.h's and law.h's
 * definitions (the impedance d(δ) of MuJoCo's solimp sigmoid, f = M d (B δ' + K d δ) clamped at 0, contact
 * wherever δ > 0 at a stage), sharing no code with the library; an impact starts at x = (φ − 2) v dt, u = v as
 * impactfit__step_impact's, rounded to the same double, and ends after the first step that leaves x ≤ 0, u < 0 and
 * applied no force (stepper.h). Checked:
 *   - the family is built (its check passes: one node more where the first family's check is off);
 *   - at 8 phases, e passed through the family and e stepped in full in double are both within 1e-14 of the
 *     __float128 e (measured: at most 2.0e-15 each), with the same signature and steps: the double stepping's
 *     own rounding is far below the check's 1e-13, so the tolerance was not what refused the family;
 *   - e_mean of the phase statistics (the family used) within 1e-14 of the mean of the __float128 e (measured:
 *     within 1.1e-15, as e_mean with every phase stepped in full was), the means below computed by
 *     `test_family --mean` (about two minutes: not run by ctest): the __float128 e on 128 samples of φ, its
 *     pieces' ends bisected to 4e-16 on its own steps' codes (each stage's contact, clamp and knot sides), 16- and
 *     24-point Gauss-Legendre on every piece (agreeing to 1e-17). */
#include <math.h>
#include <quadmath.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/codes.h"
#include "impactfit/impactfit.h"
#include "impactfit/stepper.h"
#include "../src/law/step_internal.h"
#include "testutil.h"

typedef __float128 Q;

typedef struct {
  Q M, B, K, d0, dw, width, mid;
  int rk4;
} qlaw;

/* MuJoCo's impedance for power 2 (the default): d0 + y (dw − d0), y = x²/mid below the midpoint, 1 − (1 − x)²/(1 − mid)
 * above it, x = δ/width, dw from width on; *code gets the knots' sides */
static Q q_d(const qlaw *L, Q delta, unsigned *code) {
  Q x = delta / L->width;
  if (x >= 1) {
    *code |= 4u;
    return L->dw;
  }
  if (x > L->mid)
    *code |= 8u;
  Q y = x <= L->mid ? x * x / L->mid : 1 - (1 - x) * (1 - x) / (1 - L->mid);
  return L->d0 + y * (L->dw - L->d0);
}

/* the acceleration −f/M at a stage: contact where δ > 0, the force clamped at 0 (the end C); 4 bits of *code */
static Q q_acc(const qlaw *L, Q x, Q u, uint64_t *code) {
  *code <<= 4;
  if (!(x > 0))
    return 0;
  unsigned c = 1u;
  Q d = q_d(L, x, &c), f = L->M * d * (L->B * u + L->K * d * x);
  if (!(f > 0))
    f = 0, c |= 2u;
  *code |= c;
  return -f / L->M;
}

static uint64_t fnv(uint64_t h, uint64_t x) { return (h ^ x) * UINT64_C(1099511628211); }

/* one impact at phase phi: e = −u/v after the first step that leaves x ≤ 0, u < 0 and applied no force; *sig a hash
 * of the steps' codes (run lengths), *steps the steps from the first in contact */
static double q_impact(const qlaw *L, double dt, double v, double phi, uint64_t *sig, long *steps) {
  Q h = dt, x = (phi - 2.0) * (v * dt), u = v;
  uint64_t H = UINT64_C(1469598103934665603), last = 0;
  long run = 0;
  *steps = 0;
  for (long k = 0; k < 1000000; k++) {
    uint64_t code = 0;
    Q xn, un;
    if (L->rk4) {
      Q k1x = u, k1u = q_acc(L, x, u, &code);
      Q k2x = u + h / 2 * k1u, k2u = q_acc(L, x + h / 2 * k1x, k2x, &code);
      Q k3x = u + h / 2 * k2u, k3u = q_acc(L, x + h / 2 * k2x, k3x, &code);
      Q k4x = u + h * k3u, k4u = q_acc(L, x + h * k3x, k4x, &code);
      xn = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
      un = u + h / 6 * (k1u + 2 * k2u + 2 * k3u + k4u);
    } else { /* semi-implicit Euler: the velocity first, the position with the new velocity */
      un = u + h * q_acc(L, x, u, &code);
      xn = x + h * un;
    }
    int contact = (code & UINT64_C(0x1111)) != 0, pushed = contact && un != u; /* a force applied */
    x = xn, u = un;
    if (!*steps && !contact)
      continue;
    ++*steps;
    if (code != last || *steps == 1)
      H = fnv(fnv(H, last), (uint64_t)run), last = code, run = 0;
    run++;
    if (x <= 0 && u < 0 && !pushed) {
      *sig = fnv(fnv(H, last), (uint64_t)run);
      return (double)(-u / v);
    }
  }
  *sig = 0;
  return NAN;
}

/* Gauss–Legendre nodes and weights on [−1, 1] (Newton on the Legendre recurrence, in __float128) */
static void q_gauss(int n, Q *x, Q *w) {
  for (int i = 0; i < n; i++) {
    Q z = cosq(M_PIq * (i + 0.75Q) / (n + 0.5Q)), dp = 1;
    for (int it = 0; it < 100; it++) {
      Q p1 = 1, p2 = 0;
      for (int j = 1; j <= n; j++) {
        Q p3 = p2;
        p2 = p1;
        p1 = ((2 * j - 1) * z * p2 - (j - 1) * p3) / j;
      }
      dp = n * (z * p1 - p2) / (z * z - 1);
      Q dz = p1 / dp;
      z -= dz;
      if (fabsq(dz) < 1e-32Q)
        break;
    }
    x[i] = z, w[i] = 2 / ((1 - z * z) * dp * dp);
  }
}

/* the mean of the __float128 e over φ ∈ (0, 1]: pieces of one code sequence from 128 samples, their ends
 * bisected to 4e-16, ng-point Gauss–Legendre on each */
static Q q_mean(const qlaw *L, double dt, double v, int ng, int *pieces) {
  enum { NS = 128, MAXB = 512 };
  double br[MAXB];
  int nb = 0;
  uint64_t sp, sa, sm;
  long n;
  double pp = 0x1p-40;
  q_impact(L, dt, v, pp, &sp, &n);
  for (int i = 1; i <= NS; i++) {
    double p = (double)i / NS, a = pp;
    uint64_t s;
    q_impact(L, dt, v, p, &s, &n);
    sa = sp;
    while (sa != s && nb < MAXB) { /* the first end after a, then on from it */
      double lo = a, hi = p;
      while (hi - lo > 4e-16) {
        double m = 0.5 * (lo + hi);
        q_impact(L, dt, v, m, &sm, &n);
        if (sm == sa)
          lo = m;
        else
          hi = m;
      }
      br[nb++] = hi;
      a = hi;
      q_impact(L, dt, v, hi, &sa, &n);
    }
    sp = s, pp = p;
  }
  Q xg[32], wg[32], mean = 0;
  q_gauss(ng, xg, wg);
  double a = 0.0;
  for (int k = 0; k <= nb; k++) {
    double b = k < nb ? br[k] : 1.0;
    Q hw = ((Q)b - a) / 2, c = ((Q)b + a) / 2, sum = 0;
    for (int i = 0; i < ng; i++)
      sum += wg[i] * q_impact(L, dt, v, (double)(c + hw * xg[i]), &sm, &n);
    mean += hw * sum;
    a = b;
  }
  *pieces = nb + 1;
  return mean;
}

typedef struct {
  const char *integrator;
  double dt, v, dampratio;
  double q_mean; /* the mean of the __float128 e (test_family --mean) */
} fcase;

static const fcase cases[] = {
    {"rk4", 1e-5, 0.1, 1.0, 0.13771131068920217},                 /* MuJoCo's default dampratio: 8100 steps */
    {"rk4", 1e-5, 0.1, 0.25595644841302345, 0.50000000000000511}, /* the inverse's answer for e = 0.5: 1724 steps */
    {"rk4", 1e-5, 0.3, 0.25, 0.51028826940338445},                /* 0.3 m/s: the first family's check 7.6e-13 off */
    {"euler", 1e-5, 0.1, 1.0, 0.13766661429001414},
};

/* MuJoCo's soft contact under `integrator` at dt for a 1.309 g sphere at v with the given dampratio: 0 with *st */
static int mujoco_stepper(const char *integrator, double dt, double v, double dampratio, impactfit_stepper *st) {
  const impactfit_code_model *md;
  impactfit_error err;
  impactfit_code_request rq = impactfit_code_request_default();
  if (impactfit_code_model_find("mujoco", NULL, "soft contact", NULL, &md, &err)) {
    CHECK(0, "mujoco: %s", err.message);
    return 1;
  }
  rq.model = md, rq.integrator = integrator, rq.dt = dt, rq.v = v;
  rq.bodies.m1 = 0.001309, rq.bodies.r1 = 0.005;
  if (impactfit_code_stepper(&rq, dampratio, st, &err)) {
    CHECK(0, "%s: stepper: %s", integrator, err.message);
    return 1;
  }
  return 0;
}

static void family_case(const fcase *fc, int long_mean) {
  impactfit_error err;
  impactfit_stepper st;
  if (mujoco_stepper(fc->integrator, fc->dt, fc->v, fc->dampratio, &st))
    return;
  double v = fc->v, dt = fc->dt, p[10];
  for (int i = 0; i < 10; i++)
    p[i] = st.law.p[i];
  /* the law's parameters in law.c's order: M, B, K, d0, dwidth, width, midpoint, power, rscale, g */
  int plain = st.law.type == impactfit_law_impedance && p[7] == 2.0 && p[8] == 1.0 && p[9] == 0.0;
  CHECK(plain, "%s: the default impedance (power 2, rscale 1, no gravity)", fc->integrator);
  if (!plain)
    return;
  qlaw L = {.M = p[0],
            .B = p[1],
            .K = p[2],
            .d0 = p[3],
            .dw = p[4],
            .width = p[5],
            .mid = p[6],
            .rk4 = st.type == impactfit_stepper_rk4};
  char what[160];
  snprintf(what, sizeof what, "%s dt %g v %g dampratio %.9g", fc->integrator, dt, v, fc->dampratio);
  impactfit_step_stats S = {0};
  impactfit__family *f = NULL;
  CHECK(impactfit__family_build(&st, v, 1, &S, &f, &err) == 0 && f, "%s: the family is built (its check passes)", what);
  if (!f)
    return;
  double worst_f = 0.0, worst_d = 0.0;
  long steps = 0, work_full = 0, work_fam = 0;
  for (int i = 0; i < 8; i++) {
    double phi = (i + 0.5) / 8.0;
    impactfit_step_impact a, b;
    uint64_t sig;
    int s1 = impactfit__step_impact(&st, v, phi, 1, STEP_LIMIT, NULL, &a, &err);
    impactfit__family_begin(f);
    int s2 = impactfit__step_impact(&st, v, phi, 1, STEP_LIMIT, impactfit__family_hooks(f), &b, &err);
    double eq = q_impact(&L, dt, v, phi, &sig, &steps);
    CHECK(s1 == 0 && s2 == 0 && a.signature == b.signature && a.steps == steps && b.steps == steps,
          "%s phase %g: the family's impact has the stepped one's signature and steps (%ld, %ld; __float128 %ld)", what,
          phi, a.steps, b.steps, steps);
    CHECK_ABS(b.e, eq, 1e-14, "%s phase %g: e through the family against __float128", what, phi);
    CHECK_ABS(a.e, eq, 1e-14, "%s phase %g: e stepped in double against __float128", what, phi);
    worst_f = fmax(worst_f, fabs(b.e - eq));
    worst_d = fmax(worst_d, fabs(a.e - eq));
    work_full += a.work, work_fam += b.work;
  }
  impactfit__family_free(f);
  CHECK(impactfit_step_phase_stats(&st, v, &S, &err) == 0, "%s: phase statistics: %s", what, err.message);
  printf("test_family: %s, %ld steps: e - e(__float128) at 8 phases: family %.2e, stepped %.2e; work per impact %ld "
         "stepped, %ld through the family; e_mean - mean(__float128) %.2e\n",
         what, steps, worst_f, worst_d, work_full / 8, work_fam / 8, S.e_mean - fc->q_mean);
  CHECK_ABS(S.e_mean, fc->q_mean, 1e-14, "%s: e_mean against the mean of the __float128 e", what);
  if (long_mean) { /* the reference means themselves */
    int pieces;
    Q m16 = q_mean(&L, dt, v, 16, &pieces), m24 = q_mean(&L, dt, v, 24, &pieces);
    printf("test_family: %s: the mean of the __float128 e %.17g (16 points a piece; 24: %.3e more), %d pieces\n", what,
           (double)m16, (double)(m24 - m16), pieces);
    CHECK_ABS((double)m16, fc->q_mean, 1e-17, "%s: the stated mean of the __float128 e", what);
    CHECK_ABS((double)(m24 - m16), 0.0, 1e-17, "%s: 16- and 24-point Gauss-Legendre agree", what);
  }
}

/* rk4's and Euler's long runs taken at once by the flow (src/law/stepper.c, flow_run: rk4 by the law's own field,
 * Euler by its modified field), against the same map stepped in __float128 at 4 phases: the flow is taken (the work
 * at most `work` of the steps), the steps are the stepped map's, e within 1e-14 */
typedef struct {
  const char *integrator;
  double dt, v, dampratio, work;
} flow_case;

static const flow_case flow_cases[] = {
    {"rk4", 1e-7, 0.1, 0.2559564478273982, 0.01}, /* the inverse's answer for e = 0.5 at 1e-7 s: 1.7e5 steps */
    {"rk4", 1e-7, 1.0, 0.25, 0.01},               /* 1 m/s: the run stops at the knots and goes on after them */
    {"rk4", 1e-6, 0.3, 0.25, 0.7}, /* 1e-6 s at 0.3 m/s: 1.6e4 steps, the runs of 4096 steps or more by the flow */
    {"euler", 1e-7, 0.1, 0.2559558335785886, 0.05}, /* Euler's answer for e = 0.5 at 1e-7 s: 1.7e5 steps */
    {"euler", 1e-7, 1.0, 0.25, 0.05},               /* 1 m/s: through the impedance's knots */
};

static void flow_case_run(const flow_case *fc) {
  impactfit_error err;
  impactfit_stepper st;
  if (mujoco_stepper(fc->integrator, fc->dt, fc->v, fc->dampratio, &st))
    return;
  const double *p = st.law.p;
  qlaw L = {.M = p[0],
            .B = p[1],
            .K = p[2],
            .d0 = p[3],
            .dw = p[4],
            .width = p[5],
            .mid = p[6],
            .rk4 = !strcmp(fc->integrator, "rk4")};
  double worst = 0.0;
  long work = 0, steps = 0;
  for (int i = 0; i < 4; i++) {
    double phi = (i + 0.3) / 4.0;
    impactfit_step_impact a;
    uint64_t sig;
    int s1 = impactfit__step_impact(&st, fc->v, phi, 0, STEP_LIMIT, NULL, &a, &err);
    double eq = q_impact(&L, fc->dt, fc->v, phi, &sig, &steps);
    CHECK(s1 == 0 && a.steps == steps && (double)a.work <= fc->work * (double)steps,
          "flow %s dt %g v %g phase %g: taken (work %ld of %ld steps; __float128 %ld steps)", fc->integrator, fc->dt,
          fc->v, phi, a.work, a.steps, steps);
    CHECK_ABS(a.e, eq, 1e-14, "flow %s dt %g v %g phase %g: e against __float128", fc->integrator, fc->dt, fc->v, phi);
    worst = fmax(worst, fabs(a.e - eq));
    work += a.work;
  }
  printf("test_family: %s by the flow, dt %g v %g, %ld steps: e - e(__float128) at 4 phases %.2e, work per impact "
         "%ld\n",
         fc->integrator, fc->dt, fc->v, steps, worst, work / 4);
}

int main(int argc, char **argv) {
  int long_mean = argc > 1 && !strcmp(argv[1], "--mean");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    family_case(&cases[i], long_mean);
  for (size_t i = 0; i < sizeof flow_cases / sizeof flow_cases[0]; i++)
    flow_case_run(&flow_cases[i]);
  return tu_report("test_family");
}
