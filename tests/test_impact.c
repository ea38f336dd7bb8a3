/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The impact engine against exact and independently computed results.
 *
 * Exact references (derivations in the comments of each function):
 *  - undamped Hertz: e = 1, δ_max = [(n+1) mass v²/(2k)]^(1/(n+1)),
 *    t_c = 2 (δ_m0/v) ∫_0^1 (1 − x^(n+1))^(−1/2) dx = 2 (δ_m0/v) B(1/(n+1), 1/2)/(n+1);
 *  - Kelvin–Voigt (n = 1, m = 0), conditions C, A, B;
 *  - Hunt–Crossley (m = n), condition C: the exact relation of docs/MODEL.md §1, solved here with a
 *    formulation of our own (below);
 *  - separation penetration under C: k δ_s^n = c δ_s^m |δ'_s| with |δ'_s| = e v, i.e.
 *    δ_s^(n−m) = c v e / k (force zero at separation), for any m < n.
 * Independent method: a direct integration of the dimensional equation with GSL's driver and
 * bisection for the separation, for random systems over the seeds' parameter ranges. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_gamma.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

static impactfit_impact_workspace *ws;

static int run(const impactfit_impact_params *p, impactfit_impact_result *r) {
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_impact_solve(ws, p, r, &err);
  if (st)
    fprintf(stderr, "  solve failed (status %d): %s\n", st, err.message);
  return st;
}

/* ---- undamped Hertz ---- */
static void test_hertz(void) {
  double ns[] = {0.5, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0};
  double sys[][3] = {{1, 1, 1}, {1e-5, 1e10, 1e-3}, {1e2, 1e5, 1e2}, {0.3, 2e7, 0.7}};
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
    for (size_t j = 0; j < sizeof sys / sizeof sys[0]; j++) {
      impactfit_impact_params p = impactfit_impact_default_params();
      p.n = ns[i];
      p.mass = sys[j][0];
      p.k = sys[j][1];
      p.v = sys[j][2];
      p.c = 0.0;
      impactfit_impact_result r;
      if (run(&p, &r)) {
        CHECK(0, "Hertz n=%g system %zu failed", p.n, j);
        continue;
      }
      double n = p.n, dm = pow((n + 1) * p.mass * p.v * p.v / (2 * p.k), 1 / (n + 1));
      double tc = 2 * dm / p.v * gsl_sf_beta(1 / (n + 1), 0.5) / (n + 1);
      CHECK_REL(r.e_out, 1.0, 1e-10, "Hertz n=%g system %zu: e", n, j);
      CHECK_REL(r.delta_max, dm, 1e-10, "Hertz n=%g system %zu: delta_max", n, j);
      CHECK_REL(r.t_contact, tc, 1e-10, "Hertz n=%g system %zu: contact time", n, j);
      CHECK_REL(r.t_delta_max, 0.5 * tc, 1e-10, "Hertz n=%g system %zu: time of delta_max", n, j);
      CHECK_REL(r.f_max, p.k * pow(dm, n), 1e-10, "Hertz n=%g system %zu: peak force", n, j);
      CHECK_ABS(r.energy_error, 0.0, 1e-12, "Hertz n=%g system %zu: energy balance", n, j);
    }
}

/* ---- Kelvin–Voigt, n = 1, m = 0 ----
 * mass δ'' + c δ' + k δ = 0, ω = sqrt(k/mass), ξ = c/(2 sqrt(k mass)).
 * Condition C ends where f = −mass δ'' = 0. Underdamped (ξ < 1), with ω_d = ω sqrt(1−ξ²):
 *   δ = (v/ω_d) e^(−ξωt) sin(ω_d t),  δ'' = 0 at ω_d t_s = atan2(2ξ√(1−ξ²), 2ξ²−1) = 2 acos ξ,
 *   e = exp(−2ξ acos ξ / √(1−ξ²)),  δ_max = (v/ω) exp(−ξ acos ξ/√(1−ξ²)) at ω_d t_m = acos ξ.
 * Overdamped (ξ > 1), s = √(ξ²−1), roots r1,2 = ω(−ξ ± s):
 *   δ = v (e^(r1 t) − e^(r2 t))/(2ωs); δ'' = 0 when e^(2ωs t) = (r2/r1)², t_s = 2 acosh ξ/(ωs);
 *   δ'(t_s) = −v q^(−ξ/s), q = (ξ+s)/(ξ−s) = e^(2 acosh ξ), so e = exp(−2ξ acosh ξ / s)
 *   (the exponent printed in Poursina & Nikravesh 2020, Eq. (55), 2ξs/(2ξ²−1), is not this and fails the check);
 *   δ' = 0 at t_m = acosh ξ/(ωs), δ_max = (v/ω) exp(−ξ acosh ξ/s).
 * Both branches meet at ξ = 1: e = e^(−2), t_s = 2/ω.
 * Conditions A and B: A ends at δ = 0, i.e. at ω_d t = π: e_A = exp(−πξ/√(1−ξ²)), and the force at
 * the end is c δ' = −c v e_A (tensile). B starts where k δ + c v = 0, δ = −c v/k, with δ'' = 0;
 * z = δ'' obeys the same linear equation with z(0) = 0, so the contact (z < 0) ends at ω_d t = π;
 * the velocity u = δ' also obeys it with u(0) = v, u'(0) = 0, giving u(π/ω_d) = −v e^(−πξ/√(1−ξ²)):
 * e_B = e_A. For ξ ≥ 1 neither A nor B ever ends (δ, resp. z, has no second zero): ENOSEP. */
static void kv_exact(double xi, double *e, double *ts_omega, double *dmax_omega_v) {
  if (xi < 1.0) {
    double r = sqrt(1 - xi * xi), a = acos(xi);
    *e = exp(-2 * xi * a / r);
    *ts_omega = 2 * a / r;
    *dmax_omega_v = exp(-xi * a / r);
  } else if (xi == 1.0) {
    *e = exp(-2.0);
    *ts_omega = 2.0;
    *dmax_omega_v = exp(-1.0);
  } else {
    double s = sqrt(xi * xi - 1), a = acosh(xi);
    *e = exp(-2 * xi * a / s);
    *ts_omega = 2 * a / s;
    *dmax_omega_v = exp(-xi * a / s);
  }
}

static void test_kelvin_voigt(void) {
  for (int i = 0; i <= 40; i++) {
    double xi = 0.01 * pow(2000.0, i / 40.0); /* 0.01 .. 20, log-spaced, both branches */
    if (i == 20)
      xi = 1.0;
    double mass = 0.7, k = 3e6, v = 0.4;
    impactfit_impact_params p = impactfit_impact_default_params();
    p.n = 1.0;
    p.m = 0.0;
    p.mass = mass;
    p.k = k;
    p.v = v;
    p.c = 2 * xi * sqrt(k * mass);
    impactfit_impact_result r;
    if (run(&p, &r)) {
      CHECK(0, "KV xi=%g failed", xi);
      continue;
    }
    double e, tsw, dmw, om = sqrt(k / mass);
    kv_exact(xi, &e, &tsw, &dmw);
    CHECK_REL(r.e_out, e, 1e-9, "KV (C) xi=%g: e", xi);
    CHECK_REL(r.t_contact, tsw / om, 1e-9, "KV (C) xi=%g: contact time", xi);
    CHECK_REL(r.delta_max, dmw * v / om, 1e-9, "KV (C) xi=%g: delta_max", xi);
    CHECK_REL(r.delta_sep, p.c * v * r.e_out / k, 1e-9, "KV (C) xi=%g: delta_sep = c v e/k", xi);
    CHECK_ABS(r.f_end / (k * r.delta_max), 0.0, 1e-12, "KV (C) xi=%g: zero force at separation", xi);
    CHECK_ABS(r.energy_error, 0.0, 1e-11, "KV (C) xi=%g: energy balance", xi);
    /* the overdamped branch as printed in Poursina & Nikravesh 2020, Eq. (55) is wrong: make sure we differ from it */
    if (xi > 1.2) {
      double s = sqrt(xi * xi - 1), printed = pow((xi - s) / (xi + s), 2 * xi * s / (2 * xi * xi - 1));
      CHECK(fabs(r.e_out - printed) > 1e-3 * printed, "KV xi=%g: differs from the printed Eq. (55)", xi);
    }
    /* Conditions A and B. */
    const impactfit_transition *ab[] = {impactfit_transition_A, impactfit_transition_B};
    for (int t = 0; t < 2; t++) {
      p.transition = ab[t];
      impactfit_error err;
      int st = impactfit_impact_solve(ws, &p, &r, &err);
      if (xi >= 1.0) {
        CHECK(st == IMPACTFIT_ENOSEP, "KV (%s) xi=%g: no separation expected, got status %d", ab[t]->name, xi, st);
        CHECK(strstr(err.message, "no separation") != NULL, "KV (%s): message names the failure", ab[t]->name);
        continue;
      }
      double r1 = sqrt(1 - xi * xi), eab = exp(-M_PI * xi / r1);
      CHECK(st == 0, "KV (%s) xi=%g solved", ab[t]->name, xi);
      CHECK_REL(r.e_out, eab, 1e-9, "KV (%s) xi=%g: e", ab[t]->name, xi);
      CHECK_REL(r.t_contact, M_PI / (om * r1), 1e-9, "KV (%s) xi=%g: contact time", ab[t]->name, xi);
      if (t == 0)
        CHECK_REL(r.f_end, -p.c * v * r.e_out, 1e-9, "KV (A) xi=%g: tensile force c v' at the end", xi);
      else {
        CHECK_REL(r.delta_start, -p.c * v / k, 1e-12, "KV (B) xi=%g: start before touching", xi);
        CHECK(r.delta_start < 0.0, "KV (B) xi=%g: delta_start < 0", xi);
      }
      CHECK_ABS(r.energy_error, 0.0, 1e-11, "KV (%s) xi=%g: energy balance", ab[t]->name, xi);
    }
  }
}

/* ---- Hunt–Crossley ----
 * docs/MODEL.md §1: with ε = λv/k and d = eε, (1 + d/e)/(1 − d) = exp(d(1 + 1/e)), i.e.
 * (1 + ε)/(1 − eε) = exp(ε(1 + e)). With u = 1 − eε ∈ (0, 1) this is
 *   h(u) = ln(1 + ε) − ε − 1 + u − ln u = 0,   e = (1 − u)/ε,
 * strictly decreasing in u on (0, 1) (h' = 1 − 1/u < 0), h(0+) = +∞, h(1) = ln(1+ε) − ε < 0, so a
 * single root, found by bisection to full precision; no cancellation as e → 0 (u → 0). */
static double hc_exact_e(double eps) {
  double lo = 0.0, hi = 1.0, c = log1p(eps) - eps - 1.0;
  for (int i = 0; i < 200; i++) {
    double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi)
      break;
    double h = c + mid - log(mid);
    if (h > 0)
      lo = mid;
    else
      hi = mid;
  }
  double u = 0.5 * (lo + hi);
  return (eps < 1e-3) ? (1.0 - u) / eps : -expm1(log(u)) / eps;
}

static void test_hunt_crossley(void) {
  double ns[] = {1.0, 1.5, 2.0, 2.5};
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
    for (int j = 0; j <= 24; j++) {
      double eps = 0.01 * pow(5000.0, j / 24.0); /* 0.01 .. 50 */
      impactfit_impact_params p = impactfit_impact_default_params();
      p.n = p.m = ns[i];
      p.mass = 2.0;
      p.k = 1e7;
      p.v = 3.0;
      p.c = eps * p.k / p.v;
      impactfit_impact_result r;
      if (run(&p, &r)) {
        CHECK(0, "HC n=%g eps=%g failed", p.n, eps);
        continue;
      }
      CHECK_REL(r.e_out, hc_exact_e(eps), 1e-9, "HC n=%g eps=%g: e", p.n, eps);
      /* Ends at δ = 0: the force k δ^n (1 + ε δ'/v) stays positive (δ' > −v/ε) — even for ε ≳ 35,
       * where 1 + εδ'/v falls below rounding during a long creep at δ' ≈ −v/ε. */
      CHECK_ABS(r.delta_sep, 0.0, 0.0, "HC n=%g eps=%g: ends at delta = 0", p.n, eps);
      CHECK_ABS(r.energy_error, 0.0, 1e-11, "HC n=%g eps=%g: energy balance", p.n, eps);
    }
  CHECK_REL(hc_exact_e(50.0), 0.02, 1e-15, "HC reference: e(50) = 1/50 to double precision");
  /* ε = 1e4: under C the contact must last until δ = 0, as under A (they coincide for m = n) */
  impactfit_impact_params p = impactfit_impact_scaled_params(1.5, 1.5, 1.25e4);
  impactfit_impact_result rc, ra;
  if (!run(&p, &rc)) {
    p.transition = impactfit_transition_A;
    if (!run(&p, &ra)) {
      CHECK_REL(rc.t_contact, ra.t_contact, 1e-9, "HC eps=1e4: contact time under C equals A's");
      CHECK(rc.delta_sep == 0.0, "HC eps=1e4: C ends at delta = 0");
      CHECK_REL(rc.e_out, hc_exact_e(1e4), 1e-10, "HC eps=1e4: e");
    }
  }
}

/* ---- separation penetration and energy for general m ---- */
static void test_general_m(void) {
  double ms[] = {0.0, 0.25, 0.5, 0.65, 1.0};
  double zetas[] = {0.05, 0.5, 2.0, 10.0};
  for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
    for (size_t j = 0; j < sizeof zetas / sizeof zetas[0]; j++) {
      impactfit_impact_params p = impactfit_impact_scaled_params(1.5, ms[i], zetas[j]);
      p.mass = 0.3; /* rescale to a dimensional system with the same ζ */
      p.v = 2.0;
      double dm = pow(2.5 * p.mass * p.v * p.v / (2 * p.k), 1 / 2.5);
      p.c = zetas[j] * p.mass * p.v / pow(dm, ms[i] + 1);
      impactfit_impact_result r, rs;
      if (run(&p, &r))
        continue;
      CHECK_REL(pow(r.delta_sep, 1.5 - ms[i]), p.c * p.v * r.e_out / p.k, 1e-9,
                "m=%g zeta=%g: delta_sep^(n-m) = c v e / k", ms[i], zetas[j]);
      CHECK_ABS(r.energy_error, 0.0, 1e-11, "m=%g zeta=%g: energy balance", ms[i], zetas[j]);
      /* the same problem without the series start and end (plain rk8pd steps to delta = 0) */
      p.series = 0;
      if (run(&p, &rs))
        continue;
      CHECK_REL(rs.e_out, r.e_out, 1e-11, "m=%g zeta=%g: series vs plain integration", ms[i], zetas[j]);
      CHECK_REL(rs.t_contact, r.t_contact, 1e-11, "m=%g zeta=%g: series vs plain, contact time", ms[i], zetas[j]);
      CHECK(r.rhs_evals < rs.rhs_evals, "m=%g zeta=%g: series start/end saves work (%ld vs %ld)", ms[i], zetas[j],
            r.rhs_evals, rs.rhs_evals);
    }
}

/* ---- an independent reference: the dimensional equation with GSL's driver ----
 * State (δ, δ'); condition C (force zero, m < n) located by bisection on re-integrations from the
 * last output point. Tolerances are scaled by δ_m0 and v, as a careful user would do by hand. */
typedef struct dimp {
  double n, m, k, c, mass;
} dimp;

static int dim_rhs(double t, const double y[], double f[], void *vp) {
  (void)t;
  const dimp *p = vp;
  double d = y[0] > 0 ? y[0] : 0.0;
  double force = p->k * pow(d, p->n) + p->c * (p->m == 0.0 ? 1.0 : pow(d, p->m)) * y[1];
  f[0] = y[1];
  f[1] = -force / p->mass;
  return GSL_SUCCESS;
}

static double dim_force(const dimp *p, const double y[]) {
  double d = y[0] > 0 ? y[0] : 0.0;
  return p->k * pow(d, p->n) + p->c * (p->m == 0.0 ? 1.0 : pow(d, p->m)) * y[1];
}

static double reference_e(double n, double m, double k, double c, double mass, double v) {
  dimp P = {n, m, k, c, mass};
  gsl_odeiv2_system sys = {dim_rhs, NULL, 2, &P};
  double dm = pow((n + 1) * mass * v * v / (2 * k), 1 / (n + 1)), T = dm / v;
  double scale[2] = {dm, v};
  gsl_odeiv2_driver *drv = gsl_odeiv2_driver_alloc_scaled_new(&sys, gsl_odeiv2_step_rk8pd, 1e-3 * T, 1e-13, 1e-13, 1, 0,
                                                              scale);
  double t = 0, y[2] = {0, v}, dt = T / 200;
  double e = NAN;
  for (int i = 0; i < 200000; i++) {
    double t0 = t, y0[2] = {y[0], y[1]};
    if (gsl_odeiv2_driver_apply(drv, &t, t0 + dt, y) != GSL_SUCCESS)
      break;
    if (y[1] < 0 && dim_force(&P, y) <= 0) { /* separation in (t0, t]: bisection */
      double lo = 0, hi = dt;
      for (int b = 0; b < 60; b++) {
        double mid = 0.5 * (lo + hi), tt = t0, yy[2] = {y0[0], y0[1]};
        gsl_odeiv2_driver_reset(drv);
        gsl_odeiv2_driver_apply(drv, &tt, t0 + mid, yy);
        if (yy[1] < 0 && dim_force(&P, yy) <= 0)
          hi = mid;
        else
          lo = mid;
      }
      double tt = t0, yy[2] = {y0[0], y0[1]};
      gsl_odeiv2_driver_reset(drv);
      gsl_odeiv2_driver_apply(drv, &tt, t0 + hi, yy);
      e = -yy[1] / v;
      break;
    }
  }
  gsl_odeiv2_driver_free(drv);
  return e;
}

static unsigned long long rng_state = 88172645463325252ULL;
static double urand(void) { /* xorshift64: deterministic across platforms */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (rng_state >> 11) * (1.0 / 9007199254740992.0);
}
static double logrand(double lo, double hi) { return exp(log(lo) + (log(hi) - log(lo)) * urand()); }

static void test_scaling_and_reference(void) {
  for (int i = 0; i < 24; i++) {
    double n = 1 + urand(), m = (i % 3 == 0) ? 0.0 : (i % 3 == 1 ? 0.5 * urand() : 0.9 * n * urand());
    double mass = logrand(1e-5, 1e2), k = logrand(1e5, 1e10), v = logrand(1e-3, 1e2);
    double zeta = logrand(0.01, 30.0);
    /* c from ζ through docs/MODEL.md §2: ζ = c δ_m0^(m+1)/(mass v) */
    double dm = pow((n + 1) * mass * v * v / (2 * k), 1 / (n + 1));
    double c = zeta * mass * v / pow(dm, m + 1);
    impactfit_impact_params p = impactfit_impact_default_params();
    p.n = n;
    p.m = m;
    p.mass = mass;
    p.k = k;
    p.v = v;
    p.c = c;
    impactfit_impact_result r, rs;
    if (run(&p, &r))
      continue;
    impactfit_impact_params ps = impactfit_impact_scaled_params(n, m, zeta);
    if (run(&ps, &rs))
      continue;
    /* invariance: the dimensionless results do not depend on mass, k, v */
    CHECK_REL(r.e_out, rs.e_out, 1e-12, "scaling #%d (n=%.3f m=%.3f zeta=%.3g): e", i, n, m, zeta);
    CHECK_REL(r.t_contact * v / dm, rs.t_contact, 1e-10, "scaling #%d: t_contact v/delta_m0", i);
    CHECK_REL(r.delta_max / dm, rs.delta_max, 1e-10, "scaling #%d: delta_max/delta_m0", i);
    CHECK_REL(r.f_max * dm / (mass * v * v), rs.f_max, 1e-10, "scaling #%d: f_max delta_m0/(mass v^2)", i);
    CHECK_REL(r.zeta, zeta, 1e-13, "scaling #%d: zeta", i);
    /* a second method: direct dimensional integration (every third system: it is slow) */
    if (i % 3 == 0) {
      double eref = reference_e(n, m, k, c, mass, v);
      CHECK_REL(r.e_out, eref, 1e-8, "reference #%d (mass=%.3g k=%.3g v=%.3g n=%.3f zeta=%.3g): e", i, mass, k, v, n,
                zeta);
    }
  }
}

/* ---- condition D: re-contact on the relaxing element (linear element, gravity) ----
 * After separation at δ_s the element obeys c x' + k x = 0, x = δ_s e^(−(k/c)(t−t_s)); the body
 * flies as δ = δ_s − v_out (t−t_s) + g (t−t_s)²/2. The next contact starts where they meet. */
static void test_condition_d(void) {
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = 1;
  p.m = 0;
  p.k = 1e4;
  p.c = 400;
  p.mass = 1;
  p.v = 20;
  p.accel = 9.81;
  p.max_contacts = 3;
  impactfit_impact_result r;
  impactfit_contact c0, c1;
  p.transition = impactfit_transition_D;
  if (run(&p, &r))
    return;
  CHECK(r.n_contacts >= 2, "D: a second contact (got %d)", r.n_contacts);
  impactfit_impact_contact(ws, 0, &c0);
  impactfit_impact_contact(ws, 1, &c1);
  double D = c1.t_start - c0.t_end;
  double body = c0.delta_end - c0.v_out * D + 0.5 * p.accel * D * D;
  double elem = c0.delta_end * exp(-(p.k / p.c) * D);
  CHECK(elem > 0.01 * c0.delta_end, "D: the element is still compressed at re-contact (%g of %g)", elem, c0.delta_end);
  CHECK_REL(c1.delta_start, elem, 1e-10, "D: re-contact at the relaxing element's closed form");
  CHECK_REL(body, elem, 1e-10, "D: the body meets the element there");
  CHECK_REL(c1.element_start, elem, 1e-10, "D: element compression reported");
  CHECK_REL(c1.f_start, p.k * elem + p.c * c1.v_in, 1e-10, "D: force at re-contact k x + c v");
  CHECK_ABS(c0.f_end / (p.k * r.delta_max), 0.0, 1e-12, "D: zero force at separation");
  /* C: the next contact starts at δ = 0 (the element is taken as relaxed at once) */
  p.transition = impactfit_transition_C;
  if (run(&p, &r))
    return;
  impactfit_impact_contact(ws, 0, &c0);
  impactfit_impact_contact(ws, 1, &c1);
  CHECK(r.n_contacts >= 2 && c1.delta_start == 0.0, "C: next contact starts at delta = 0");
  double Dc = c1.t_start - c0.t_end;
  CHECK_ABS(c0.delta_end - c0.v_out * Dc + 0.5 * p.accel * Dc * Dc, 0.0, 1e-12 * c0.delta_end,
            "C: the body is at delta = 0 when the next contact starts");
  /* the second contact comes to rest: static equilibrium k δ = mass g */
  CHECK(!c1.ended, "C: second contact is a resting contact");
  CHECK_REL(c1.delta_end, p.mass * p.accel / p.k, 1e-9, "C: resting at mass g / k");
}

/* ---- bounces: A conserves the speed in flight; B's restarts are at zero force ---- */
static void test_bounces(void) {
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = 1.0; /* delta_m0 = 1e-3 m: scaled gravity 0.0098, zeta = 0.2: five clean bounces */
  p.m = 0;
  p.k = 1e6;
  p.c = 200;
  p.mass = 1;
  p.v = 1;
  p.accel = 9.81;
  p.max_contacts = 5;
  const impactfit_transition *ts[] = {impactfit_transition_A, impactfit_transition_B};
  for (int t = 0; t < 2; t++) {
    p.transition = ts[t];
    impactfit_impact_result r;
    if (run(&p, &r))
      continue;
    CHECK(r.n_contacts == 5, "%s: five bounces (got %d)", ts[t]->name, r.n_contacts);
    for (int i = 1; i < r.n_contacts; i++) {
      impactfit_contact a, b;
      impactfit_impact_contact(ws, i - 1, &a);
      impactfit_impact_contact(ws, i, &b);
      double D = b.t_start - a.t_end;
      /* flight: δ_b = δ_a − v_out D + g D²/2, δ'_b = −v_out + g D */
      CHECK_REL(b.v_in, -a.v_out + p.accel * D, 1e-9, "%s bounce %d: speed after the flight", ts[t]->name, i);
      CHECK_ABS(b.delta_start, a.delta_end - a.v_out * D + 0.5 * p.accel * D * D, 1e-12,
                "%s bounce %d: position after the flight", ts[t]->name, i);
      if (t == 1)
        CHECK_ABS(b.f_start / 100.0, 0.0, 1e-10, "B bounce %d: restarts at zero force", i);
      else
        CHECK(b.delta_start == 0.0, "A bounce %d: restarts at delta = 0", i);
    }
  }
}

/* ---- the trace lies on the solution: undamped energy at every sample ---- */
typedef struct tctx {
  double mass, k, n, v, maxerr, last_t;
  int count, order_ok, first_ok;
} tctx;

static int trace_cb(void *vc, const impactfit_trace_point *pt) {
  tctx *c = vc;
  if (c->count == 0)
    c->first_ok = (pt->t == 0.0 && pt->delta == 0.0 && pt->delta_dot == c->v);
  else if (!(pt->t > c->last_t))
    c->order_ok = 0;
  c->last_t = pt->t;
  c->count++;
  if (pt->in_contact) {
    double E = 0.5 * c->mass * pt->delta_dot * pt->delta_dot + c->k * pow(fmax(pt->delta, 0.0), c->n + 1) / (c->n + 1);
    double err = fabs(E / (0.5 * c->mass * c->v * c->v) - 1.0);
    if (err > c->maxerr)
      c->maxerr = err;
  }
  return 0;
}

static void test_trace(void) {
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = 1.5;
  p.k = 5e5;
  p.mass = 0.2;
  p.v = 0.8;
  tctx c = {p.mass, p.k, p.n, p.v, 0.0, -1.0, 0, 1, 0};
  impactfit_impact_result r;
  int st = impactfit_impact_trace(ws, &p, 301, trace_cb, &c, &r, NULL);
  CHECK(st == 0, "trace status %d", st);
  CHECK(c.count == 301, "trace: 301 samples (got %d)", c.count);
  CHECK(c.first_ok && c.order_ok, "trace: starts at (0, 0, v) and times increase");
  CHECK_ABS(c.maxerr, 0.0, 1e-12, "trace: energy of every in-contact sample (undamped)");
}

/* ---- invalid parameters ---- */
static void test_invalid(void) {
  struct {
    const char *what;
    double n, m, k, c, mass, v, accel;
    int contacts;
  } bad[] = {
      {"n", 0, 0, 1, 1, 1, 1, 0, 1},          {"n", -1, 0, 1, 1, 1, 1, 0, 1},
      {"n", NAN, 0, 1, 1, 1, 1, 0, 1},        {"n", INFINITY, 0, 1, 1, 1, 1, 0, 1},
      {"m", 1.5, -0.1, 1, 1, 1, 1, 0, 1},     {"k", 1.5, 0, 0, 1, 1, 1, 0, 1},
      {"k", 1.5, 0, -1, 1, 1, 1, 0, 1},       {"c", 1.5, 0, 1, -1, 1, 1, 0, 1},
      {"c", 1.5, 0, 1, NAN, 1, 1, 0, 1},      {"mass", 1.5, 0, 1, 1, 0, 1, 0, 1},
      {"v", 1.5, 0, 1, 1, 1, 0, 0, 1},        {"v", 1.5, 0, 1, 1, 1, -2, 0, 1},
      {"accel", 1.5, 0, 1, 1, 1, 1, -1, 1},   {"accel", 1.5, 0, 1, 1, 1, 1, 0, 3},
      {"contacts", 1.5, 0, 1, 1, 1, 1, 1, 0}, {"range", 1.5, 0, 1e-300, 1e300, 1e-300, 1e-300, 0, 1},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    impactfit_impact_params p = impactfit_impact_default_params();
    p.n = bad[i].n;
    p.m = bad[i].m;
    p.k = bad[i].k;
    p.c = bad[i].c;
    p.mass = bad[i].mass;
    p.v = bad[i].v;
    p.accel = bad[i].accel;
    p.max_contacts = bad[i].contacts;
    impactfit_impact_result r;
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_impact_solve(ws, &p, &r, &err);
    CHECK(st == IMPACTFIT_EINVAL, "invalid %s (case %zu): EINVAL (got %d)", bad[i].what, i, st);
    CHECK(err.message[0] != '\0', "invalid %s (case %zu): a message", bad[i].what, i);
    CHECK(impactfit_status_is_input_error(st), "invalid %s: classified as input error", bad[i].what);
  }
  impactfit_impact_params p = impactfit_impact_default_params();
  CHECK(impactfit_impact_solve(NULL, &p, NULL, NULL) == IMPACTFIT_EINVAL, "NULL workspace");
  CHECK(impactfit_impact_solve(ws, NULL, NULL, NULL) == IMPACTFIT_EINVAL, "NULL parameters");
  p.transition = NULL;
  CHECK(impactfit_impact_solve(ws, &p, NULL, NULL) == IMPACTFIT_EINVAL, "NULL transition");
  CHECK(impactfit_transition_from_name("c") == impactfit_transition_C, "transition lookup");
  CHECK(impactfit_transition_from_name("E") == NULL && impactfit_transition_from_name("CC") == NULL,
        "unknown transition names");
  /* A with strong linear damping never separates (Hertz spring, m = 0): ENOSEP, not a number */
  p = impactfit_impact_scaled_params(1.5, 0.0, 50.0);
  p.transition = impactfit_transition_A;
  p.t_max = 100;
  impactfit_error err;
  CHECK(impactfit_impact_solve(ws, &p, NULL, &err) == IMPACTFIT_ENOSEP, "A, strong damping: ENOSEP");
  impactfit_impact_result rf;
  memset(&rf, 0x7f, sizeof rf); /* garbage: the failed solve must overwrite it */
  CHECK(impactfit_impact_solve(ws, &p, &rf, &err) == IMPACTFIT_ENOSEP && rf.rhs_evals > 100 &&
            rf.rhs_evals < 100000000 && rf.steps > 0 && rf.e_out == 0.0 && rf.n_contacts == 0 && rf.zeta == 50.0,
        "a failed solve reports its cost (%ld evaluations) and zeros", rf.rhs_evals);
  CHECK(!impactfit_status_is_input_error(IMPACTFIT_ENOSEP), "ENOSEP is a numerical failure");
  CHECK(strcmp(impactfit_status_name(IMPACTFIT_ENOSEP), "ENOSEP") == 0, "status names");
  CHECK(strcmp(impactfit_strerror(12345), "unknown status") == 0, "unknown status text");
  impactfit_impact_free(NULL);
}

/* A result as a row of the sweep problem "impact" and back: the row's column k must hold the member
 * the problem names outputs[k] (read here through a table of our own, by name), for a real solve and
 * for the point solved by the problem itself (its solve() hook, which must give the same numbers as
 * a direct solve: the engine is deterministic). */
static void test_result_row(void) {
  static const struct {
    const char *name;
    size_t off;
    char kind; /* 'd' double, 'l' long, 'i' int */
  } member[] = {
#define M(f, kind) {#f, offsetof(impactfit_impact_result, f), kind}
      M(e_out, 'd'),     M(t_contact, 'd'),    M(f_max, 'd'),        M(t_fmax, 'd'),    M(f_min, 'd'),
      M(delta_max, 'd'), M(t_delta_max, 'd'),  M(delta_start, 'd'),  M(delta_sep, 'd'), M(f_start, 'd'),
      M(f_end, 'd'),     M(damping_work, 'd'), M(energy_error, 'd'), M(zeta, 'd'),      M(delta_m0, 'd'),
      M(steps, 'l'),     M(n_contacts, 'i'),
#undef M
  };
  const impactfit_sweep_problem *pr = impactfit_sweep_problem_from_name("impact");
  CHECK(pr && pr->n_outputs == IMPACTFIT_IMPACT_ROW, "problem impact has IMPACTFIT_IMPACT_ROW outputs");
  if (!pr || pr->n_outputs != IMPACTFIT_IMPACT_ROW)
    return;
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = 1.5, p.m = 1.0, p.c = 0.7, p.k = 3e4, p.mass = 0.2, p.v = 1.3, p.accel = 9.81, p.max_contacts = 3;
  impactfit_impact_result r, back;
  CHECK(run(&p, &r) == 0 && r.n_contacts == 3, "bouncing impact solved (%d contacts)", r.n_contacts);
  double out[IMPACTFIT_IMPACT_ROW], direct[IMPACTFIT_IMPACT_ROW];
  impactfit_impact_result_to_row(&r, direct);
  for (size_t k = 0; k < IMPACTFIT_IMPACT_ROW; k++) {
    size_t j = 0;
    while (j < sizeof member / sizeof member[0] && strcmp(member[j].name, pr->outputs[k]) != 0)
      j++;
    CHECK(j < sizeof member / sizeof member[0], "output %s is a member of the result", pr->outputs[k]);
    if (j == sizeof member / sizeof member[0])
      continue;
    const char *at = (const char *)&r + member[j].off;
    double want = member[j].kind == 'd'   ? *(const double *)at
                  : member[j].kind == 'l' ? (double)*(const long *)at
                                          : (double)*(const int *)at;
    CHECK(direct[k] == want, "row column %zu (%s): %.17g, the member holds %.17g", k, pr->outputs[k], direct[k], want);
  }
  impactfit_impact_result_from_row(direct, r.rhs_evals, &back);
  for (size_t j = 0; j < sizeof member / sizeof member[0]; j++) {
    size_t size = member[j].kind == 'd' ? sizeof(double) : member[j].kind == 'l' ? sizeof(long) : sizeof(int);
    CHECK(memcmp((const char *)&r + member[j].off, (const char *)&back + member[j].off, size) == 0,
          "from_row(to_row(r)) gives member %s back", member[j].name);
  }
  CHECK(back.rhs_evals == r.rhs_evals && back.gamma == 0.0, "from_row: rhs_evals as given, gamma 0");
  /* the problem's own solve of the same point: in[] in its parameter order */
  const char *opts[1] = {"C"};
  const double in[10] = {0, p.n, p.m, p.c, p.k, p.mass, p.v, p.accel, (double)p.max_contacts, 0.0};
  CHECK(pr->n_params == 10 && strcmp(pr->params[1].name, "n") == 0 && strcmp(pr->params[9].name, "t_max") == 0,
        "problem impact's parameters: transition_index, n, m, c, k, mass, v, accel, contacts, t_max");
  unsigned char wanted[IMPACTFIT_IMPACT_ROW];
  memset(wanted, 1, sizeof wanted);
  void *state = NULL;
  impactfit_error err;
  long evals = 0;
  CHECK(pr->alloc(&state, opts, wanted, &err) == 0 && pr->solve(state, in, out, &evals, &err) == 0, "problem impact "
                                                                                                    "solves the point");
  pr->free(state);
  CHECK(memcmp(out, direct, sizeof out) == 0 && evals == r.rhs_evals, "the problem's row is to_row of a direct solve");
  impactfit_impact_result_from_row(out, evals, &back);
  CHECK(back.t_contact == r.t_contact && back.damping_work == r.damping_work && back.n_contacts == 3 &&
            back.steps == r.steps && back.rhs_evals == r.rhs_evals,
        "from_row of the problem's row is the direct result");
}

int main(void) {
  gsl_set_error_handler_off();
  ws = impactfit_impact_alloc();
  if (!ws)
    return 2;
  test_hertz();
  test_kelvin_voigt();
  test_hunt_crossley();
  test_general_m();
  test_scaling_and_reference();
  test_condition_d();
  test_bounces();
  test_trace();
  test_invalid();
  test_result_row();
  impactfit_impact_free(ws);
  return tu_report("test_impact");
}
