/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Hunt–Crossley module (include/impactfit/hc.h) against exact and independently computed results.
 *
 * Exact ε(e) is checked against
 *  - values computed once with 60-digit arithmetic (mpmath, bisection on the original relation
 *    ln(1+ε) − ln(1−eε) − ε(1+e) = 0; the script is in the comment of test_eps_reference);
 *  - the series near e = 1 and the fixed point near e = 0 (derived below);
 *  - an independent forward map e(ε) (Newton on a different form of the relation, below);
 *  - direct integration with the impact engine, over 1e-6 ≤ e ≤ 1.
 * Δτ(ε, n) is checked against the undamped closed form and against an independent quadrature of
 * the first integral (derived in the comment of ref_dtau). Identification is checked by round
 * trips, the Ramaswamy–Humbert refits by optimality conditions (neighbours, alternation), the
 * surrogate on held-out points. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_gamma.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

static impactfit_impact_workspace *ws;

static double eps_of(double e) {
  double x = NAN;
  impactfit_error err;
  if (impactfit_hc_eps(e, &x, &err))
    fprintf(stderr, "  hc_eps(%.17g) failed: %s\n", e, err.message);
  return x;
}

/* ---- independent references ---------------------------------------------------------------- */

/* E(h) = e^h − 1 − h without cancellation. */
static double E1(double h) {
  if (fabs(h) >= 0.5)
    return expm1(h) - h;
  double t = 0.5 * h * h, s = 0.0, terms[40];
  int n = 0;
  for (int k = 3; n < 40; k++) {
    terms[n++] = t;
    t *= h / k;
    if (fabs(t) < 1e-19 * fabs(terms[0]))
      break;
  }
  for (int i = n - 1; i >= 0; i--)
    s += terms[i];
  return s;
}

/* A(ε) = ε − ln(1+ε) without cancellation. */
static double A1(double eps) {
  if (eps >= 0.5)
    return eps - log1p(eps);
  double s = 0.0, t = eps, terms[80];
  int n = 0;
  for (int k = 2; n < 80; k++) {
    t *= eps;
    terms[n++] = ((k % 2) ? -1.0 : 1.0) * t / k;
    if (t < 1e-19 * eps * eps)
      break;
  }
  for (int i = n - 1; i >= 0; i--)
    s += terms[i];
  return s;
}

/* The relation (1+ε)/(1−eε) = exp(ε(1+e)) with u = 1 − eε = e^w reads
 *     ε − ln(1+ε) = e^w − 1 − w,   i.e.  A(ε) = E(w),  w < 0,
 * (take logarithms: ln(1+ε) − w = ε + eε = ε + 1 − e^w). E is convex and decreasing on w < 0,
 * so Newton's method from a point left of the root, w0 = −1 − A − √(2A) (where E(w0) ≥ A), rises
 * monotonically to it. Then e = (1 − e^w)/ε. A different equation from the library's (which solves
 * ln q(ε) − ln q(−eε) = 2 ln e for w at fixed e, by a bracketed Newton iteration with its own
 * derivative). */
static double ref_w(double eps) {
  double A = A1(eps), w = -1.0 - A - sqrt(2.0 * A);
  for (int i = 0; i < 400; i++) {
    double wn = w - (E1(w) - A) / expm1(w);
    if (!(wn > w))
      break;
    w = wn;
  }
  return w;
}

static double ref_e(double eps) { return -expm1(ref_w(eps)) / eps; }

/* ---- exact ε(e) ------------------------------------------------------------------------------ */

static void test_eps_reference(void) {
  /* mpmath, 60 digits:
   *   f = lambda x: log(1+x) - log(1-e*x) - x*(1+e); bisection 400 times on
   *   (1.5(1-e), (1 - 1e-50)/e) with e = mpf(float(s)) (the double nearest s). */
  static const struct {
    double e, eps;
  } ref[] = {
      {0.001, 999.9999999999999791833183},    {0.05, 19.99999968153235925437525}, {0.1, 9.998159397495667261922173},
      {0.32, 2.843491765622444030279961},     {0.5, 1.43275053327137502805272},   {0.9, 0.1664819506853080638992742},
      {0.999, 0.001501501351201086624456538},
  };
  for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++)
    CHECK_REL(eps_of(ref[i].e), ref[i].eps, 1e-15, "eps(%g) against 60-digit reference", ref[i].e);
  double x = -1.0;
  CHECK(impactfit_hc_eps(1.0, &x, NULL) == 0 && x == 0.0, "eps(1) = 0 exactly");
  CHECK(impactfit_hc_e(0.0, &x, NULL) == 0 && x == 1.0, "e(0) = 1 exactly");
}

/* Near e = 1, s = 1 − e: the relation divided by ε² is
 *   g(ε) = Σ_{k≥2} ((−1)^(k+1) + e^k) ε^(k−2)/k = 0.
 * Substituting ε = a1 s + a2 s² + … and equating powers of s: order s: −1 + (2/3) a1 = 0, a1 = 3/2
 * (Hunt–Crossley); order s²: 1/2 + (2/3) a2 − a1 = 0, a2 = 3/2; the next six (computer algebra)
 * 27/20, 6/5, 759/700, 351/350, 6639/7000, 1599/1750. Truncation error for s ≤ 0.01: about
 * 0.9 s^9, below 1e-16 relative. */
static double series_near_one(double s) {
  static const double a[8] = {1.5, 1.5, 27.0 / 20, 6.0 / 5, 759.0 / 700, 351.0 / 350, 6639.0 / 7000, 1599.0 / 1750};
  double r = 0.0;
  for (int k = 7; k >= 0; k--)
    r = (r + a[k]) * s;
  return r;
}

/* Near e = 0: u = 1 − eε = (1 + ε) exp(−ε(1 + e)), ε = (1 − u)/e. Starting from u = 0 (ε = 1/e)
 * the iteration is a contraction with factor ≈ ε u/e (below 1e-5 for e ≤ 0.05); in logarithms
 * ln u = ln(1+ε) − ε(1+e), so u may underflow. */
static double fixed_point_near_zero(double e) {
  double eps = 1.0 / e;
  for (int i = 0; i < 20; i++)
    eps = -expm1(log1p(eps) - eps * (1.0 + e)) / e;
  return eps;
}

static void test_eps_limits(void) {
  for (int k = 0; k <= 56; k++) {
    double s = 0.01 * pow(2.0, -k); /* 0.01 .. 1.4e-19 */
    double e = 1.0 - s;
    s = 1.0 - e; /* exact */
    if (s == 0.0)
      continue;
    CHECK_REL(eps_of(e), series_near_one(s), 1e-15, "eps(1 - %g) against the series", s);
  }
  double es[] = {1e-300, 1e-100, 1e-20, 1e-15, 1e-12, 1e-6, 1e-5, 1e-4, 1e-3, 0.005, 0.01, 0.02, 0.03, 0.05};
  for (size_t i = 0; i < sizeof es / sizeof es[0]; i++)
    CHECK_REL(eps_of(es[i]), fixed_point_near_zero(es[i]), 4e-16, "eps(%g) against the fixed point", es[i]);
}

static void test_eps_roundtrip(void) {
  /* ε(e) against the independent forward map, and against the library's own inverse. */
  for (int i = 0; i <= 300; i++) {
    double e = pow(10.0, -6.0 + 6.0 * i / 300.0);
    double x = eps_of(e), back;
    CHECK_REL(x > 0.0 ? ref_e(x) : 1.0, e, 2e-15, "independent e(eps(%g))", e);
    CHECK(impactfit_hc_e(x, &back, NULL) == 0, "hc_e(%g)", x);
    CHECK_REL(back, e, 2e-15, "hc_e(hc_eps(%g))", e);
  }
  for (int i = 0; i <= 200; i++) {
    double eps = pow(10.0, -12.0 + 18.0 * i / 200.0), e;
    CHECK(impactfit_hc_e(eps, &e, NULL) == 0, "hc_e(%g)", eps);
    CHECK_REL(e, ref_e(eps), 2e-15, "hc_e(%g) against the independent forward map", eps);
  }
}

/* Direct integration: an impact with λ = ε(e) k / v must come back with e. The engine's accuracy
 * is about 1e-14 absolute (1e-12 relative for small e). Condition C, the papers' choice. */
static void test_eps_engine(void) {
  double es[] = {1e-6, 1e-5, 1e-4, 3e-4, 1e-3, 0.003, 0.01,  0.05,     0.1,
                 0.2,  0.32, 0.5,  0.7,  0.9,  0.99,  0.999, 1 - 1e-6, 1.0};
  double ns[] = {1.0, 1.5, 2.0};
  for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
    for (size_t i = 0; i < sizeof es / sizeof es[0]; i++) {
      impactfit_impact_params p = impactfit_impact_default_params();
      p.n = p.m = ns[j];
      p.mass = 0.3;
      p.k = 4e7;
      p.v = 1.7;
      p.c = eps_of(es[i]) * p.k / p.v;
      p.locate_extrema = 0;
      impactfit_impact_result r;
      impactfit_error err;
      int st = impactfit_impact_solve(ws, &p, &r, &err);
      CHECK(st == 0, "engine n=%g e=%g: %.120s", ns[j], es[i], err.message);
      /* The engine integrates the whole contact to δ = 0: for e ≲ 1e-5 that ends with a long creep
       * at δ' ≈ −v/ε (time ∝ ε), where its e_out is good to 1.5e-12 relative (measured at
       * e = 1e-6); elsewhere to a few 1e-14. */
      if (!st)
        CHECK_REL(r.e_out, es[i], es[i] < 1e-5 ? 3e-12 : 1e-12, "engine with exact eps: n=%g e=%g", ns[j], es[i]);
    }
}

static void test_eps_invalid(void) {
  double bad[] = {0.0, -0.5, 1.0 + 1e-15, 2.0, NAN, INFINITY, -INFINITY, 1e-320};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    double x = 123.0;
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_hc_eps(bad[i], &x, &err);
    CHECK(st == IMPACTFIT_EINVAL && err.message[0] && x == 123.0, "hc_eps(%g): EINVAL with a message", bad[i]);
  }
  double badx[] = {-1e-300, -1.0, NAN, INFINITY};
  for (size_t i = 0; i < sizeof badx / sizeof badx[0]; i++) {
    double e;
    CHECK(impactfit_hc_e(badx[i], &e, NULL) == IMPACTFIT_EINVAL, "hc_e(%g): EINVAL", badx[i]);
  }
  CHECK(impactfit_hc_eps(0.5, NULL, NULL) == IMPACTFIT_EINVAL, "hc_eps: NULL output");
}

/* ---- Δτ(ε, n) -------------------------------------------------------------------------------- */

/* An independent quadrature. With p = x' as the variable, x'' + x^n(εp + 1) = 0 gives
 * p dp/(1 + εp) = −x^n dx, and with s = ln(1 + εp) (p from 1 down to −e, s from S = ln(1+ε) down
 * to w = ln(1 − eε)):
 *     x^(n+1)/(n+1) = Φ(s)/ε²,   Φ(s) = E(S) − E(s) = E(w) − E(s)   (E(h) = e^h − 1 − h),
 *     dτ = dx/p = −dp/(x^n (1+εp)) = −ds/(ε x^n),
 *     Δτ = ε^((n−1)/(n+1)) (n+1)^(−n/(n+1)) ∫_w^S Φ(s)^(−n/(n+1)) ds.
 * Φ has simple zeros at both ends (Φ'(S) = −ε, Φ'(w) = 1 − e^w), so the integrand is
 * (s − w)^(−a) (S − s)^(−a) times a smooth factor, a = n/(n+1): GSL's QAWS. Φ without
 * cancellation: for s ≥ 0, h = S − s: Φ = h (e^s − 1) + e^s E(h) (both terms ≥ 0); for s < 0,
 * h = s − w: Φ = h (1 − e^w) − e^w E(h), e^w E(h) = e^s − e^w (1 + h) for h > 1. */
typedef struct qctx {
  double eps, S, w, a;
} qctx;

static double q_phi(const qctx *c, double s) {
  if (s >= 0.0) {
    double h = c->S - s;
    return h * expm1(s) + exp(s) * E1(h);
  }
  double h = s - c->w;
  double t = (h > 1.0) ? exp(s) - exp(c->w) * (1.0 + h) : exp(c->w) * E1(h);
  return h * (-expm1(c->w)) - t;
}

static double q_smooth(double s, void *vp) {
  const qctx *c = vp;
  if (s >= c->S) /* limits at the ends: Φ ≈ ε (S − s), Φ ≈ (1 − e^w)(s − w) */
    return pow((c->S - c->w) / c->eps, c->a);
  if (s <= c->w)
    return pow((c->S - c->w) / (-expm1(c->w)), c->a);
  return pow((s - c->w) * (c->S - s) / q_phi(c, s), c->a);
}

static double ref_dtau(double eps, double n) {
  qctx c = {eps, log1p(eps), ref_w(eps), n / (n + 1.0)};
  gsl_integration_qaws_table *t = gsl_integration_qaws_table_alloc(-c.a, -c.a, 0, 0);
  gsl_integration_workspace *iw = gsl_integration_workspace_alloc(1000);
  gsl_function F = {q_smooth, &c};
  double r = NAN, abserr;
  int st = gsl_integration_qaws(&F, c.w, c.S, t, 0.0, 1e-13, 1000, iw, &r, &abserr);
  gsl_integration_workspace_free(iw);
  gsl_integration_qaws_table_free(t);
  if (st)
    return NAN;
  return r * pow(eps, (n - 1.0) / (n + 1.0)) * pow(n + 1.0, -c.a);
}

static void test_impact_time(void) {
  double d, e;
  /* Undamped: energy x'²/2 + x^(n+1)/(n+1) = 1/2, x_m = ((n+1)/2)^(1/(n+1)),
   * Δτ = 2 ∫_0^x_m dx/√(1 − 2x^(n+1)/(n+1)) = 2 x_m ∫_0^1 (1 − z^(n+1))^(−1/2) dz
   *    = 2 x_m B(1/(n+1), 1/2)/(n+1); for n = 1: x_m = 1, B(1/2, 1/2) = π, Δτ = π. */
  CHECK(impactfit_hc_impact_time(ws, 0.0, 1.0, &d, &e, NULL) == 0, "dtau(0, 1)");
  CHECK_REL(d, M_PI, 1e-13, "dtau(0, 1) = pi");
  CHECK_REL(e, 1.0, 1e-14, "e(0) = 1 from the simulation");
  double ns[] = {0.5, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0};
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
    double n = ns[i], xm = pow(0.5 * (n + 1.0), 1.0 / (n + 1.0));
    CHECK(impactfit_hc_impact_time(ws, 0.0, n, &d, NULL, NULL) == 0, "dtau(0, %g)", n);
    CHECK_REL(d, 2.0 * xm * gsl_sf_beta(1.0 / (n + 1.0), 0.5) / (n + 1.0), 1e-12,
              "dtau(0, %g): Beta-function closed form", n);
  }
  /* Against the quadrature, 1e-6 ≤ ε ≤ 2e4 (measured agreement about 2e-14). */
  double qn[] = {0.5, 1.0, 1.5, 2.0, 3.0};
  for (size_t i = 0; i < sizeof qn / sizeof qn[0]; i++)
    for (int j = 0; j <= 20; j++) {
      double eps = 1e-6 * pow(2e10, j / 20.0);
      if (eps > 2e3 && i % 2) /* the largest ε cost about 1 ms each: a few n suffice */
        continue;
      double q = ref_dtau(eps, qn[i]);
      int st = impactfit_hc_impact_time(ws, eps, qn[i], &d, &e, NULL);
      CHECK(st == 0, "dtau(%g, %g) solved", eps, qn[i]);
      CHECK_REL(d, q, 1e-11, "dtau(%g, %g) against the quadrature", eps, qn[i]);
      CHECK_REL(e, ref_e(eps), 1e-11, "restitution from the Delta tau simulation at eps=%g", eps);
    }
  /* Invalid input. */
  impactfit_error err;
  double badeps[] = {-1e-9, NAN, INFINITY, 2e7};
  for (size_t i = 0; i < sizeof badeps / sizeof badeps[0]; i++)
    CHECK(impactfit_hc_impact_time(ws, badeps[i], 1.5, &d, NULL, &err) == IMPACTFIT_EINVAL, "dtau(eps = %g): EINVAL",
          badeps[i]);
  CHECK(impactfit_hc_impact_time(ws, 1.0, 0.0, &d, NULL, &err) == IMPACTFIT_EINVAL, "dtau(n = 0)");
  CHECK(impactfit_hc_impact_time(NULL, 1.0, 1.5, &d, NULL, &err) == IMPACTFIT_EINVAL, "dtau: no ws");
}

/* ---- ω_i and identification ---------------------------------------------------------------- */

/* λ = ε k / v: a product and a quotient of the inputs; the edge is representability. */
static void test_lambda(void) {
  double lam = -1.0;
  CHECK(impactfit_hc_lambda(0.5, 1e6, 2.0, &lam, NULL) == 0, "lambda");
  CHECK_REL(lam, 250000.0, 1e-16, "lambda = eps k / v = 0.5 * 1e6 / 2");
  CHECK(impactfit_hc_lambda(0.0, 3.0, 7.0, &lam, NULL) == 0, "lambda at eps = 0");
  CHECK_ABS(lam, 0.0, 0.0, "lambda = 0 at eps = 0");
  CHECK(impactfit_hc_lambda(3.0, 1e300, 1e300, &lam, NULL) == 0, "lambda: large k over large v");
  CHECK_REL(lam, 3.0, 1e-15, "lambda = 3 * 1e300 / 1e300");
  impactfit_error err;
  impactfit_error_clear(&err);
  CHECK(impactfit_hc_lambda(10.0, 1e300, 1e-300, &lam, &err) == IMPACTFIT_EINVAL, "lambda overflow");
  CHECK(strstr(err.message, "not representable") != NULL, "lambda overflow message: %s", err.message);
  CHECK(impactfit_hc_lambda(-1.0, 1.0, 1.0, &lam, NULL) == IMPACTFIT_EINVAL, "lambda: eps < 0");
  CHECK(impactfit_hc_lambda(1.0, 0.0, 1.0, &lam, NULL) == IMPACTFIT_EINVAL, "lambda: k = 0");
  CHECK(impactfit_hc_lambda(1.0, 1.0, 0.0, &lam, NULL) == IMPACTFIT_EINVAL, "lambda: v = 0");
  CHECK(impactfit_hc_lambda(NAN, 1.0, 1.0, &lam, NULL) == IMPACTFIT_EINVAL, "lambda: eps NaN");
}

static void test_omega(void) {
  double w;
  CHECK(impactfit_hc_omega(1e8, 2.0, 0.05, 1.5, &w, NULL) == 0, "omega_i");
  CHECK_REL(w, pow(1e8 * pow(2.0, 0.5) / 0.05, 1.0 / 2.5), 1e-14, "omega_i = (k v^(n-1)/mass)^(1/(n+1))");
  CHECK(impactfit_hc_omega(3e5, 0.1, 7.0, 1.0, &w, NULL) == 0, "omega_i, n = 1");
  CHECK_REL(w, sqrt(3e5 / 7.0), 1e-14, "omega_i = sqrt(k/mass) for n = 1");
  /* k v^(n−1)/mass overflows, ω_i does not: (1e300 · 1e300)^(1/2) = 1e300 */
  CHECK(impactfit_hc_omega(1e300, 1.0, 1e-300, 1.0, &w, NULL) == 0, "omega_i with an overflowing product");
  CHECK_REL(w, 1e300, 1e-13, "omega_i computed in logarithms");
  CHECK(impactfit_hc_omega(1e300, 1.0, 1e-300, 0.5, &w, NULL) == IMPACTFIT_EINVAL, "omega_i overflow");
  CHECK(impactfit_hc_omega(0.0, 1.0, 1.0, 1.5, &w, NULL) == IMPACTFIT_EINVAL, "omega_i: k = 0");
  CHECK(impactfit_hc_omega(1.0, -1.0, 1.0, 1.5, &w, NULL) == IMPACTFIT_EINVAL, "omega_i: v < 0");
  CHECK(impactfit_hc_omega(1.0, 1.0, NAN, 1.5, &w, NULL) == IMPACTFIT_EINVAL, "omega_i: mass NaN");
  CHECK(impactfit_hc_omega(1.0, 1.0, 1.0, -1.0, &w, NULL) == IMPACTFIT_EINVAL, "omega_i: n < 0");
}

static void test_identify(void) {
  /* Round trip: simulate (condition A, which is C for this model) with known k, λ → e, Δt →
   * identify → k, λ. */
  struct {
    double n, k, lambda, mass, v;
  } sys[] = {
      {1.5, 1e8, 2e7, 0.05, 2.0},       {1.0, 3e5, 1e3, 7.0, 0.1},  {2.0, 4e10, 1e6, 1e-3, 0.5},
      {1.5, 2.4144e10, 5e9, 0.54, 0.3}, {1.25, 1e6, 1e2, 1.0, 1.0}, {1.5, 1e7, 2.5e9, 0.2, 2.0},
      {1.8, 5e9, 1e10, 0.01, 5.0},
  };
  for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++) {
    impactfit_impact_params p = impactfit_impact_default_params();
    p.n = p.m = sys[i].n;
    p.k = sys[i].k;
    p.c = sys[i].lambda;
    p.mass = sys[i].mass;
    p.v = sys[i].v;
    p.transition = impactfit_transition_A;
    impactfit_impact_result r;
    impactfit_error err;
    if (impactfit_impact_solve(ws, &p, &r, &err)) {
      CHECK(0, "identify system %zu: simulation failed: %.120s", i, err.message);
      continue;
    }
    impactfit_hc_identified id;
    int st = impactfit_hc_identify(ws, r.e_out, r.t_contact, p.v, p.mass, p.n, &id, &err);
    CHECK(st == 0, "identify system %zu (eps = %g): %.120s", i, p.c * p.v / p.k, err.message);
    if (st)
      continue;
    CHECK_REL(id.k, p.k, 1e-8, "identify system %zu: k", i);
    CHECK_REL(id.lambda, p.c, 1e-8, "identify system %zu: lambda", i);
    CHECK_REL(id.eps, p.c * p.v / p.k, 1e-8, "identify system %zu: eps", i);
    CHECK_ABS(id.e_residual, 0.0, 1e-11, "identify system %zu: e residual", i);
    CHECK_ABS(id.dt_residual, 0.0, 1e-11, "identify system %zu: dt residual", i);
    CHECK(fabs(id.e_sim - r.e_out) <= id.e_residual * r.e_out * (1 + 1e-12) + 1e-300,
          "identify system %zu: residual is |e_sim - e|/e", i);
  }
  /* e = 1: no damping; Δt = Δτ(0, n)/ω_i with the Beta-function Δτ, so k is exact. */
  double n = 1.5, mass = 0.2, v = 3.0, k = 7e7;
  double om = pow(k * pow(v, n - 1.0) / mass, 1.0 / (n + 1.0)), xm = pow(0.5 * (n + 1.0), 1.0 / (n + 1.0)),
         dt = 2.0 * xm * gsl_sf_beta(1.0 / (n + 1.0), 0.5) / (n + 1.0) / om;
  impactfit_hc_identified id;
  CHECK(impactfit_hc_identify(ws, 1.0, dt, v, mass, n, &id, NULL) == 0, "identify e = 1");
  CHECK(id.eps == 0.0 && id.lambda == 0.0, "identify e = 1: no damping");
  CHECK_REL(id.k, k, 1e-11, "identify e = 1: k from the undamped contact time");
  /* invalid input */
  double args[][5] = {
      {0.0, 1e-3, 1, 1, 1.5},     {1.5, 1e-3, 1, 1, 1.5},           {0.5, 0.0, 1, 1, 1.5}, {0.5, -1, 1, 1, 1.5},
      {0.5, 1e-3, 0, 1, 1.5},     {0.5, 1e-3, 1, -1, 1.5},          {0.5, 1e-3, 1, 1, 0},  {NAN, 1e-3, 1, 1, 1.5},
      {0.5, INFINITY, 1, 1, 1.5}, {0.5, 1e-300, 1e-300, 1e300, 1.5}};
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_hc_identify(ws, args[i][0], args[i][1], args[i][2], args[i][3], args[i][4], &id, &err);
    CHECK(st == IMPACTFIT_EINVAL && err.message[0], "identify invalid case %zu: EINVAL (got %d)", i, st);
  }
}

/* ---- Ramaswamy–Humbert ε(e) ------------------------------------------------------------------ */

/* The form written out independently: ε = (3+2p)(1−e²)/(2e) / ((3+2p)/(3−2p) + e). */
static double rh_ref(double e, double a, double b) {
  double p = a * (exp(-b * e) - exp(-b));
  return (3 + 2 * p) * (1 - e * e) / (2 * e) / ((3 + 2 * p) / (3 - 2 * p) + e);
}

/* Relative errors on the grid of fp, recomputed here. */
static void rh_residuals(const impactfit_hc_rh_fit_params *fp, double a, double b, double *r) {
  for (size_t i = 0; i < fp->points; i++) {
    double e = fp->e_min + (fp->e_max - fp->e_min) * (double)i / (double)(fp->points - 1);
    if (i == fp->points - 1)
      e = fp->e_max;
    if (e == 1.0)
      e = 1.0 - 1.0 / 67108864.0;
    double x = eps_of(e);
    r[i] = rh_ref(e, a, b) / x - 1.0;
  }
}

static double max_abs(const double *r, size_t n, double *ssq) {
  double m = 0.0, s = 0.0;
  for (size_t i = 0; i < n; i++) {
    m = fmax(m, fabs(r[i]));
    s += r[i] * r[i];
  }
  if (ssq)
    *ssq = s;
  return m;
}

static void test_rh_eps(void) {
  double es[] = {0.01, 0.1, 0.32, 0.5, 0.77, 0.999};
  double x1 = -1.0;
  CHECK(impactfit_hc_rh_eps(1.0, 1.381, 0.451, &x1, NULL) == 0 && x1 == 0.0, "rh_eps(1) = 0");
  for (size_t i = 0; i < sizeof es / sizeof es[0]; i++) {
    double x;
    CHECK(impactfit_hc_rh_eps(es[i], 1.381, 0.451, &x, NULL) == 0, "rh_eps(%g)", es[i]);
    /* 1 − e² in rh_ref loses about 1e-16/(1 − e²) */
    CHECK_REL(x, rh_ref(es[i], 1.381, 0.451), 1e-14 + 1e-15 / (1 - es[i] * es[i]), "rh_eps(%g) published", es[i]);
    CHECK(impactfit_hc_rh_eps(es[i], 0.0, 0.451, &x, NULL) == 0, "rh_eps(%g), alpha = 0", es[i]);
    CHECK_REL(x, 1.5 * (1 - es[i]) / es[i], 1e-14, "rh_eps(%g) with p = 0 is Hu-Guo", es[i]);
  }
  /* At e = 0.32 the published constants are 3.35 % off: the form gives 2.74828631114 (mpmath) and
   * the exact value is 2.843491765622444 (test_eps_reference). */
  double x;
  impactfit_hc_rh_eps(0.32, 1.381, 0.451, &x, NULL);
  CHECK_REL(x, 2.74828631114, 1e-11, "published RH form at e = 0.32 (mpmath value)");
  impactfit_error err;
  CHECK(impactfit_hc_rh_eps(0.01, 10.0, 2.0, &x, &err) == IMPACTFIT_EINVAL, "RH form: pole 2p >= 3");
  CHECK(impactfit_hc_rh_eps(0.0, 1.381, 0.451, &x, &err) == IMPACTFIT_EINVAL, "RH form: e = 0");
  CHECK(impactfit_hc_rh_eps(0.5, NAN, 0.451, &x, &err) == IMPACTFIT_EINVAL, "RH form: alpha NaN");

  /* Error statistics and refits on a 331-point grid (steps of 0.003). */
  impactfit_hc_rh_fit_params fp = impactfit_hc_rh_fit_default_params();
  fp.points = 331;
  double *r = malloc(fp.points * sizeof *r);
  if (!r)
    return;
  impactfit_hc_eps_stats pub;
  CHECK(impactfit_hc_rh_eps_error(1.381, 0.451, &fp, &pub, NULL) == 0, "published stats");
  double ssq_pub;
  rh_residuals(&fp, 1.381, 0.451, r);
  double mx = max_abs(r, fp.points, &ssq_pub);
  CHECK_REL(pub.max, mx, 1e-12, "published max relative error recomputed");
  CHECK_REL(pub.rms, sqrt(ssq_pub / fp.points), 1e-12, "published rms recomputed");
  CHECK(pub.points == fp.points, "points reported");

  impactfit_hc_rh_fit lsq, mm;
  CHECK(impactfit_hc_rh_eps_refit(&fp, IMPACTFIT_HC_LSQ, &lsq, &err) == 0, "lsq refit: %.120s", err.message);
  CHECK(impactfit_hc_rh_eps_refit(&fp, IMPACTFIT_HC_MINIMAX, &mm, &err) == 0, "minimax refit: %.120s", err.message);
  /* Least squares: a minimum of the trapezoid sum Σ w_i r_i² (w = 1/2 at the ends, 1 inside; every
   * neighbour, 8 directions, is not lower). */
  double ssq0, ssq, h = 1e-4;
  rh_residuals(&fp, lsq.alpha, lsq.beta, r);
  max_abs(r, fp.points, &ssq0);
  CHECK_REL(lsq.err.rms, sqrt(ssq0 / fp.points), 1e-12, "lsq rms recomputed");
  ssq0 -= 0.5 * (r[0] * r[0] + r[fp.points - 1] * r[fp.points - 1]);
  for (int k = 0; k < 8; k++) {
    double da = h * lsq.alpha * cos(k * M_PI / 4), db = h * lsq.beta * sin(k * M_PI / 4);
    rh_residuals(&fp, lsq.alpha + da, lsq.beta + db, r);
    max_abs(r, fp.points, &ssq);
    ssq -= 0.5 * (r[0] * r[0] + r[fp.points - 1] * r[fp.points - 1]);
    CHECK(ssq >= ssq0 * (1 - 1e-14), "lsq: neighbour %d has trapezoid ssq %.15g >= %.15g", k, ssq, ssq0);
  }
  /* and not of the plain sum: the end point e = 0.01 carries the largest residual, so halving its
   * weight moves the minimum (a check that the weights are applied) */
  {
    rh_residuals(&fp, lsq.alpha, lsq.beta, r);
    double plain0;
    max_abs(r, fp.points, &plain0);
    double da = 1e-4 * lsq.alpha, db = 1e-3 * lsq.beta, best = plain0;
    for (int k = -5; k <= 5; k++)
      for (int l = -5; l <= 5; l++) {
        rh_residuals(&fp, lsq.alpha + k * da, lsq.beta + l * db, r);
        double p2;
        max_abs(r, fp.points, &p2);
        best = fmin(best, p2);
      }
    CHECK(best < plain0 * (1 - 1e-9), "lsq minimises the trapezoid sum, not the plain one");
  }
  /* Minimax: the maximum is attained at ≥ 3 points with alternating signs (the equioscillation
   * that characterises a best approximation with two parameters), and no neighbour is lower. */
  rh_residuals(&fp, mm.alpha, mm.beta, r);
  double m0 = max_abs(r, fp.points, NULL);
  CHECK_REL(mm.err.max, m0, 1e-12, "minimax max recomputed");
  int nalt = 0, last = 0;
  for (size_t i = 0; i < fp.points; i++)
    if (fabs(r[i]) >= m0 * (1 - 1e-6)) {
      int sgn = r[i] > 0 ? 1 : -1;
      if (sgn != last)
        nalt++;
      last = sgn;
    }
  CHECK(nalt >= 3, "minimax: %d alternating extrema (want >= 3)", nalt);
  for (int k = 0; k < 8; k++) {
    double da = 1e-5 * mm.alpha * cos(k * M_PI / 4), db = 1e-5 * mm.beta * sin(k * M_PI / 4);
    rh_residuals(&fp, mm.alpha + da, mm.beta + db, r);
    CHECK(max_abs(r, fp.points, NULL) >= m0 * (1 - 1e-10), "minimax: neighbour %d is not better", k);
  }
  CHECK(mm.err.max <= lsq.err.max && lsq.err.max <= pub.max, "max error: minimax <= lsq <= published");
  CHECK(lsq.err.rms <= mm.err.rms && lsq.err.rms <= pub.rms, "rms error: lsq <= minimax, published");
  CHECK(strcmp(impactfit_hc_objective_name(IMPACTFIT_HC_MINIMAX), "minimax") == 0 &&
            impactfit_hc_objective_name((impactfit_hc_objective)7) == NULL,
        "objective names");
  fp.e_min = 0.0;
  CHECK(impactfit_hc_rh_eps_refit(&fp, IMPACTFIT_HC_LSQ, &lsq, &err) == IMPACTFIT_EINVAL, "e_min = 0");
  fp.e_min = 0.01;
  fp.points = 1;
  CHECK(impactfit_hc_rh_eps_error(1.381, 0.451, &fp, &pub, &err) == IMPACTFIT_EINVAL, "1 point");
  free(r);
}

/* ---- Δτ surface and surrogate ---------------------------------------------------------------- */

static void test_dtau_surface(void) {
  const double *c = impactfit_hc_rh_dtau_published;
  /* a e^(−bε) + (c − d e^(−f n)) ε + (g n − h) e^(−i n) − j n + k, written out at ε = 2, n = 1.5 */
  double want = 0.180 * exp(-0.880 * 2) + (0.853 - 1.018 * exp(-0.461 * 1.5)) * 2 +
                (1.434 * 1.5 - 0.864) * exp(-0.771 * 1.5) - 0.023 * 1.5 + 2.695;
  CHECK_REL(impactfit_hc_rh_dtau(c, 2.0, 1.5), want, 1e-15, "published surface at (2, 1.5)");
  impactfit_hc_dtau_grid_params gp = impactfit_hc_dtau_grid_default_params();
  gp.eps_points = 11;
  gp.n_points = 6;
  impactfit_hc_dtau_stats s;
  CHECK(impactfit_hc_rh_dtau_error(ws, c, &gp, &s, NULL) == 0, "published surface error");
  double mx = 0.0, sum = 0.0;
  for (int j = 0; j < 6; j++)
    for (int i = 0; i < 11; i++) {
      double eps = 2.0 * i, n = 1.0 + 0.2 * j, d;
      impactfit_hc_impact_time(ws, eps, n, &d, NULL, NULL);
      double rel = fabs(impactfit_hc_rh_dtau(c, eps, n) - d) / d;
      mx = fmax(mx, rel);
      sum += rel;
    }
  CHECK_REL(s.max, mx, 1e-12, "surface max error recomputed");
  CHECK_REL(s.mean, sum / 66, 1e-12, "surface mean error recomputed");
  CHECK(s.points == 66, "surface grid points");
  /* at ε = 0, n = 1 the surface gives 3.1157…, the exact value is π: 0.82 % */
  CHECK_REL(impactfit_hc_rh_dtau(c, 0.0, 1.0), 0.180 + (1.434 - 0.864) * exp(-0.771) - 0.023 + 2.695, 1e-15,
            "surface at (0, 1)");
  gp.eps_points = 1;
  CHECK(impactfit_hc_rh_dtau_error(ws, c, &gp, &s, NULL) == IMPACTFIT_EINVAL, "1 eps point");
}

static void test_surrogate(void) {
  impactfit_hc_dtau_surrogate_params sp = impactfit_hc_dtau_surrogate_default_params();
  impactfit_hc_dtau_surrogate *s = NULL;
  impactfit_error err;
  /* one simulation per node of the 37 x 13 Chebyshev grid of the default degrees 36, 12 */
  CHECK(impactfit_hc_dtau_surrogate_simulations(&sp) == 37 * 13, "simulations of a default build");
  CHECK(impactfit_hc_dtau_surrogate_build(ws, &sp, &s, &err) == 0, "surrogate: %.120s", err.message);
  if (!s)
    return;
  /* Held out: pseudo-random points (a fixed LCG), plus the corners of the domain. */
  unsigned long long st = 12345;
  double worst = 0.0;
  for (int i = 0; i < 150; i++) {
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = (double)(st >> 11) / 9007199254740992.0;
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    double v = (double)(st >> 11) / 9007199254740992.0;
    double eps = (i % 3) ? expm1(u * log1p(sp.eps_max)) : u * sp.eps_max, n = 1.0 + v;
    if (i < 4) {
      eps = (i & 1) ? sp.eps_max : 0.0;
      n = (i & 2) ? 2.0 : 1.0;
    }
    double a, b;
    impactfit_hc_impact_time(ws, eps, n, &a, NULL, NULL);
    CHECK(impactfit_hc_dtau_surrogate_eval(s, eps, n, &b, NULL) == 0, "surrogate eval");
    worst = fmax(worst, fabs(b - a) / a);
  }
  CHECK_ABS(worst, 0.0, 1e-9, "surrogate: held-out relative error");
  /* An interpolant: exact (to rounding) at its own nodes. */
  const double *c = impactfit_hc_dtau_surrogate_coefficients(s, &sp);
  CHECK(c != NULL && sp.deg_eps >= 1, "coefficients");
  for (int a = 0; a <= sp.deg_eps; a += 7)
    for (int b = 0; b <= sp.deg_n; b += 5) {
      double X = cos(M_PI * (a + 0.5) / (sp.deg_eps + 1)), Y = cos(M_PI * (b + 0.5) / (sp.deg_n + 1));
      double eps = expm1(0.5 * (X + 1) * log1p(sp.eps_max)), n = 1.5 + 0.5 * Y, d, g;
      impactfit_hc_impact_time(ws, eps, n, &d, NULL, NULL);
      impactfit_hc_dtau_surrogate_eval(s, eps, n, &g, NULL);
      CHECK_REL(g, d, 1e-13, "surrogate interpolates at node (%d, %d)", a, b);
    }
  impactfit_hc_dtau_grid_params gp = impactfit_hc_dtau_grid_default_params();
  gp.eps_points = 21;
  gp.n_points = 5;
  impactfit_hc_dtau_stats ss;
  CHECK(impactfit_hc_dtau_surrogate_error(ws, s, &gp, &ss, NULL) == 0, "surrogate error on a grid");
  CHECK_ABS(ss.max, 0.0, 1e-9, "surrogate error on the grid");
  double d;
  CHECK(impactfit_hc_dtau_surrogate_eval(s, sp.eps_max * 1.01, 1.5, &d, &err) == IMPACTFIT_EINVAL, "surrogate: eps out "
                                                                                                   "of range");
  CHECK(impactfit_hc_dtau_surrogate_eval(s, 1.0, 0.9, &d, &err) == IMPACTFIT_EINVAL, "surrogate: n out of range");
  gp.eps_max = 2 * sp.eps_max;
  CHECK(impactfit_hc_dtau_surrogate_error(ws, s, &gp, &ss, &err) == IMPACTFIT_EINVAL, "surrogate error: grid outside "
                                                                                      "the domain");
  /* the audit of both surfaces on one grid: the published surface is off by percents (hc.h: 7.6 %
   * maximum on [0, 20] x [1, 2]), the surrogate within its 1e-9 */
  gp = impactfit_hc_dtau_grid_default_params();
  gp.eps_points = 11;
  gp.n_points = 3;
  impactfit_hc_dtau_stats two[2], pub;
  CHECK(impactfit_hc_dtau_audit(ws, &gp, &sp, two, NULL) == 0, "dtau audit");
  CHECK(impactfit_hc_rh_dtau_error(ws, impactfit_hc_rh_dtau_published, &gp, &pub, NULL) == 0 && two[0].max == pub.max &&
            two[0].mean == pub.mean && two[0].points == 33,
        "dtau audit: the published surface's error");
  CHECK(two[0].max > 1e-2 && two[0].max < 0.2, "published surface off by percents: %g", two[0].max);
  CHECK_ABS(two[1].max, 0.0, 1e-9, "dtau audit: the surrogate's error");
  impactfit_hc_dtau_surrogate_free(s);
  impactfit_hc_dtau_surrogate_free(NULL);
  sp.deg_eps = 0;
  CHECK(impactfit_hc_dtau_surrogate_build(ws, &sp, &s, &err) == IMPACTFIT_EINVAL && s == NULL, "surrogate: degree 0 "
                                                                                               "refused");
}

int main(void) {
  gsl_set_error_handler_off();
  ws = impactfit_impact_alloc();
  if (!ws)
    return 2;
  test_eps_reference();
  test_eps_limits();
  test_eps_roundtrip();
  test_eps_engine();
  test_eps_invalid();
  test_impact_time();
  test_omega();
  test_lambda();
  test_identify();
  test_rh_eps();
  test_dtau_surface();
  test_surrogate();
  impactfit_impact_free(ws);
  return tu_report("test_hc");
}
