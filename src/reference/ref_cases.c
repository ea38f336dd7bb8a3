/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The random accuracy cases (ref_cases.h): the engine and the inverse commands against the
 * reference integrator (ref_impact.c) or the exact Hunt–Crossley relation. */
#include "ref_cases.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/hc.h"
#include "ref_impact.h"

const char *const ref_engine_names[REF_ENGINE_N] = {"e_out",     "t_contact",   "f_max",     "t_fmax",
                                                    "delta_max", "t_delta_max", "delta_sep", "f_min"};
const char *const ref_inverse_names[REF_INVERSE_N] = {"copt", "zhang-alpha", "zhang-alpha HC", "hc-eps", "impact-time"};

/* The engine's: the measured maxima over 6000 cases (ζ ≤ 30 and ≤ 300) when the reference was
 * introduced, times 3–20. The inverse commands promise tol·min(e, 1 − e) = 1e-10 on their own
 * simulations, plus the engine's error; hc-eps is a root of a closed form in double; impact-time is
 * the engine's contact duration. */
const double ref_engine_ceiling[REF_ENGINE_N] = {3e-12, 2e-11, 2e-13, 1e-8, 2e-13, 1e-7, 5e-11, 1e-12};
const double ref_inverse_ceiling[REF_INVERSE_N] = {2e-10, 2e-10, 2e-10, 4e-15, 1e-13};

/* ---- a small deterministic generator (splitmix64): a case is a function of its seed ---------- */

typedef struct rng {
  uint64_t s;
} rng;
static uint64_t rng_next(rng *g) {
  uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double urand(rng *g) { return (double)(rng_next(g) >> 11) * 0x1.0p-53; }
static double uniform(rng *g, double a, double b) { return a + (b - a) * urand(g); }

static const impactfit_transition *tr_of(char c) {
  return c == 'A'   ? impactfit_transition_A
         : c == 'B' ? impactfit_transition_B
         : c == 'C' ? impactfit_transition_C
                    : impactfit_transition_D;
}

double ref_hc_e_exact(double eps) {
  long double E = eps, lo = 0.0L, hi = 1.0L;
  if (eps == 0.0)
    return 1.0;
  /* g(e) = ε(1 + e) − ln(1 + ε) + ln(1 − εe): positive below the root */
  for (int i = 0; i < 200 && hi - lo > 1e-21L * hi; i++) {
    long double e = 0.5L * (lo + hi);
    long double g = (E * e < 1.0L) ? E * (1.0L + e) - log1pl(E) + log1pl(-E * e) : -INFINITY;
    if (g > 0.0L)
      lo = e;
    else
      hi = e;
  }
  return (double)(0.5L * (lo + hi));
}

/* ---- engine -------------------------------------------------------------------------------------- */

static void engine_measure(const ref_result *r, const impactfit_impact_result *res, double n, double z,
                           ref_engine_case *c) {
  double fscale = r->f_max + 0.5 * (n + 1.0) * pow(fabs(res->delta_start), n);
  double got[REF_ENGINE_N] = {res->e_out,     res->t_contact,   res->f_max,     res->t_fmax,
                              res->delta_max, res->t_delta_max, res->delta_sep, res->f_min};
  double want[REF_ENGINE_N] = {r->e_out, r->t_contact, r->f_max, r->t_fmax, r->x_max, r->t_xmax, r->x_sep, r->f_min};
  memcpy(c->got, got, sizeof got);
  memcpy(c->want, want, sizeof want);
  c->err[REF_E_OUT] = fabs(res->e_out - r->e_out) / fmax(r->e_out, 0.01);
  c->err[REF_T_CONTACT] = fabs(res->t_contact - r->t_contact) / r->t_contact / (1.0 + z / r->e_out);
  c->err[REF_F_MAX] = fabs(res->f_max - r->f_max) / fscale;
  c->err[REF_T_FMAX] = fabs(res->t_fmax - r->t_fmax) / r->t_contact;
  c->err[REF_DELTA_MAX] = fabs(res->delta_max - r->x_max) / (r->x_max + fabs(res->delta_start));
  c->err[REF_T_DELTA_MAX] = fabs(res->t_delta_max - r->t_xmax) / r->t_contact;
  c->err[REF_DELTA_SEP] = fabs(res->delta_sep - r->x_sep) / (1.0 + z);
  c->err[REF_F_MIN] = fabs(res->f_min - r->f_min) / fscale;
  c->outcome = REF_MEASURED;
}

void ref_engine_run(impactfit_impact_workspace *ws, uint64_t seed, double zeta_max, ref_engine_case *c) {
  memset(c, 0, sizeof *c);
  rng g = {seed};
  double n = uniform(&g, 1.0, 3.0), m;
  double pick = urand(&g);
  if (pick < 0.2)
    m = pow(10.0, uniform(&g, -9.0, -2.0)); /* m → 0⁺: the sharp early force maximum */
  else if (pick < 0.3)
    m = 0.0;
  else if (pick < 0.4)
    m = n;
  else
    m = uniform(&g, 0.0, 2.0);
  char cond = "ABCD"[rng_next(&g) % 4];
  double z = pow(10.0, uniform(&g, -3.0, log10(zeta_max)));
  c->n = n;
  c->m = m;
  c->zeta = z;
  c->cond = cond;
  c->outcome = REF_SKIPPED;
  if (cond == 'B' && m == n && z > 0.5 * (n + 1.0))
    return; /* undefined (EINVAL) */
  if (cond == 'B' && m < n && pow(z / (0.5 * (n + 1.0)), 1.0 / (n - m)) > 1e3)
    return; /* B's gap before touching, (ζ/K)^(1/(n−m)) δ_m0, beyond 1e3 δ_m0: out of range */
  ref_result r;
  int rs = ref_impact(n, m, z, cond, REF_STEPS, &r);
  impactfit_impact_params p = impactfit_impact_scaled_params(n, m, z);
  p.transition = tr_of(cond);
  impactfit_impact_result res;
  impactfit_error err;
  int st = impactfit_impact_solve(ws, &p, &res, &err);
  c->outcome = REF_FAILED;
  if (rs != 0) { /* the reference gave up (a slow creep): the engine must not end the contact sooner */
    if (rs != 1)
      snprintf(c->message, sizeof c->message, "the reference failed (status %d)", rs);
    else if (st == 0 && !(res.t_contact > r.t_contact))
      snprintf(c->message, sizeof c->message,
               "the engine ends the contact at %.17g, the reference is still in contact at %.17g", res.t_contact,
               r.t_contact);
    else
      c->outcome = REF_AGREED;
    return;
  }
  if (st == IMPACTFIT_ENOSEP && r.e_out < 1e-9) {
    c->outcome = REF_AGREED; /* documented: reaching δ = 0 slower than 1e-9 v is no separation */
    return;
  }
  if (st != 0) {
    snprintf(c->message, sizeof c->message, "the engine failed: %.300s", err.message);
    return;
  }
  engine_measure(&r, &res, n, z, c);
}

/* ---- inverse commands ---------------------------------------------------------------------------- */

/* the reference e_out at ζ (0 when the reference gave up) */
static double ref_e(double n, double m, double z, char cond) {
  ref_result r;
  return ref_impact(n, m, z, cond, REF_STEPS, &r) == 0 ? r.e_out : 0.0;
}

static void failed(ref_inverse_case *c, int k, const char *what, const impactfit_error *err) {
  c->outcome[k] = REF_FAILED;
  snprintf(c->message[k], sizeof c->message[k], "%.200s: %.300s", what, err->message);
}

static void measured(ref_inverse_case *c, int k, double zeta, double d) {
  c->outcome[k] = REF_MEASURED;
  c->zeta[k] = zeta;
  c->err[k] = d;
}

/* copt: m = 0, C, n ∈ [1, 2.5] (the surrogate's guess range and beyond), e ∈ [0.01, 1) */
static void inv_copt(impactfit_inverse_workspace *iws, rng *g, ref_inverse_case *c) {
  double n = uniform(g, 1.0, 2.5), e = pow(10.0, uniform(g, -2.0, -1e-3));
  impactfit_inverse_params p = impactfit_inverse_default_params();
  p.n = n;
  impactfit_copt_result cr;
  impactfit_error err;
  char what[160];
  snprintf(what, sizeof what, "copt (n = %.17g, e = %.17g)", n, e);
  if (impactfit_copt_solve(iws, &p, e, 1.0, 1.0, 1.0, 0, &cr, &err) == 0)
    measured(c, REF_COPT, cr.zeta, fabs(ref_e(n, 0.0, cr.zeta, 'C') - e) / fmin(e, 1.0 - e));
  else
    failed(c, REF_COPT, what, &err);
}

/* zhang-alpha: any m, A or C, e ∈ [0.02, 1) (ζ moderate, so the reference is cheap) */
static void inv_zhang(impactfit_inverse_workspace *iws, rng *g, ref_inverse_case *c) {
  double n = uniform(g, 1.0, 3.0), m = (urand(g) < 0.2) ? n : uniform(g, 0.0, 2.0);
  double e = pow(10.0, uniform(g, -1.7, -1e-3));
  char cond = (rng_next(g) & 1) ? 'A' : 'C';
  impactfit_inverse_params p = impactfit_inverse_default_params();
  p.n = n;
  p.m = m;
  p.transition = tr_of(cond);
  impactfit_inverse_result ir;
  impactfit_error err;
  char what[200];
  snprintf(what, sizeof what, "zhang-alpha (n = %.17g, m = %.17g, e = %.17g, %c)", n, m, e, cond);
  int st = impactfit_inverse_solve(iws, &p, e, 0.0, &ir, &err);
  c->outcome[REF_ZHANG] = REF_AGREED;
  if (st == IMPACTFIT_ENOROOT && cond == 'A' && m < n)
    return; /* a genuine "no damping" is possible here (e above what any ζ gives under A) */
  if (st) {
    failed(c, REF_ZHANG, what, &err);
    return;
  }
  double er = ref_e(n, m, ir.zeta, cond);
  if (er > 0.0)
    measured(c, REF_ZHANG, ir.zeta, fabs(er - e) / fmin(e, 1.0 - e));
}

/* zhang-alpha for Hunt–Crossley (m = n) over the whole e ∈ [1e-6, 1), A or C: the damping against
 * the exact relation (the strong damping there is beyond the reference's cheap range) */
static void inv_zhang_hc(impactfit_inverse_workspace *iws, rng *g, ref_inverse_case *c) {
  double n = uniform(g, 1.0, 3.0), e = pow(10.0, uniform(g, -6.0, -1e-3));
  char cond = (rng_next(g) & 1) ? 'A' : 'C';
  impactfit_inverse_params p = impactfit_inverse_default_params();
  p.n = n;
  p.m = n;
  p.transition = tr_of(cond);
  impactfit_inverse_result ir;
  impactfit_error err;
  char what[200];
  snprintf(what, sizeof what, "zhang-alpha HC (n = m = %.17g, e = %.17g, %c)", n, e, cond);
  if (impactfit_inverse_solve(iws, &p, e, 0.0, &ir, &err) == 0)
    measured(c, REF_ZHANG_HC, ir.zeta, fabs(ref_hc_e_exact(ir.zeta / (0.5 * (n + 1.0))) - e) / fmin(e, 1.0 - e));
  else
    failed(c, REF_ZHANG_HC, what, &err);
}

/* hc-eps: e ∈ [1e-6, 1) against the exact relation */
static void inv_hc_eps(rng *g, ref_inverse_case *c) {
  double e = pow(10.0, uniform(g, -6.0, -1e-9)), eps;
  impactfit_error err;
  char what[160];
  snprintf(what, sizeof what, "hc-eps (e = %.17g)", e);
  if (impactfit_hc_eps(e, &eps, &err) == 0)
    measured(c, REF_HC_EPS, eps, fabs(ref_hc_e_exact(eps) - e) / fmin(e, 1.0 - e));
  else
    failed(c, REF_HC_EPS, what, &err);
}

/* impact-time: Δτ(ε, n) against the reference's contact duration (ζ = Kε, time × δ_m0) */
static void inv_impact_time(impactfit_impact_workspace *ws, rng *g, ref_inverse_case *c) {
  double n = uniform(g, 1.0, 3.0), eps = pow(10.0, uniform(g, -4.0, 1.3)), dtau, eo;
  impactfit_error err;
  char what[160];
  snprintf(what, sizeof what, "impact-time (n = %.17g, eps = %.17g)", n, eps);
  if (impactfit_hc_impact_time(ws, eps, n, &dtau, &eo, &err) != 0) {
    failed(c, REF_IMPACT_TIME, what, &err);
    return;
  }
  double K = 0.5 * (n + 1.0), dm = pow(K, 1.0 / (n + 1.0));
  ref_result r;
  c->outcome[REF_IMPACT_TIME] = REF_AGREED;
  if (ref_impact(n, n, K * eps, 'A', REF_STEPS, &r) == 0)
    measured(c, REF_IMPACT_TIME, dtau, fabs(dtau - r.t_contact * dm) / (r.t_contact * dm));
}

void ref_inverse_run(impactfit_inverse_workspace *iws, impactfit_impact_workspace *ws, uint64_t seed,
                     ref_inverse_case *c) {
  memset(c, 0, sizeof *c);
  rng g = {seed};
  inv_copt(iws, &g, c);
  inv_zhang(iws, &g, c);
  inv_zhang_hc(iws, &g, c);
  inv_hc_eps(&g, c);
  inv_impact_time(ws, &g, c);
}
