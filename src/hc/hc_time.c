/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Impact time Δτ(ε, n), impact natural frequency ω_i and the identification of k and λ from one
 * measured impact (include/impactfit/hc.h, docs/MODEL.md §4). */
#include "hc_impl.h"

#include <math.h>
#include <string.h>

#include "../common/common_impl.h"

double impactfit__grid(double a, double b, size_t n, size_t i) {
  if (n < 2 || i == 0)
    return a;
  if (i == n - 1)
    return b;
  return a + (b - a) * (double)i / (double)(n - 1);
}

int impactfit_hc_omega(double k, double v, double mass, double n, double *omega_i, impactfit_error *err) {
  if (!omega_i)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(k) && k > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stiffness k must be a finite number > 0 (got %.17g)", k);
  if (!(isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "approach velocity v must be a finite number > 0 (got %.17g)", v);
  if (!(isfinite(mass) && mass > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mass must be a finite number > 0 (got %.17g)", mass);
  if (!(isfinite(n) && n > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spring exponent n must be a finite number > 0 (got %.17g)", n);
  /* In logarithms: k v^(n−1)/mass may over- or underflow where ω_i does not. */
  double lw = (log(k) + (n - 1.0) * log(v) - log(mass)) / (n + 1.0);
  double w = exp(lw);
  if (!isnormal(w))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impact natural frequency exp(%g) is not representable", lw);
  *omega_i = w;
  return IMPACTFIT_OK;
}

/* The engine's time bound, in its unit δ_m0/v = ((n+1)/2)^(1/(n+1)) / ω_i (≥ 0.8/ω_i for n ≥ 0.5).
 * The compression reaches x_m ≤ ((n+1)/ε)^(1/(n+1)) (x_m^(n+1)/(n+1) = (ε − ln(1+ε))/ε² ≤ 1/ε) and
 * the restitution creeps back at a speed that approaches 1/ε, so Δτ ≈ ε x_m for large ε; the
 * bound is 100 times that, and 1e4 (the engine's default) for small ε. */
static double time_bound(double eps, double n) {
  double xm = (eps > 1.0) ? pow((n + 1.0) / eps, 1.0 / (n + 1.0)) : 2.0;
  return 1e4 + 100.0 * eps * xm;
}

int impactfit_hc_impact_time(impactfit_impact_workspace *ws, double eps, double n, double *dtau, double *e_out,
                             impactfit_error *err) {
  return impactfit__hc_impact_time(ws, eps, n, dtau, e_out, NULL, err);
}

int impactfit__hc_impact_time(impactfit_impact_workspace *ws, double eps, double n, double *dtau, double *e_out,
                              long *rhs_evals, impactfit_error *err) {
  if (rhs_evals)
    *rhs_evals = 0;
  if (!ws || !dtau)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace or output given");
  if (!(isfinite(eps) && eps >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "damping ratio eps must be a finite number >= 0 (got %.17g)", eps);
  if (!(isfinite(n) && n > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spring exponent n must be a finite number > 0 (got %.17g)", n);
  if (eps > 1e7)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "damping ratio eps = %g is beyond the supported range (<= 1e7: the cost grows like eps)",
                           eps);
  /* mass = k = v = 1: ω_i = 1, the engine's time is τ and its δ is x. */
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = n;
  p.m = n;
  p.k = 1.0;
  p.mass = 1.0;
  p.v = 1.0;
  p.c = eps;
  p.transition = impactfit_transition_A;
  p.locate_extrema = 0;
  p.t_max = time_bound(eps, n);
  impactfit_impact_result r;
  memset(&r, 0, sizeof r);
  int st = impactfit_impact_solve(ws, &p, &r, err);
  if (rhs_evals)
    *rhs_evals = r.rhs_evals;
  if (st)
    return st;
  *dtau = r.t_contact;
  if (e_out)
    *e_out = r.e_out;
  return IMPACTFIT_OK;
}

int impactfit_hc_identify(impactfit_impact_workspace *ws, double e, double dt, double v, double mass, double n,
                          impactfit_hc_identified *out, impactfit_error *err) {
  if (!ws || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace or output given");
  if (!(isfinite(dt) && dt > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "contact duration dt must be a finite number > 0 (got %.17g)", dt);
  if (!(isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "approach velocity v must be a finite number > 0 (got %.17g)", v);
  if (!(isfinite(mass) && mass > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "mass must be a finite number > 0 (got %.17g)", mass);
  if (!(isfinite(n) && n > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spring exponent n must be a finite number > 0 (got %.17g)", n);
  impactfit_hc_identified id;
  memset(&id, 0, sizeof id);
  int st = impactfit_hc_eps(e, &id.eps, err);
  if (st)
    return st;
  if ((st = impactfit_hc_impact_time(ws, id.eps, n, &id.dtau, NULL, err)))
    return st;
  /* ω_i = Δτ/Δt; k = mass ω_i^(n+1) / v^(n−1); λ = ε k / v (in logarithms for the range). */
  id.omega_i = id.dtau / dt;
  double lk = log(mass) + (n + 1.0) * log(id.omega_i) - (n - 1.0) * log(v);
  id.k = exp(lk);
  id.lambda = id.eps * id.k / v;
  if (!isnormal(id.omega_i) || !isnormal(id.k) || !isfinite(id.lambda))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identified constants out of range (omega_i = %g 1/s, k = exp(%g))",
                           id.omega_i, lk);
  /* Check: simulate the identified impact (condition A: it is C for this model, see hc.h). */
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = n;
  p.m = n;
  p.k = id.k;
  p.c = id.lambda;
  p.mass = mass;
  p.v = v;
  p.transition = impactfit_transition_A;
  p.locate_extrema = 0;
  p.t_max = time_bound(id.eps, n);
  impactfit_impact_result r;
  if ((st = impactfit_impact_solve(ws, &p, &r, err)))
    return st;
  id.e_sim = r.e_out;
  id.dt_sim = r.t_contact;
  id.e_residual = fabs(r.e_out - e) / e;
  id.dt_residual = fabs(r.t_contact - dt) / dt;
  *out = id;
  return IMPACTFIT_OK;
}
