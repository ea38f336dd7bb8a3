/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The random accuracy cases (ref_cases.h): the engine and the inverse commands against the
 * reference integrator (ref_impact.c) or the exact Hunt–Crossley relation. */
#include "ref_cases.h"

#include <math.h>
#include <stdio.h>
#include <quadmath.h>
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
  /* in __float128: g cancels to ε²(1 − e²)/2 out of terms of size ε, so near e = 1 (ε → 0) long double
   * resolved e only to about 1e-19/(ε (1 − e)) relative of 1 − e (2.6e-8 at e = 1 − 1e-6) */
  __float128 E = eps, lo = 0, hi = 1;
  if (eps == 0.0)
    return 1.0;
  /* g(e) = ε(1 + e) − ln(1 + ε) + ln(1 − εe): positive below the root */
  for (int i = 0; i < 300 && hi - lo > 1e-32Q * hi; i++) {
    __float128 e = 0.5Q * (lo + hi);
    __float128 g = (E * e < 1) ? E * (1 + e) - log1pq(E) + log1pq(-E * e) : -1;
    if (g > 0)
      lo = e;
    else
      hi = e;
  }
  return (double)(0.5Q * (lo + hi));
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

/* One engine case: the engine and the reference at (n, m, ζ, cond), measured into c. */
static void engine_case(impactfit_impact_workspace *ws, double n, double m, double z, char cond, ref_engine_case *c) {
  c->n = n;
  c->m = m;
  c->zeta = z;
  c->cond = cond;
  c->outcome = REF_SKIPPED;
  if (cond == 'B' && m == n && z > 0.5 * (n + 1.0)) { /* undefined: the engine must refuse it (EINVAL) */
    impactfit_impact_params p = impactfit_impact_scaled_params(n, m, z);
    p.transition = impactfit_transition_B;
    impactfit_error err;
    int st = impactfit_impact_solve(ws, &p, NULL, &err);
    c->outcome = st == IMPACTFIT_EINVAL ? REF_AGREED : REF_FAILED;
    if (st != IMPACTFIT_EINVAL)
      snprintf(c->message, sizeof c->message, "B with m = n and zeta > K is undefined: want EINVAL, got status %d", st);
    return;
  }
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
  engine_case(ws, n, m, z, cond, c);
}

/* ---- the box's edges: directed engine cases ------------------------------------------------------ */

static const double edge_n[] = {1.0, 1.5, 2.0, 3.0};
/* (condition, ζ): every condition up to ζ = 30; beyond, C only (A and B creep for a time ∝ ζ or
 * never separate, D is C in a free impact) */
static const struct {
  char cond;
  double zeta;
} edge_cz[] = {{'A', 1e-6}, {'B', 1e-6}, {'C', 1e-6}, {'D', 1e-6}, {'A', 1e-3},  {'B', 1e-3},
               {'C', 1e-3}, {'D', 1e-3}, {'A', 1.0},  {'B', 1.0},  {'C', 1.0},   {'D', 1.0},
               {'A', 30.0}, {'B', 30.0}, {'C', 30.0}, {'D', 30.0}, {'C', 300.0}, {'C', 1000.0}};
enum { EDGE_M = 9 };
static double edge_m(int i, double n) {
  switch (i) {
  case 0:
    return 0.0;
  case 1:
    return 1e-9; /* m → 0⁺ */
  case 2:
    return 0.25;
  case 3:
    return 1.0;
  case 4:
    return n - 1e-3; /* m → n⁻: the force's slope at the end ∝ n − m */
  case 5:
    return n - 1e-6;
  case 6:
    return n; /* Hunt–Crossley */
  case 7:
    return n + 1e-6; /* m → n⁺: the end at δ = 0 */
  default:
    return 2.0;
  }
}
/* the independent audit's scan of m → n⁻ under C (issue 28) */
static const double audit_n[] = {1.2, 1.8, 2.5}, audit_p[] = {1e-6, 1e-5, 1e-4, 1e-3}, audit_z[] = {30.0, 150.0, 700.0};
/* issue 39's audit: e_out 1.29e-12 max(e, 0.01) under A near the critical damping (e = 0.0099), between
 * the random cases; ζ around it, m = 0 and 0.01 */
static const double a39_n = 2.987323839311239, a39_z = 0.8245987209216676;
static const double a39_f[] = {0.98, 0.99, 0.995, 1.0, 1.005, 1.01, 1.02}, a39_m[] = {0.0, 0.01};
/* below the box: n < 1 (f_min for n < 1, issue 28) */
static const double low_n[] = {0.3, 0.5, 0.8}, low_m[] = {0.0, 0.1, 0.25}, low_z[] = {0.01, 1.0, 30.0};

#define NE(a) (int)(sizeof a / sizeof a[0])
#define EDGE_GRID (NE(edge_n) * EDGE_M * NE(edge_cz))
#define EDGE_AUDIT (NE(audit_n) * NE(audit_p) * NE(audit_z))
#define EDGE_LOW (NE(low_n) * NE(low_m) * NE(low_z) * 3)
#define EDGE_A39 (NE(a39_f) * NE(a39_m))
const int ref_edge_engine_count = EDGE_GRID + EDGE_AUDIT + EDGE_LOW + EDGE_A39;

void ref_edge_engine_run(impactfit_impact_workspace *ws, int index, ref_engine_case *c) {
  memset(c, 0, sizeof *c);
  int i = index;
  if (i < EDGE_GRID) { /* n × m × (condition, ζ) */
    int icz = i % NE(edge_cz), im = (i / NE(edge_cz)) % EDGE_M, in = i / (NE(edge_cz) * EDGE_M);
    double n = edge_n[in];
    engine_case(ws, n, edge_m(im, n), edge_cz[icz].zeta, edge_cz[icz].cond, c);
    return;
  }
  i -= EDGE_GRID;
  if (i < EDGE_AUDIT) {
    int iz = i % NE(audit_z), ip = (i / NE(audit_z)) % NE(audit_p), in = i / (NE(audit_z) * NE(audit_p));
    engine_case(ws, audit_n[in], audit_n[in] - audit_p[ip], audit_z[iz], 'C', c);
    return;
  }
  i -= EDGE_AUDIT;
  if (i >= EDGE_LOW) {
    i -= EDGE_LOW;
    engine_case(ws, a39_n, a39_m[i / NE(a39_f)], a39_z * a39_f[i % NE(a39_f)], 'A', c);
    return;
  }
  int ic = i % 3, iz = (i / 3) % NE(low_z), im = (i / (3 * NE(low_z))) % NE(low_m),
      in = i / (3 * NE(low_z) * NE(low_m));
  engine_case(ws, low_n[in], low_m[im], low_z[iz], "BCD"[ic], c);
}

/* ---- inverse commands ---------------------------------------------------------------------------- */

static void failed(ref_inverse_case *c, int k, const char *what, const impactfit_error *err) {
  c->outcome[k] = REF_FAILED;
  snprintf(c->message[k], sizeof c->message[k], "%.200s: %.300s", what, err->message);
}

static void measured(ref_inverse_case *c, int k, double zeta, double d) {
  c->outcome[k] = REF_MEASURED;
  c->zeta[k] = zeta;
  c->err[k] = d;
}

/* |e_ref − e| / min(e, 1 − e) from the reference's e_out with its rounding residue */
static double ref_e_err(double n, double m, double z, char cond, double e, int *ok) {
  ref_result r;
  *ok = ref_impact(n, m, z, cond, REF_STEPS, &r) == 0;
  return *ok ? fabs((r.e_out - e) + r.e_out_lo) / fmin(e, 1.0 - e) : 0.0;
}

/* copt: m = 0, C (n ∈ [1, 2.5], e ∈ [0.01, 1) in the random set) */
static void copt_case(impactfit_inverse_workspace *iws, double n, double e, ref_inverse_case *c) {
  impactfit_inverse_params p = impactfit_inverse_default_params();
  p.n = n;
  impactfit_copt_result cr;
  impactfit_error err;
  char what[160];
  snprintf(what, sizeof what, "copt (n = %.17g, e = %.17g)", n, e);
  int ok;
  if (impactfit_copt_solve(iws, &p, e, 1.0, 1.0, 1.0, 0, &cr, &err) == 0) {
    double d = ref_e_err(n, 0.0, cr.zeta, 'C', e, &ok);
    if (ok)
      measured(c, REF_COPT, cr.zeta, d);
    else
      snprintf(c->message[REF_COPT], sizeof c->message[REF_COPT], "%s: the reference failed", what);
    c->outcome[REF_COPT] = ok ? REF_MEASURED : REF_FAILED;
  } else {
    failed(c, REF_COPT, what, &err);
  }
}
static void inv_copt(impactfit_inverse_workspace *iws, rng *g, ref_inverse_case *c) {
  double n = uniform(g, 1.0, 2.5), e = pow(10.0, uniform(g, -2.0, -1e-3));
  copt_case(iws, n, e, c);
}

/* zhang-alpha: any m, A or C (e ∈ [0.02, 1) in the random set: ζ moderate, the reference cheap) */
static void zhang_case(impactfit_inverse_workspace *iws, double n, double m, double e, char cond, ref_inverse_case *c) {
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
  int ok;
  double d = ref_e_err(n, m, ir.zeta, cond, e, &ok);
  if (ok)
    measured(c, REF_ZHANG, ir.zeta, d);
}
static void inv_zhang(impactfit_inverse_workspace *iws, rng *g, ref_inverse_case *c) {
  double n = uniform(g, 1.0, 3.0), m = (urand(g) < 0.2) ? n : uniform(g, 0.0, 2.0);
  double e = pow(10.0, uniform(g, -1.7, -1e-3));
  char cond = (rng_next(g) & 1) ? 'A' : 'C';
  zhang_case(iws, n, m, e, cond, c);
}

/* zhang-alpha for Hunt–Crossley (m = n) over the whole e ∈ [1e-6, 1), A or C: the damping against
 * the exact relation (the strong damping there is beyond the reference's cheap range) */
static void zhang_hc_case(impactfit_inverse_workspace *iws, double n, double e, char cond, ref_inverse_case *c) {
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
static void inv_zhang_hc(impactfit_inverse_workspace *iws, rng *g, ref_inverse_case *c) {
  double n = uniform(g, 1.0, 3.0), e = pow(10.0, uniform(g, -6.0, -1e-3));
  char cond = (rng_next(g) & 1) ? 'A' : 'C';
  zhang_hc_case(iws, n, e, cond, c);
}

/* hc-eps: e ∈ [1e-6, 1) against the exact relation */
static void hc_eps_case(double e, ref_inverse_case *c) {
  double eps;
  impactfit_error err;
  char what[160];
  snprintf(what, sizeof what, "hc-eps (e = %.17g)", e);
  if (impactfit_hc_eps(e, &eps, &err) == 0)
    measured(c, REF_HC_EPS, eps, fabs(ref_hc_e_exact(eps) - e) / fmin(e, 1.0 - e));
  else
    failed(c, REF_HC_EPS, what, &err);
}
static void inv_hc_eps(rng *g, ref_inverse_case *c) { hc_eps_case(pow(10.0, uniform(g, -6.0, -1e-9)), c); }

/* impact-time: Δτ(ε, n) against the reference's contact duration (ζ = Kε, time × δ_m0) */
static void impact_time_case(impactfit_impact_workspace *ws, double n, double eps, ref_inverse_case *c) {
  double dtau, eo;
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
    measured(c, REF_IMPACT_TIME, dtau, fabs(dtau - r.t_contact * dm - r.t_contact_lo * dm) / (r.t_contact * dm));
}
static void inv_impact_time(impactfit_impact_workspace *ws, rng *g, ref_inverse_case *c) {
  double n = uniform(g, 1.0, 3.0), eps = pow(10.0, uniform(g, -4.0, 1.3));
  impact_time_case(ws, n, eps, c);
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

/* ---- the box's edges: directed inverse targets --------------------------------------------------- */

static const double ec_n[] = {1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5};
static const double ec_e[] = {0.01, 0.02, 0.05, 0.1, 0.3, 0.4999999, 0.5, 0.5000001, 0.7, 0.9, 0.99, 0.999, 1.0 - 1e-6};
static const double ez_n[] = {1.0, 1.5, 2.0, 3.0}, ez_m[] = {0.0, 0.25, 1.0, 1.44, 2.0};
static const double ez_e[] = {0.02, 0.1, 0.5, 0.9, 0.999};
static const double eh_e[] = {1e-6, 1e-4, 0.01, 0.5, 0.99, 1.0 - 1e-6};
static const double ee_e[] = {1e-6, 1e-5, 1e-4, 1e-3, 0.01,  0.1,        0.3,
                              0.5,  0.7,  0.9,  0.99, 0.999, 1.0 - 1e-6, 1.0 - 1e-9};
static const double et_n[] = {1.0, 1.233, 1.5, 2.0, 2.5, 3.0};
static const double et_eps[] = {1e-4, 3e-4, 1e-3, 2.41e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0, 3.0, 10.0, 20.0};
#define EI_COPT (NE(ec_n) * NE(ec_e))
#define EI_ZHANG (NE(ez_n) * NE(ez_m) * NE(ez_e) * 2)
#define EI_HC (NE(ez_n) * NE(eh_e) * 2)
#define EI_EPS NE(ee_e)
#define EI_TIME (NE(et_n) * NE(et_eps))
const int ref_edge_inverse_count = EI_COPT + EI_ZHANG + EI_HC + EI_EPS + EI_TIME;

void ref_edge_inverse_run(impactfit_inverse_workspace *iws, impactfit_impact_workspace *ws, int index,
                          ref_inverse_case *c) {
  memset(c, 0, sizeof *c);
  for (int k = 0; k < REF_INVERSE_N; k++)
    c->outcome[k] = REF_SKIPPED; /* one target per index */
  int i = index;
  if (i < EI_COPT) {
    copt_case(iws, ec_n[i / NE(ec_e)], ec_e[i % NE(ec_e)], c);
    return;
  }
  i -= EI_COPT;
  if (i < EI_ZHANG) {
    int ic = i % 2, ie = (i / 2) % NE(ez_e), im = (i / (2 * NE(ez_e))) % NE(ez_m), in = i / (2 * NE(ez_e) * NE(ez_m));
    zhang_case(iws, ez_n[in], ez_m[im], ez_e[ie], "AC"[ic], c);
    return;
  }
  i -= EI_ZHANG;
  if (i < EI_HC) {
    int ic = i % 2, ie = (i / 2) % NE(eh_e), in = i / (2 * NE(eh_e));
    zhang_hc_case(iws, ez_n[in], eh_e[ie], "AC"[ic], c);
    return;
  }
  i -= EI_HC;
  if (i < EI_EPS) {
    hc_eps_case(ee_e[i], c);
    return;
  }
  i -= EI_EPS;
  impact_time_case(ws, et_n[i / NE(et_eps)], et_eps[i % NE(et_eps)], c);
}
