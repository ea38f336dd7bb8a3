/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Identification of contact parameters from measured impacts (include/impactfit/identify.h):
 * residuals from the engine, the search box in scaled coordinates, NLopt global search and BOBYQA
 * polish, Gauss–Newton refinement, and the SVD of the Jacobian for standard errors and
 * identifiability; the per-row inverse damping.
 *
 * Why the Gauss–Newton stage is written here rather than taken from GSL's multifit_nlinear: it
 * reuses the finite-difference Jacobian that the standard errors need anyway, takes the step
 * through the same truncated SVD (so it never moves along an undetermined combination), and
 * respects the bounds of n and m; it is a few lines on top of gsl_linalg_SV_decomp.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <nlopt.h>

#include "../common/common_impl.h"
#include "identify_impl.h"
#include "impactfit/hc.h"
#include "impactfit/identify.h"
#include "impactfit/inverse.h"

#define NP IMPACTFIT_IDENTIFY_NPAR
#define NQ IMPACTFIT_IDENTIFY_NQ
#define FD_STEP 1e-4        /* finite-difference step in the fit coordinates */
#define NULL_COMPONENT 1e-3 /* |V_ij| above which a parameter takes part in a null direction */
#define ZERO_COLUMN 1e-7    /* a Jacobian column below this × the largest is taken as zero */
#define FAIL_RESIDUAL 10.0  /* residual given to each quantity of a row that cannot be simulated */
#define SEARCH_RTOL 1e-10   /* engine tolerance during the search (e to ~2e-11, 1.5-2x faster) */
#define T_BOUND 500.0       /* simulations end at 500 max(1, ζ) δ_m0/v (about 170 contacts) */

/* ---- type objects ---------------------------------------------------------------------------- */

static const impactfit_identify_model mod_hc = {"hc", "Hunt-Crossley, m = n: n, k, lambda", "lambda", 0};
static const impactfit_identify_model mod_linear = {"linear", "linear damper, m = 0: n, k, c", "c", 1};
static const impactfit_identify_model mod_zhang = {"zhang", "Zhang et al., m free: n, m, k, lambda", "lambda", 2};
const impactfit_identify_model *const impactfit_identify_hc = &mod_hc;
const impactfit_identify_model *const impactfit_identify_linear = &mod_linear;
const impactfit_identify_model *const impactfit_identify_zhang = &mod_zhang;

const impactfit_identify_model *impactfit_identify_model_from_name(const char *name) {
  static const impactfit_identify_model *const all[] = {&mod_hc, &mod_linear, &mod_zhang};
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (strcmp(name, all[i]->name) == 0)
      return all[i];
  return NULL;
}

int impactfit_identify_model_values(const impactfit_identify_model *M, double value[IMPACTFIT_IDENTIFY_NPAR],
                                    impactfit_error *err) {
  if (!M || !value)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: NULL argument");
  value[1] = M->m_rule == 0 ? value[0] : (M->m_rule == 1 ? 0.0 : value[1]);
  int ok = value[0] > 0.0 && value[0] <= 10.0 && value[1] >= 0.0 && value[1] <= 10.0 && value[2] > 0.0 &&
           value[3] >= 0.0 && isfinite(value[2]) && isfinite(value[3]);
  return ok ? IMPACTFIT_OK
            : IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "need 0 < n <= 10, 0 <= m <= 10, k > 0, %s >= 0", M->damping_name);
}

static const impactfit_identify_global g_crs = {"crs", "NLopt CRS2 with local mutation, seeded (default)"};
static const impactfit_identify_global g_direct = {"direct", "NLopt DIRECT-L (deterministic)"};
static const impactfit_identify_global g_none = {"none", "no global search: polish from the data-derived start"};
const impactfit_identify_global *const impactfit_identify_global_crs = &g_crs;
const impactfit_identify_global *const impactfit_identify_global_direct = &g_direct;
const impactfit_identify_global *const impactfit_identify_global_none = &g_none;

const impactfit_identify_global *impactfit_identify_global_from_name(const char *name) {
  static const impactfit_identify_global *const all[] = {&g_crs, &g_direct, &g_none};
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (strcmp(name, all[i]->name) == 0)
      return all[i];
  return NULL;
}

const char *impactfit_identify_param_name(int slot) {
  static const char *const names[NP] = {"n", "m", "k", "c"};
  return (slot >= 0 && slot < NP) ? names[slot] : "?";
}

const char *impactfit_identify_quantity_name(int q) {
  static const char *const names[NQ] = {"e", "dt", "fmax"};
  return (q >= 0 && q < NQ) ? names[q] : "?";
}

impactfit_identify_params impactfit_identify_default_params(void) {
  impactfit_identify_params p;
  memset(&p, 0, sizeof p);
  p.model = impactfit_identify_hc;
  p.transition = impactfit_transition_C;
  p.n_lo = 0.5;
  p.n_hi = 3.0;
  p.m_lo = 0.0;
  p.m_hi = 3.0;
  for (int q = 0; q < NQ; q++)
    p.weight[q] = 1.0;
  p.box_factor = 30.0;
  p.global = impactfit_identify_global_crs;
  p.global_maxeval = 0;
  p.local_maxeval = 2000;
  p.xtol = 1e-9;
  p.newton_steps = 4;
  p.seed = 1;
  p.ident_tol = 1e-6;
  return p;
}

/* ---- workspace ------------------------------------------------------------------------------- */

struct impactfit_identify_workspace {
  impactfit_impact_workspace *imp;
  impactfit_inverse_workspace *inv;
  size_t cap_rows;
  impactfit_identify_row_fit *rf;
  size_t cap_res;
  double *r0, *r1, *r2, *J; /* residual vectors (cap_res) and the Jacobian (cap_res × NP) */
};

impactfit_identify_workspace *impactfit_identify_alloc(void) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_identify_workspace *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  ws->imp = impactfit_impact_alloc();
  ws->inv = impactfit_inverse_alloc();
  if (!ws->imp || !ws->inv) {
    impactfit_identify_free(ws);
    return NULL;
  }
  return ws;
}

void impactfit_identify_free(impactfit_identify_workspace *ws) {
  if (!ws)
    return;
  impactfit_impact_free(ws->imp);
  impactfit_inverse_free(ws->inv);
  free(ws->rf);
  free(ws->r0);
  free(ws->r1);
  free(ws->r2);
  free(ws->J);
  free(ws);
}

int impactfit__identify_rows(impactfit_identify_workspace *ws, size_t rows, impactfit_identify_row_fit **rf,
                             impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (rows > ws->cap_rows) {
    impactfit_identify_row_fit *n = realloc(ws->rf, rows * sizeof *n);
    if (!n)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "identify: out of memory for %zu rows", rows);
    ws->rf = n;
    ws->cap_rows = rows;
  }
  *rf = ws->rf;
  return IMPACTFIT_OK;
}

static int grow_res(impactfit_identify_workspace *ws, size_t nres, impactfit_error *err) {
  if (nres <= ws->cap_res)
    return IMPACTFIT_OK;
  double *a[4];
  size_t sz[4] = {nres, nres, nres, nres * NP};
  double **slot[4] = {&ws->r0, &ws->r1, &ws->r2, &ws->J};
  for (int i = 0; i < 4; i++) {
    a[i] = realloc(*slot[i], sz[i] * sizeof(double));
    if (!a[i])
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "identify: out of memory for %zu residuals", nres);
    *slot[i] = a[i];
  }
  ws->cap_res = nres;
  return IMPACTFIT_OK;
}

/* ---- one row --------------------------------------------------------------------------------- */

static int simulate_row(impactfit_impact_workspace *imp, const impactfit_identify_row *row, const double value[NP],
                        const impactfit_transition *tr, int locate, double rtol, impactfit_identify_row_fit *out,
                        impactfit_error *err) {
  impactfit_impact_params ip = impactfit_impact_default_params();
  ip.n = value[IMPACTFIT_IDENTIFY_N];
  ip.m = value[IMPACTFIT_IDENTIFY_M];
  ip.k = value[IMPACTFIT_IDENTIFY_K];
  ip.c = value[IMPACTFIT_IDENTIFY_C];
  ip.mass = row->mass;
  ip.v = row->v;
  ip.transition = tr ? tr : impactfit_transition_C;
  ip.locate_extrema = locate;
  if (rtol > 0.0)
    ip.rtol = rtol;
  double zeta = 0.0;
  int st = impactfit_impact_scales(&ip, NULL, NULL, NULL, &zeta, NULL, err);
  if (st)
    return st;
  ip.t_max = T_BOUND * (zeta > 1.0 ? zeta : 1.0);
  impactfit_impact_result res;
  st = impactfit_impact_solve(imp, &ip, &res, err);
  if (st)
    return st;
  out->e = res.e_out;
  out->dt = res.t_contact;
  out->fmax = res.f_max;
  out->zeta = res.zeta;
  out->r_e = row->e > 0.0 ? (res.e_out - row->e) / row->e : 0.0;
  out->r_dt = row->dt > 0.0 ? (res.t_contact - row->dt) / row->dt : 0.0;
  out->r_fmax = row->fmax > 0.0 ? (res.f_max - row->fmax) / row->fmax : 0.0;
  return IMPACTFIT_OK;
}

static int check_value(const double value[NP], impactfit_error *err) {
  double n = value[IMPACTFIT_IDENTIFY_N], m = value[IMPACTFIT_IDENTIFY_M];
  double k = value[IMPACTFIT_IDENTIFY_K], c = value[IMPACTFIT_IDENTIFY_C];
  if (!(isfinite(n) && n > 0.0 && isfinite(m) && m >= 0.0 && isfinite(k) && k > 0.0 && isfinite(c) && c >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "identify: parameters must satisfy n > 0, m >= 0, k > 0, c >= 0, finite "
                           "(got n = %g, m = %g, k = %g, c = %g)",
                           n, m, k, c);
  return IMPACTFIT_OK;
}

int impactfit_identify_predict(impactfit_identify_workspace *ws, const impactfit_identify_data *d,
                               const double value[NP], const impactfit_transition *transition, const double *weight,
                               impactfit_identify_row_fit *rows_out, double *cost, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!ws || !d || !value || !rows_out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify predict: NULL argument");
  int st = check_value(value, err);
  if (st)
    return st;
  if (d->rows == 0 || !d->row)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify predict: no rows");
  for (size_t i = 0; i < d->rows; i++)
    if (!(isfinite(d->row[i].v) && d->row[i].v > 0.0 && isfinite(d->row[i].mass) && d->row[i].mass > 0.0 &&
          isfinite(d->row[i].e) && d->row[i].e >= 0.0 && isfinite(d->row[i].dt) && isfinite(d->row[i].fmax)))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "identify predict: row %zu: v and mass must be finite and > 0, e, dt, "
                             "fmax finite",
                             i);
  double w[NQ] = {1.0, 1.0, 1.0};
  if (weight)
    for (int q = 0; q < NQ; q++)
      w[q] = weight[q];
  double S = 0.0;
  for (size_t i = 0; i < d->rows; i++) {
    impactfit_error e2;
    st = simulate_row(ws->imp, &d->row[i], value, transition, 1, 0.0, &rows_out[i], &e2);
    if (st) {
      const char *src = d->source[0] ? d->source : "<data>";
      if (d->row[i].line > 0)
        return IMPACTFIT__FAIL(err, st, "%s:%d: %s", src, d->row[i].line, e2.message);
      return IMPACTFIT__FAIL(err, st, "%s: row %zu: %s", src, i, e2.message);
    }
    const impactfit_identify_row_fit *r = &rows_out[i];
    S += w[0] * w[0] * r->r_e * r->r_e;
    if (d->columns & IMPACTFIT_IDENTIFY_COL_DT)
      S += w[1] * w[1] * r->r_dt * r->r_dt;
    if (d->columns & IMPACTFIT_IDENTIFY_COL_FMAX)
      S += w[2] * w[2] * r->r_fmax * r->r_fmax;
  }
  if (cost)
    *cost = S;
  return IMPACTFIT_OK;
}

/* ---- the fit --------------------------------------------------------------------------------- */

typedef struct ctx {
  impactfit_identify_workspace *ws;
  const impactfit_identify_data *d;
  const impactfit_identify_params *p;
  const impactfit_transition *tr;
  int m_rule;
  int nq, q[NQ];
  double w[NQ];
  int locate;
  double rtol; /* engine tolerance: SEARCH_RTOL while searching, 0 (default) after */
  size_t nres;
  int nx, xslot[NP];     /* free slots in order n, m, k, c: search and fit coordinates alike */
  double fixedv[NP];     /* values of the fixed slots */
  double lo[NP], hi[NP]; /* search box (search coordinates) */
  double lnL;            /* ln L */
  size_t ref;
  double vr, massr;
  long sims, evals;
  int fail_status;
  impactfit_error fail_err;
  double best_S, best_x[NP];
  double penalty;
} ctx;

/* The model's m from n and the free/fixed m. */
static double model_m(const ctx *c, double n, double m_free) {
  return c->m_rule == 0 ? n : (c->m_rule == 1 ? 0.0 : m_free);
}

/* Search coordinates x → parameters. Returns 0, or −1 when k or c is not representable. */
static int x_to_value(const ctx *c, const double *x, double value[NP]) {
  double n = c->fixedv[IMPACTFIT_IDENTIFY_N], mfree = c->fixedv[IMPACTFIT_IDENTIFY_M];
  double sk = 0.0, sc = 0.0;
  int kfree = 0, cfree = 0;
  for (int j = 0; j < c->nx; j++) {
    switch (c->xslot[j]) {
    case IMPACTFIT_IDENTIFY_N:
      n = x[j];
      break;
    case IMPACTFIT_IDENTIFY_M:
      mfree = x[j];
      break;
    case IMPACTFIT_IDENTIFY_K:
      sk = x[j], kfree = 1;
      break;
    default:
      sc = x[j], cfree = 1;
      break;
    }
  }
  double m = model_m(c, n, mfree);
  double lnA = log(0.5 * (n + 1.0) * c->massr * c->vr * c->vr); /* ln((n+1) mass v²/2) */
  double lnk, lnd;                                              /* ln k, ln δ_m0,r */
  if (kfree) {
    lnd = c->lnL + sk;
    lnk = lnA - (n + 1.0) * lnd;
  } else {
    lnk = log(c->fixedv[IMPACTFIT_IDENTIFY_K]);
    lnd = (lnA - lnk) / (n + 1.0);
  }
  double k = exp(lnk), cc;
  if (cfree)
    cc = exp(sc + log(c->massr * c->vr) - (m + 1.0) * lnd);
  else
    cc = c->fixedv[IMPACTFIT_IDENTIFY_C];
  value[IMPACTFIT_IDENTIFY_N] = n;
  value[IMPACTFIT_IDENTIFY_M] = m;
  value[IMPACTFIT_IDENTIFY_K] = k;
  value[IMPACTFIT_IDENTIFY_C] = cc;
  return (isfinite(k) && k > 0.0 && k < 1e300 && isfinite(cc) && cc < 1e300 && (cc > 0.0 || !cfree)) ? 0 : -1;
}

/* Parameters → search coordinate of each slot (s_k, s_c for k, c). */
static void value_to_x(const ctx *c, const double value[NP], double *x) {
  double n = value[IMPACTFIT_IDENTIFY_N], m = value[IMPACTFIT_IDENTIFY_M];
  double lnA = log(0.5 * (n + 1.0) * c->massr * c->vr * c->vr);
  double lnd = (lnA - log(value[IMPACTFIT_IDENTIFY_K])) / (n + 1.0);
  for (int j = 0; j < c->nx; j++) {
    switch (c->xslot[j]) {
    case IMPACTFIT_IDENTIFY_N:
      x[j] = n;
      break;
    case IMPACTFIT_IDENTIFY_M:
      x[j] = m;
      break;
    case IMPACTFIT_IDENTIFY_K:
      x[j] = lnd - c->lnL;
      break;
    default:
      x[j] = log(value[IMPACTFIT_IDENTIFY_C]) - log(c->massr * c->vr) + (m + 1.0) * lnd;
      break;
    }
  }
}

/* Fit coordinates u (n, m, ln k, ln c of the free slots) → parameters. */
static int u_to_value(const ctx *c, const double *u, double value[NP]) {
  double n = c->fixedv[IMPACTFIT_IDENTIFY_N], mfree = c->fixedv[IMPACTFIT_IDENTIFY_M];
  double k = c->fixedv[IMPACTFIT_IDENTIFY_K], cc = c->fixedv[IMPACTFIT_IDENTIFY_C];
  for (int j = 0; j < c->nx; j++) {
    switch (c->xslot[j]) {
    case IMPACTFIT_IDENTIFY_N:
      n = u[j];
      break;
    case IMPACTFIT_IDENTIFY_M:
      mfree = u[j];
      break;
    case IMPACTFIT_IDENTIFY_K:
      k = exp(u[j]);
      break;
    default:
      cc = exp(u[j]);
      break;
    }
  }
  value[IMPACTFIT_IDENTIFY_N] = n;
  value[IMPACTFIT_IDENTIFY_M] = model_m(c, n, mfree);
  value[IMPACTFIT_IDENTIFY_K] = k;
  value[IMPACTFIT_IDENTIFY_C] = cc;
  return (n > 0.0 && value[IMPACTFIT_IDENTIFY_M] >= 0.0 && isfinite(k) && k > 0.0 && k < 1e300 && isfinite(cc) &&
          cc < 1e300)
             ? 0
             : -1;
}

static void value_to_u(const ctx *c, const double value[NP], double *u) {
  for (int j = 0; j < c->nx; j++) {
    int s = c->xslot[j];
    u[j] = (s == IMPACTFIT_IDENTIFY_K || s == IMPACTFIT_IDENTIFY_C) ? log(value[s]) : value[s];
  }
}

/* Weighted residuals at the parameters; returns S, or −1 when a row cannot be simulated (then the
 * row's residuals are FAIL_RESIDUAL·w and c->fail_* hold the reason). */
static double residuals(ctx *c, const double value[NP], double *r) {
  int failed = 0;
  for (size_t i = 0; i < c->d->rows; i++) {
    impactfit_identify_row_fit rf;
    impactfit_error e2;
    int st = simulate_row(c->ws->imp, &c->d->row[i], value, c->tr, c->locate, c->rtol, &rf, &e2);
    c->sims++;
    double *ri = r + i * (size_t)c->nq;
    if (st) {
      if (!failed) {
        c->fail_status = st;
        c->fail_err = e2;
      }
      failed = 1;
      for (int j = 0; j < c->nq; j++)
        ri[j] = FAIL_RESIDUAL * c->w[c->q[j]];
      continue;
    }
    for (int j = 0; j < c->nq; j++) {
      double rr = c->q[j] == IMPACTFIT_IDENTIFY_QE ? rf.r_e : c->q[j] == IMPACTFIT_IDENTIFY_QDT ? rf.r_dt : rf.r_fmax;
      ri[j] = c->w[c->q[j]] * rr;
    }
  }
  if (failed)
    return -1.0;
  double S = 0.0;
  for (size_t i = 0; i < c->nres; i++)
    S += r[i] * r[i];
  return S;
}

static double objective(unsigned nx, const double *x, double *grad, void *vc) {
  (void)nx;
  (void)grad;
  ctx *c = vc;
  c->evals++;
  double value[NP];
  double S;
  if (x_to_value(c, x, value))
    S = c->penalty;
  else {
    S = residuals(c, value, c->ws->r0);
    if (S < 0.0 || !isfinite(S))
      S = c->penalty;
  }
  if (S < c->best_S) {
    c->best_S = S;
    memcpy(c->best_x, x, (size_t)c->nx * sizeof *x);
  }
  return S;
}

/* ζ of the reference row that gives its e exactly, for given n, m (inverse solver, 1e-8). */
static int zeta_for_ref(ctx *c, double n, double m, double e, double *zeta) {
  impactfit_inverse_params ip = impactfit_inverse_default_params();
  ip.n = n;
  ip.m = m;
  ip.transition = c->tr;
  ip.tol = 1e-8;
  impactfit_inverse_result res;
  int st = impactfit_inverse_solve(c->ws->inv, &ip, e, 0.0, &res, NULL);
  if (st || !(res.zeta > 0.0))
    return -1;
  c->sims += res.iterations;
  *zeta = res.zeta;
  return 0;
}

/* qsort has no context argument in C11: sort (v, index) pairs instead. */
typedef struct vi {
  double v;
  size_t i;
} vi;
static int cmp_vi(const void *a, const void *b) {
  const vi *x = a, *y = b;
  if (x->v != y->v)
    return x->v < y->v ? -1 : 1;
  return x->i < y->i ? -1 : (x->i > y->i);
}

static void add_warning(impactfit_identify_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_warning(impactfit_identify_result *res, const char *fmt, ...) {
  if (res->nwarn >= IMPACTFIT_IDENTIFY_MAX_WARN)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(res->warning[res->nwarn], sizeof res->warning[0], fmt, ap);
  va_end(ap);
  res->nwarn++;
}

/* long: a flat validation list, one check and one message per parameter */
static int check_params(const impactfit_identify_params *p, impactfit_error *err) {
  if (!p->model || (p->model != impactfit_identify_hc && p->model != impactfit_identify_linear &&
                    p->model != impactfit_identify_zhang))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: unknown model");
  if (!p->transition)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: no transition condition");
  if (!p->global || (p->global != impactfit_identify_global_crs && p->global != impactfit_identify_global_direct &&
                     p->global != impactfit_identify_global_none))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: unknown global method");
  if (!(p->n_lo > 0.0 && p->n_lo < p->n_hi && p->n_hi <= 10.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "identify: bounds of n must satisfy 0 < lo < hi <= 10 (got %.17g, %.17g)", p->n_lo, p->n_hi);
  if (!(p->m_lo >= 0.0 && p->m_lo < p->m_hi && p->m_hi <= 10.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "identify: bounds of m must satisfy 0 <= lo < hi <= 10 (got %.17g, %.17g)", p->m_lo,
                           p->m_hi);
  for (int q = 0; q < NQ; q++)
    if (!(isfinite(p->weight[q]) && p->weight[q] >= 0.0 && p->weight[q] <= 1e6))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: the weight of %s must be in [0, 1e6] (got %.17g)",
                             impactfit_identify_quantity_name(q), p->weight[q]);
  if (!(p->box_factor > 1.0 && p->box_factor <= 1e6))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: box_factor must be in (1, 1e6] (got %.17g)",
                           p->box_factor);
  if (p->global_maxeval < 0 || p->global_maxeval > 10000000 || p->local_maxeval < 1 || p->local_maxeval > 10000000 ||
      p->newton_steps < 0 || p->newton_steps > 100)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "identify: global_maxeval in [0, 1e7], local_maxeval in [1, 1e7], "
                           "newton_steps in [0, 100]");
  if (!(p->xtol > 0.0 && p->xtol <= 0.1))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: xtol must be in (0, 0.1] (got %.17g)", p->xtol);
  if (!(p->ident_tol > 0.0 && p->ident_tol < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: ident_tol must be in (0, 1) (got %.17g)", p->ident_tol);
  if (p->fixed[IMPACTFIT_IDENTIFY_M] && p->model->m_rule != 2)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: m cannot be fixed in the %s model (m = %s)",
                           p->model->name, p->model->m_rule == 0 ? "n" : "0");
  const double *v = p->value;
  if (p->fixed[IMPACTFIT_IDENTIFY_N] && !(isfinite(v[0]) && v[0] > 0.0 && v[0] <= 10.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: fixed n must be in (0, 10] (got %.17g)", v[0]);
  if (p->fixed[IMPACTFIT_IDENTIFY_M] && !(isfinite(v[1]) && v[1] >= 0.0 && v[1] <= 10.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: fixed m must be in [0, 10] (got %.17g)", v[1]);
  if (p->fixed[IMPACTFIT_IDENTIFY_K] && !(isfinite(v[2]) && v[2] > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: fixed k must be finite and > 0 (got %.17g)", v[2]);
  if (p->fixed[IMPACTFIT_IDENTIFY_C] && !(isfinite(v[3]) && v[3] >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: fixed %s must be finite and >= 0 (got %.17g)",
                           p->model->damping_name, v[3]);
  return IMPACTFIT_OK;
}

/* Jacobian of the weighted residuals in the fit coordinates at u (r0 = residuals at u), by central
 * differences (forward three-point where the step would make m negative). J is nres × nx, row
 * major. Returns 0 or the failing simulation's status. */
static int jacobian(ctx *c, const double *u, double *J, impactfit_error *err) {
  double up[NP], value[NP];
  double *ra = c->ws->r1, *rb = c->ws->r2;
  const double *r0 = c->ws->r0;
  for (int j = 0; j < c->nx; j++) {
    double h = FD_STEP;
    int forward = (c->xslot[j] == IMPACTFIT_IDENTIFY_M && u[j] - h < 0.0) ||
                  (c->xslot[j] == IMPACTFIT_IDENTIFY_N && u[j] - h <= 0.0);
    memcpy(up, u, (size_t)c->nx * sizeof *u);
    up[j] = u[j] + h;
    if (u_to_value(c, up, value) || residuals(c, value, ra) < 0.0)
      goto fail;
    up[j] = forward ? u[j] + 2.0 * h : u[j] - h;
    if (u_to_value(c, up, value) || residuals(c, value, rb) < 0.0)
      goto fail;
    for (size_t i = 0; i < c->nres; i++)
      J[i * (size_t)c->nx + (size_t)j] = forward ? (-3.0 * r0[i] + 4.0 * ra[i] - rb[i]) / (2.0 * h)
                                                 : (ra[i] - rb[i]) / (2.0 * h);
  }
  return IMPACTFIT_OK;
fail:
  return IMPACTFIT__FAIL(err, c->fail_status ? c->fail_status : IMPACTFIT_EINVAL,
                         "identify: Jacobian at the optimum: %s",
                         c->fail_status ? c->fail_err.message : "parameters out of range");
}

/* The SVD of the column-scaled Jacobian: sv (absolute, descending), V (nx × nx, column j = right
 * singular vector j), D (column norms, 1 for a zero column). When r is given, also the truncated
 * Gauss–Newton step −D⁻¹ V Σ⁺ Uᵀ r into step. */
static int svd(const ctx *c, const double *J, const double *r, double tol, double *sv, double *V, double *D,
               double *step, impactfit_error *err) {
  size_t nx = (size_t)c->nx, rows = c->nres > nx ? c->nres : nx;
  gsl_matrix *A = gsl_matrix_calloc(rows, nx);
  gsl_matrix *Vm = gsl_matrix_alloc(nx, nx);
  gsl_vector *S = gsl_vector_alloc(nx), *work = gsl_vector_alloc(nx);
  if (!A || !Vm || !S || !work) {
    gsl_matrix_free(A);
    gsl_matrix_free(Vm);
    gsl_vector_free(S);
    gsl_vector_free(work);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "identify: out of memory (SVD)");
  }
  double dmax = 0.0;
  for (size_t j = 0; j < nx; j++) {
    double s = 0.0;
    for (size_t i = 0; i < c->nres; i++)
      s += J[i * nx + j] * J[i * nx + j];
    D[j] = sqrt(s);
    dmax = D[j] > dmax ? D[j] : dmax;
  }
  for (size_t j = 0; j < nx; j++) {
    /* A column at the level of the finite-difference noise (the parameter has no effect) stays
       zero: scaling it to unit norm would turn that noise into an apparently independent column. */
    int dead = !(D[j] > ZERO_COLUMN * dmax);
    if (dead)
      D[j] = 1.0;
    for (size_t i = 0; i < c->nres; i++)
      gsl_matrix_set(A, i, j, dead ? 0.0 : J[i * nx + j] / D[j]);
  }
  int st = gsl_linalg_SV_decomp(A, Vm, S, work);
  if (st == 0) {
    for (size_t j = 0; j < nx; j++) {
      sv[j] = gsl_vector_get(S, j);
      for (size_t i = 0; i < nx; i++)
        V[i * nx + j] = gsl_matrix_get(Vm, i, j);
    }
    if (step && r) {
      for (size_t i = 0; i < nx; i++)
        step[i] = 0.0;
      for (size_t j = 0; j < nx; j++) {
        if (!(sv[j] > tol * sv[0]))
          continue;
        double utr = 0.0;
        for (size_t i = 0; i < c->nres; i++)
          utr += gsl_matrix_get(A, i, j) * r[i];
        for (size_t i = 0; i < nx; i++)
          step[i] -= V[i * nx + j] * utr / sv[j];
      }
      for (size_t i = 0; i < nx; i++)
        step[i] /= D[i];
    }
  }
  gsl_matrix_free(A);
  gsl_matrix_free(Vm);
  gsl_vector_free(S);
  gsl_vector_free(work);
  if (st)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "identify: SVD failed (%s)", gsl_strerror(st));
  return IMPACTFIT_OK;
}

static const char *coord_name(const ctx *c, int slot) {
  switch (slot) {
  case IMPACTFIT_IDENTIFY_N:
    return "n";
  case IMPACTFIT_IDENTIFY_M:
    return "m";
  case IMPACTFIT_IDENTIFY_K:
    return "ln k";
  default:
    return c->p->model->m_rule == 1 ? "ln c" : "ln lambda";
  }
}

static const char *slot_name(const ctx *c, int slot) {
  return slot == IMPACTFIT_IDENTIFY_C ? c->p->model->damping_name : impactfit_identify_param_name(slot);
}

static int run_nlopt(ctx *c, nlopt_algorithm alg, double *x, int maxeval, double xtol, const double *step,
                     impactfit_error *err) {
  nlopt_opt opt = nlopt_create(alg, (unsigned)c->nx);
  if (!opt)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "identify: out of memory (NLopt)");
  nlopt_set_lower_bounds(opt, c->lo);
  nlopt_set_upper_bounds(opt, c->hi);
  nlopt_set_min_objective(opt, objective, c);
  nlopt_set_maxeval(opt, maxeval);
  if (xtol > 0.0)
    nlopt_set_xtol_abs1(opt, xtol);
  if (step)
    nlopt_set_initial_step(opt, step);
  double f;
  nlopt_result r = nlopt_optimize(opt, x, &f);
  nlopt_destroy(opt);
  if (r == NLOPT_OUT_OF_MEMORY)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "identify: NLopt ran out of memory");
  if (r == NLOPT_INVALID_ARGS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "identify: NLopt rejected the problem (invalid arguments)");
  /* Other stops (maxeval, roundoff-limited, failure) keep the best point seen, in c->best_x. */
  return IMPACTFIT_OK;
}

/* The quantities fitted (those with data and a positive weight) and room for their residuals. */
static int setup_quantities(ctx *c, impactfit_identify_result *res, impactfit_error *err) {
  const impactfit_identify_data *d = c->d;
  const impactfit_identify_params *p = c->p;
  for (int q = 0; q < NQ; q++) {
    int have = q == IMPACTFIT_IDENTIFY_QE ||
               (q == IMPACTFIT_IDENTIFY_QDT && (d->columns & IMPACTFIT_IDENTIFY_COL_DT)) ||
               (q == IMPACTFIT_IDENTIFY_QFMAX && (d->columns & IMPACTFIT_IDENTIFY_COL_FMAX));
    if (have && p->weight[q] > 0.0) {
      c->q[c->nq++] = q;
      res->quantities |= 1 << q;
    }
    c->w[q] = p->weight[q];
  }
  if (c->nq == 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: no quantity to fit (every weight is 0)");
  c->locate = (res->quantities >> IMPACTFIT_IDENTIFY_QFMAX) & 1;
  c->nres = d->rows * (size_t)c->nq;
  if (c->nres > (size_t)1 << 30)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: too many residuals");
  return grow_res(c->ws, c->nres, err);
}

/* The free slots (the fit coordinates, in order n, m, k, c) into isfree and c->xslot, the fixed values. */
static int setup_slots(ctx *c, impactfit_identify_result *res, int use_dt, int use_f, int isfree[NP],
                       impactfit_error *err) {
  const impactfit_identify_params *p = c->p;
  isfree[IMPACTFIT_IDENTIFY_N] = !p->fixed[IMPACTFIT_IDENTIFY_N];
  isfree[IMPACTFIT_IDENTIFY_M] = c->m_rule == 2 && !p->fixed[IMPACTFIT_IDENTIFY_M];
  isfree[IMPACTFIT_IDENTIFY_K] = !p->fixed[IMPACTFIT_IDENTIFY_K];
  isfree[IMPACTFIT_IDENTIFY_C] = !p->fixed[IMPACTFIT_IDENTIFY_C];
  for (int s = 0; s < NP; s++) {
    c->fixedv[s] = p->value[s];
    if (isfree[s])
      c->xslot[c->nx++] = s;
    res->free[s] = isfree[s];
  }
  if (c->m_rule == 1)
    c->fixedv[IMPACTFIT_IDENTIFY_M] = 0.0;
  res->nfree = c->nx;
  if (isfree[IMPACTFIT_IDENTIFY_K] && !use_dt && !use_f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "identify: k cannot be identified from e alone (e depends on k and the "
                           "damping only through zeta = c delta_m0^(m+1)/(mass v)): give dt or fmax "
                           "data, or fix k");
  return IMPACTFIT_OK;
}

/* The reference row: the median velocity (ties by row index); *one_velocity when all rows share one v. */
static int pick_reference(ctx *c, impactfit_identify_result *res, int *one_velocity, impactfit_error *err) {
  const impactfit_identify_data *d = c->d;
  vi *order = malloc(d->rows * sizeof *order);
  if (!order)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "identify: out of memory");
  for (size_t i = 0; i < d->rows; i++)
    order[i].v = d->row[i].v, order[i].i = i;
  qsort(order, d->rows, sizeof *order, cmp_vi);
  c->ref = order[(d->rows - 1) / 2].i;
  *one_velocity = order[0].v == order[d->rows - 1].v;
  free(order);
  const impactfit_identify_row *rr = &d->row[c->ref];
  c->vr = rr->v;
  c->massr = rr->mass;
  res->ref_row = (int)c->ref;
  return IMPACTFIT_OK;
}

/* The search box (c->lo, c->hi) in the fit coordinates, from the bounds of n and m, the length scale of
 * the reference row and ζ at the corners of the (n, m) box; the start x and initial steps. */
static void setup_box(ctx *c, const int isfree[NP], int use_dt, int use_f, impactfit_identify_result *res, double x[NP],
                      double step[NP]) {
  const impactfit_identify_params *p = c->p;
  const impactfit_identify_row *rr = &c->d->row[c->ref];
  double nlo = isfree[0] ? p->n_lo : p->value[0], nhi = isfree[0] ? p->n_hi : p->value[0];
  double mlo, mhi;
  if (c->m_rule == 0)
    mlo = nlo, mhi = nhi;
  else if (c->m_rule == 1)
    mlo = mhi = 0.0;
  else
    mlo = isfree[1] ? p->m_lo : p->value[1], mhi = isfree[1] ? p->m_hi : p->value[1];
  double nmid = 0.5 * (nlo + nhi), mmid = c->m_rule == 0 ? nmid : 0.5 * (mlo + mhi);
  double lnB = log(p->box_factor);
  {
    double lnL = 0.0;
    int nl = 0;
    if (use_dt && rr->dt > 0.0)
      lnL += log(rr->v * rr->dt / 3.0), nl++;
    if (use_f && rr->fmax > 0.0)
      lnL += log(0.5 * (nmid + 1.0) * rr->mass * rr->v * rr->v / rr->fmax), nl++;
    c->lnL = nl ? lnL / nl : 0.0;
    res->length_scale = nl ? exp(c->lnL) : 0.0;
  }
  double er = rr->e < 1.0 - 1e-6 ? rr->e : 1.0 - 1e-6;
  double zlo = HUGE_VAL, zhi = 0.0, zmid = 0.0;
  if (isfree[IMPACTFIT_IDENTIFY_C]) {
    double ns[2] = {nlo, nhi}, ms[2] = {mlo, mhi};
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++) {
        double z, m = c->m_rule == 0 ? ns[a] : ms[b];
        if (zeta_for_ref(c, ns[a], m, er, &z) == 0) {
          zlo = z < zlo ? z : zlo;
          zhi = z > zhi ? z : zhi;
        }
      }
    if (zeta_for_ref(c, nmid, mmid, er, &zmid) != 0)
      zmid = 0.0;
    if (!(zhi > 0.0)) /* no corner solvable (not observed under C): a wide default box */
      zlo = 1e-4, zhi = 1e2;
    if (!(zmid > 0.0))
      zmid = sqrt(zlo * zhi);
  }
  for (int j = 0; j < c->nx; j++) {
    switch (c->xslot[j]) {
    case IMPACTFIT_IDENTIFY_N:
      c->lo[j] = p->n_lo, c->hi[j] = p->n_hi, x[j] = nmid;
      break;
    case IMPACTFIT_IDENTIFY_M:
      c->lo[j] = p->m_lo, c->hi[j] = p->m_hi, x[j] = mmid;
      break;
    case IMPACTFIT_IDENTIFY_K:
      c->lo[j] = -lnB, c->hi[j] = lnB, x[j] = 0.0;
      break;
    default:
      c->lo[j] = log(zlo) - lnB, c->hi[j] = log(zhi) + lnB, x[j] = log(zmid);
      break;
    }
    step[j] = 0.05 * (c->hi[j] - c->lo[j]);
  }
  for (int s = 0; s < NP; s++)
    res->box_lo[s] = res->box_hi[s] = 0.0;
  for (int j = 0; j < c->nx; j++)
    res->box_lo[c->xslot[j]] = c->lo[j], res->box_hi[c->xslot[j]] = c->hi[j];
}

/* The search from x: the data-derived start, the global method (unless none), then BOBYQA from the best
 * point seen; value receives the parameters found (the fixed values when nothing is free). */
static int search(ctx *c, impactfit_identify_result *res, double x[NP], double step[NP], double value[NP],
                  impactfit_error *err) {
  const impactfit_identify_params *p = c->p;
  int st;
  double wsum = 0.0;
  for (int j = 0; j < c->nq; j++)
    wsum += c->w[c->q[j]] * c->w[c->q[j]];
  c->penalty = FAIL_RESIDUAL * FAIL_RESIDUAL * wsum * (double)c->d->rows * 10.0;
  c->best_S = HUGE_VAL;
  c->rtol = SEARCH_RTOL;
  if (c->nx == 0) {
    for (int s = 0; s < NP; s++)
      value[s] = c->fixedv[s];
    value[IMPACTFIT_IDENTIFY_M] = model_m(c, value[0], c->fixedv[1]);
    return IMPACTFIT_OK;
  }
  memcpy(c->best_x, x, NP * sizeof *x);
  objective((unsigned)c->nx, x, NULL, c); /* the data-derived start */
  if (p->global != impactfit_identify_global_none) {
    int maxeval = p->global_maxeval ? p->global_maxeval : 30 * (c->nx + 1) * (c->nx + 1);
    if (p->global == impactfit_identify_global_crs)
      nlopt_srand(p->seed);
    double xg[NP];
    memcpy(xg, x, NP * sizeof *x);
    long before = c->evals;
    st = run_nlopt(c, p->global == impactfit_identify_global_crs ? NLOPT_GN_CRS2_LM : NLOPT_GN_DIRECT_L, xg, maxeval,
                   1e-6, NULL, err);
    res->evals_global = c->evals - before;
    if (st)
      return st;
  }
  if (!(c->best_S < c->penalty))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "identify: no point of the search box could be simulated (%s)",
                           c->fail_status ? c->fail_err.message : "parameters out of range");
  memcpy(x, c->best_x, NP * sizeof *x);
  for (int j = 0; j < c->nx; j++) {
    double w = 0.05 * (c->hi[j] - c->lo[j]);
    double room = (x[j] - c->lo[j] > c->hi[j] - x[j]) ? x[j] - c->lo[j] : c->hi[j] - x[j];
    step[j] = w < room ? w : 0.5 * room;
    if (!(step[j] > 0.0))
      step[j] = 1e-3 * (c->hi[j] - c->lo[j]);
  }
  long before = c->evals;
  st = run_nlopt(c, NLOPT_LN_BOBYQA, x, p->local_maxeval, p->xtol, step, err);
  res->evals_local = c->evals - before;
  if (st)
    return st;
  memcpy(x, c->best_x, NP * sizeof *x);
  x_to_value(c, x, value);
  return IMPACTFIT_OK;
}

/* Gauss–Newton refinement of value in the fit coordinates (truncated SVD steps, halved up to three times
 * until the cost decreases), then the Jacobian at the final point (in ws->J, *have_J), with the engine at
 * its full accuracy. *S receives the cost, ws->r0 the residuals at value. */
static int refine(ctx *c, impactfit_identify_result *res, double value[NP], double *S_out, int *have_J,
                  impactfit_error *err) {
  const impactfit_identify_params *p = c->p;
  impactfit_identify_workspace *ws = c->ws;
  int st;
  c->rtol = 0.0;
  double u[NP], ut[NP], gn[NP], sv[NP], V[NP * NP], D[NP];
  double S = residuals(c, value, ws->r0);
  if (S < 0.0)
    return IMPACTFIT__FAIL(err, c->fail_status, "identify: the optimum cannot be simulated: %s", c->fail_err.message);
  value_to_u(c, value, u);
  *have_J = 0;
  if (c->nx > 0) {
    for (int it = 0; it <= p->newton_steps; it++) {
      if ((st = jacobian(c, u, ws->J, err)))
        return st;
      *have_J = 1;
      if (it == p->newton_steps)
        break;
      if ((st = svd(c, ws->J, ws->r0, p->ident_tol, sv, V, D, gn, err)))
        return st;
      int accepted = 0;
      double lam = 1.0;
      for (int tries = 0; tries < 4 && !accepted; tries++, lam *= 0.5) {
        for (int j = 0; j < c->nx; j++) {
          ut[j] = u[j] + lam * gn[j];
          if (c->xslot[j] == IMPACTFIT_IDENTIFY_N)
            ut[j] = ut[j] < p->n_lo ? p->n_lo : (ut[j] > p->n_hi ? p->n_hi : ut[j]);
          if (c->xslot[j] == IMPACTFIT_IDENTIFY_M)
            ut[j] = ut[j] < p->m_lo ? p->m_lo : (ut[j] > p->m_hi ? p->m_hi : ut[j]);
        }
        double vt[NP];
        if (u_to_value(c, ut, vt))
          continue;
        double St = residuals(c, vt, ws->r1);
        if (St >= 0.0 && St < S) {
          accepted = 1;
          S = St;
          memcpy(u, ut, sizeof u);
          memcpy(value, vt, sizeof vt);
          memcpy(ws->r0, ws->r1, c->nres * sizeof *ws->r0);
          res->newton_accepted++;
        }
      }
      if (!accepted)
        break;
    }
  }
  *S_out = S;
  return IMPACTFIT_OK;
}

/* An undetermined direction: singular vector j of the scaled Jacobian (V, D from svd) with a relative
 * singular value below the tolerance. Marks the parameters taking part as not identifiable, stores the
 * direction (largest component positive) and adds a warning that names them. */
static void null_direction(const ctx *c, impactfit_identify_result *res, const double *sv, const double *V,
                           const double *D, size_t j, int one_velocity, const int isfree[NP]) {
  size_t nx = (size_t)c->nx;
  double dir[NP] = {0.0}, norm = 0.0;
  for (size_t a = 0; a < nx; a++) {
    dir[a] = V[a * nx + j] / D[a];
    norm += dir[a] * dir[a];
    if (fabs(V[a * nx + j]) > NULL_COMPONENT)
      res->identifiable[c->xslot[a]] = 0;
  }
  norm = sqrt(norm);
  /* sign: largest component positive */
  size_t big = 0;
  for (size_t a = 1; a < nx; a++)
    if (fabs(dir[a]) > fabs(dir[big]))
      big = a;
  if (dir[big] < 0.0)
    norm = -norm;
  char comb[200] = "", who[120] = "";
  size_t cl = 0, wl = 0;
  int involved = 0;
  for (size_t a = 0; a < nx; a++) {
    res->null_dir[res->n_null][c->xslot[a]] = dir[a] / norm;
    if (fabs(V[a * nx + j]) > NULL_COMPONENT) {
      involved++;
      cl += (size_t)snprintf(comb + cl, sizeof comb - (cl < sizeof comb ? cl : sizeof comb), "%s%+.3g %s",
                             cl ? " " : "", dir[a] / norm, coord_name(c, c->xslot[a]));
      if (cl >= sizeof comb)
        cl = sizeof comb - 1;
      wl += (size_t)snprintf(who + wl, sizeof who - (wl < sizeof who ? wl : sizeof who), "%s%s", wl ? ", " : "",
                             slot_name(c, c->xslot[a]));
      if (wl >= sizeof who)
        wl = sizeof who - 1;
    }
  }
  res->n_null++;
  const char *hint = one_velocity && isfree[IMPACTFIT_IDENTIFY_N] ? "; all impacts have the same velocity" : "";
  double rsv = sv[0] > 0.0 ? sv[j] / sv[0] : 0.0;
  if (involved == 1)
    add_warning(res, "not identifiable: %s has no effect on the fit (relative singular value %.2g < %.2g)%s", who, rsv,
                c->p->ident_tol, hint);
  else
    add_warning(res,
                "not identifiable: %s can change together along (%s) without changing the fit "
                "(relative singular value %.2g < %.2g)%s",
                who, comb, rsv, c->p->ident_tol, hint);
}

/* Standard errors and correlations from the SVD of the Jacobian in ws->J: covariance σ² D⁻¹ V Σ⁺² Vᵀ D⁻¹
 * in the fit coordinates over the determined directions, a warning for each undetermined one. */
static int uncertainty(const ctx *c, impactfit_identify_result *res, const double value[NP], int one_velocity,
                       const int isfree[NP], impactfit_error *err) {
  const impactfit_identify_params *p = c->p;
  double sv[NP], V[NP * NP], D[NP];
  int st;
  if ((st = svd(c, c->ws->J, NULL, p->ident_tol, sv, V, D, NULL, err)))
    return st;
  size_t nx = (size_t)c->nx;
  double s2 = res->sigma * res->sigma;
  double cov[NP][NP];
  memset(cov, 0, sizeof cov);
  for (size_t j = 0; j < nx; j++) {
    res->sv[j] = sv[0] > 0.0 ? sv[j] / sv[0] : 0.0;
    if (sv[j] > p->ident_tol * sv[0] && sv[j] > 0.0) {
      for (size_t a = 0; a < nx; a++)
        for (size_t b = 0; b < nx; b++)
          cov[a][b] += s2 * V[a * nx + j] * V[b * nx + j] / (sv[j] * sv[j]) / (D[a] * D[b]);
      continue;
    }
    null_direction(c, res, sv, V, D, j, one_velocity, isfree);
  }
  for (size_t a = 0; a < nx; a++) {
    int s = c->xslot[a];
    if (!res->identifiable[s]) {
      res->se_fit[s] = res->se[s] = -1.0;
      continue;
    }
    res->se_fit[s] = sqrt(cov[a][a] > 0.0 ? cov[a][a] : 0.0);
    res->se[s] = (s == IMPACTFIT_IDENTIFY_K || s == IMPACTFIT_IDENTIFY_C) ? value[s] * res->se_fit[s] : res->se_fit[s];
    for (size_t b = 0; b < nx; b++) {
      int t = c->xslot[b];
      if (!res->identifiable[t])
        continue;
      double den = sqrt(cov[a][a] * cov[b][b]);
      res->corr[s][t] = a == b ? 1.0 : (den > 0.0 ? cov[a][b] / den : 0.0);
    }
  }
  return IMPACTFIT_OK;
}

/* Warnings on the result: parameters at a bound of the box, no redundancy, poorly determined parameters
 * (when the Jacobian is known), a large misfit. */
static void result_warnings(const ctx *c, impactfit_identify_result *res, const double value[NP], int have_J) {
  const impactfit_identify_params *p = c->p;
  double xf[NP];
  value_to_x(c, value, xf);
  for (int j = 0; j < c->nx; j++) {
    int s = c->xslot[j];
    double w = c->hi[j] - c->lo[j], tolb = 1e-6 * w;
    int lo_hit = xf[j] <= c->lo[j] + tolb, hi_hit = xf[j] >= c->hi[j] - tolb;
    if (!lo_hit && !hi_hit)
      continue;
    res->at_bound[s] = 1;
    if (s == IMPACTFIT_IDENTIFY_N || s == IMPACTFIT_IDENTIFY_M)
      add_warning(res,
                  "%s = %.6g is at its %s bound (bounds [%g, %g]): widen the bounds or fix %s; "
                  "the standard errors assume an interior optimum",
                  slot_name(c, s), value[s], lo_hit ? "lower" : "upper", c->lo[j], c->hi[j], slot_name(c, s));
    else
      add_warning(res,
                  "%s = %.6g is at the %s edge of its search box (box factor %g): check the units of "
                  "the data (v in m/s, dt in s, fmax in N, mass in kg) or widen the box",
                  slot_name(c, s), value[s], lo_hit ? "lower" : "upper", p->box_factor);
  }
  if (c->nx > 0 && res->dof <= 0)
    add_warning(res,
                "no redundancy (%d residuals, %d parameters): the standard errors assume each weight "
                "is 1/sigma of its relative measurement error",
                res->nres, c->nx);
  for (int j = 0; j < c->nx && have_J; j++) {
    int s = c->xslot[j];
    if (!res->identifiable[s] || res->at_bound[s])
      continue;
    int poor = (s == IMPACTFIT_IDENTIFY_N)   ? 2.0 * res->se_fit[s] > p->n_hi - p->n_lo
               : (s == IMPACTFIT_IDENTIFY_M) ? 2.0 * res->se_fit[s] > p->m_hi - p->m_lo
                                             : 2.0 * res->se_fit[s] > log(10.0);
    if (poor)
      add_warning(res, "%s is poorly determined: standard error %.3g%s", slot_name(c, s), res->se_fit[s],
                  (s == IMPACTFIT_IDENTIFY_K || s == IMPACTFIT_IDENTIFY_C) ? " in ln (a factor 10 within 2 SE)"
                                                                           : " (2 SE exceed the bounds' width)");
  }
  if (res->rms > 0.1)
    add_warning(res,
                "the misfit is large (rms weighted relative residual %.3g): the model may not describe "
                "the data, and the standard errors assume a small misfit",
                res->rms);
}

int impactfit_identify_fit(impactfit_identify_workspace *ws, const impactfit_identify_data *d,
                           const impactfit_identify_params *p, impactfit_identify_result *res,
                           impactfit_identify_row_fit *rows_out, impactfit_error *err) {
  if (!ws || !d || !p || !res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: NULL argument");
  memset(res, 0, sizeof *res);
  IMPACTFIT__GSL_SCOPE;
  int st = check_params(p, err);
  if (!st)
    st = impactfit_identify_data_check(d, err);
  if (st)
    return st;

  ctx c;
  memset(&c, 0, sizeof c);
  c.ws = ws;
  c.d = d;
  c.p = p;
  c.tr = p->transition;
  c.m_rule = p->model->m_rule;
  if ((st = setup_quantities(&c, res, err)))
    return st;
  int use_dt = (res->quantities >> IMPACTFIT_IDENTIFY_QDT) & 1;
  int use_f = (res->quantities >> IMPACTFIT_IDENTIFY_QFMAX) & 1;
  int isfree[NP], one_velocity = 0;
  if ((st = setup_slots(&c, res, use_dt, use_f, isfree, err)) || (st = pick_reference(&c, res, &one_velocity, err)))
    return st;
  double x[NP], step[NP], value[NP], S = 0.0;
  setup_box(&c, isfree, use_dt, use_f, res, x, step);
  int have_J = 0;
  if ((st = search(&c, res, x, step, value, err)) || (st = refine(&c, res, value, &S, &have_J, err)))
    return st;
  for (int s = 0; s < NP; s++)
    res->value[s] = value[s];
  res->cost = S;
  res->nres = (int)c.nres;
  res->dof = (int)c.nres - c.nx;
  res->rms = sqrt(S / (double)c.nres);
  res->sigma = res->dof > 0 ? sqrt(S / res->dof) : 1.0;
  for (int s = 0; s < NP; s++)
    res->identifiable[s] = 1;
  if (have_J && (st = uncertainty(&c, res, value, one_velocity, isfree, err)))
    return st;
  result_warnings(&c, res, value, have_J);
  res->simulations = c.sims;
  if (rows_out) {
    if ((st = impactfit_identify_predict(ws, d, value, c.tr, p->weight, rows_out, NULL, err)))
      return st;
    res->simulations += (long)d->rows;
  }
  return IMPACTFIT_OK;
}

/* ---- per-row damping ------------------------------------------------------------------------- */

int impactfit_identify_per_row(impactfit_identify_workspace *ws, const impactfit_identify_data *d, double n, double k,
                               double m, const impactfit_transition *transition, impactfit_identify_row_damping *out,
                               impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!ws || !d || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify per-row: NULL argument");
  if (!(isfinite(n) && n > 0.0 && isfinite(k) && k > 0.0 && isfinite(m) && m >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "identify per-row: need n > 0, k > 0, m >= 0 (got %.17g, %.17g, %.17g)", n, k, m);
  int st = impactfit_identify_data_check(d, err);
  if (st)
    return st;
  const impactfit_transition *tr = transition ? transition : impactfit_transition_C;
  int first = 0;
  for (size_t i = 0; i < d->rows; i++) {
    const impactfit_identify_row *r = &d->row[i];
    impactfit_identify_row_damping *o = &out[i];
    memset(o, 0, sizeof *o);
    impactfit_error e2;
    impactfit_error_clear(&e2);
    impactfit_inverse_params ip = impactfit_inverse_default_params();
    ip.transition = tr;
    ip.n = n;
    impactfit_inverse_result ir;
    double zeta;
    /* Hunt–Crossley */
    if (tr != impactfit_transition_B) {
      double eps;
      st = impactfit_hc_eps(r->e, &eps, &e2);
      if (!st) {
        o->lambda_hc = eps * k / r->v;
        if (!isfinite(o->lambda_hc))
          st = IMPACTFIT__FAIL(&e2, IMPACTFIT_EINVAL, "lambda out of double range");
      }
    } else {
      ip.m = n;
      st = impactfit_inverse_solve(ws->inv, &ip, r->e, 0.0, &ir, &e2);
      if (!st)
        st = impactfit_lambda_from_zeta(n, n, ir.zeta, k, r->mass, r->v, &o->lambda_hc, &e2);
    }
    /* linear damper */
    if (!st) {
      ip.m = 0.0;
      st = impactfit_inverse_solve(ws->inv, &ip, r->e, 0.0, &ir, &e2);
      if (!st)
        st = impactfit_lambda_from_zeta(n, 0.0, ir.zeta, k, r->mass, r->v, &o->c_linear, &e2);
    }
    /* exponent m */
    if (!st) {
      ip.m = m;
      st = impactfit_inverse_solve(ws->inv, &ip, r->e, 0.0, &ir, &e2);
      zeta = ir.zeta;
      if (!st)
        st = impactfit_lambda_from_zeta(n, m, zeta, k, r->mass, r->v, &o->lambda_m, &e2);
      if (!st && r->e < 1.0)
        st = impactfit_zhang_alpha_from_zeta(n, m, r->e, zeta, &o->alpha, NULL, &e2);
    }
    if (st) {
      memset(o, 0, sizeof *o);
      o->status = st;
      if (!first) {
        first = st;
        const char *src = d->source[0] ? d->source : "<data>";
        if (r->line > 0)
          IMPACTFIT__FAIL(err, st, "%s:%d: %s", src, r->line, e2.message);
        else
          IMPACTFIT__FAIL(err, st, "%s: row %zu: %s", src, i, e2.message);
      }
    }
  }
  return first;
}

size_t impactfit_identify_per_row_spread(const impactfit_identify_row_damping *rows, size_t n, double cv[3]) {
  double sum[3] = {0.0, 0.0, 0.0}, sum2[3] = {0.0, 0.0, 0.0};
  size_t ok = 0;
  for (size_t i = 0; i < n; i++) {
    if (rows[i].status)
      continue;
    const double x[3] = {rows[i].lambda_hc, rows[i].c_linear, rows[i].lambda_m};
    for (int j = 0; j < 3; j++)
      sum[j] += x[j], sum2[j] += x[j] * x[j];
    ok++;
  }
  if (ok > 1)
    for (int j = 0; j < 3; j++) {
      double mean = sum[j] / (double)ok, var = sum2[j] / (double)ok - mean * mean;
      cv[j] = mean > 0.0 ? sqrt(var > 0.0 ? var * (double)ok / (double)(ok - 1) : 0.0) / mean : 0.0;
    }
  return ok;
}
