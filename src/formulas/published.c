/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reference table: every published restitution–damping formula impactfit knows of, with its
 * source and model, and the audit that measures it under end conditions A and C
 * (include/impactfit/formulas.h). The formulas themselves live where they are evaluated: the
 * Hunt–Crossley ε(e) objects (formulas.c), the DEM codes' forms (dem.h), the restitution forms
 * (visco.c); this file holds the table and the methods that audit each kind. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/dem.h"
#include "impactfit/formulas.h"
#include "impactfit/hc.h"
#include "impactfit/inverse.h"

/* ---- Zhang et al. 2021, Eqs. (47)–(52) ---- */

static const impactfit_zhang2021_fit zhang2021[] = {
    {2.0, "Eq. (47)", {0.9404, 0.8356, -2.136, 1.363}},  {1.5, "Eq. (48)", {0.6181, -3.52, 0.899, 0.09025}},
    {1.0, "Eq. (49)", {1.514, -14.14, 1.289, -0.2474}},  {0.65, "Eq. (50)", {2.5891, -20.41, 1.417, -0.3188}},
    {0.5, "Eq. (51)", {2.9191, -22.63, 1.468, -0.3505}}, {0.25, "Eq. (52)", {2.911, -23.87, 1.517, -0.356}},
};

size_t impactfit_zhang2021_fit_count(void) { return sizeof zhang2021 / sizeof zhang2021[0]; }

const impactfit_zhang2021_fit *impactfit_zhang2021_fit_at(size_t i) {
  return i < impactfit_zhang2021_fit_count() ? &zhang2021[i] : NULL;
}

double impactfit_zhang2021_alpha(const impactfit_zhang2021_fit *f, double e) {
  const double *c = f->c;
  if (f == &zhang2021[0])
    return ((c[3] * e + c[2]) * e + c[1]) * e + c[0];
  return c[0] * exp(c[1] * e) + c[2] * exp(c[3] * e);
}

/* ---- the methods ---- */

/* One audit point: |Δe| at the exact e, the formula's variable there, the exponents and the load. */
typedef struct point {
  double d, e, var, gtil, n, m;
} point;

typedef struct acc {
  impactfit_published_audit_row *row;
  double sum;
  double tol; /* valid_tol */
  point *pts; /* every point, to find e_valid case by case */
  size_t npts, cap;
} acc;

static void acc_add(acc *a, const point *p) {
  impactfit_published_audit_row *r = a->row;
  a->sum += p->d;
  if (a->npts < a->cap)
    a->pts[a->npts++] = *p;
  r->points++;
  if (p->d > r->max || r->points == 1) {
    r->max = p->d;
    r->e_at_max = p->e;
    r->var_at_max = p->var;
    r->gtil_at_max = p->gtil;
    r->n_at_max = p->n;
    r->m_at_max = p->m;
  }
}

/* A failure to separate: e_real = 0, so |Δe| is the formula's e (counted as a failure). */
static void acc_nosep(acc *a, point *p) {
  a->row->failures++;
  acc_add(a, p);
}

typedef struct audit_ctx {
  impactfit_impact_workspace *ws;
  impactfit_inverse_workspace *iws;
  const impactfit_transition *tr;
  const impactfit_published_audit_params *p;
  const impactfit_published *f;
  acc a;
} audit_ctx;

struct impactfit_published_method {
  const char *name;
  int (*audit)(audit_ctx *c, impactfit_error *err);
};

static double grid_e(const impactfit_published_audit_params *p, size_t i) {
  return (p->points == 1) ? p->e_min : p->e_min + (p->e_max - p->e_min) * (double)i / (double)(p->points - 1);
}

/* Simulates the scaled impact (n, m, ζ) with a constant load (scaled acceleration) under the
 * audit's transition: 0 and *e_out, 1 when the bodies do not separate (ENOSEP), or the engine's
 * failure status (negative, err filled). With a load under C the body leaves the element at
 * δ_sep > 0 and then flies against the load to δ = 0: the restitution there (where condition A and
 * Chatterjee et al. measure it) is √(e_out² − 2 accel δ_sep) in the scaled units (v = δ_m0 = 1);
 * when the load turns the body back before δ = 0 it never rebounds: 1 as for no separation. */
static int simulate(audit_ctx *c, double n, double m, double zeta, double accel, double *e_out, impactfit_error *err) {
  impactfit_impact_params ip = impactfit_impact_scaled_params(n, m, zeta);
  ip.transition = c->tr;
  ip.locate_extrema = 0;
  ip.accel = accel;
  impactfit_impact_result r;
  impactfit_error e2;
  int st = impactfit_impact_solve(c->ws, &ip, &r, &e2);
  if (st == IMPACTFIT_ENOSEP)
    return 1;
  if (st) {
    if (err)
      *err = e2;
    return st;
  }
  if (accel > 0.0 && c->tr == impactfit_transition_C) {
    double q = r.e_out * r.e_out - 2.0 * accel * r.delta_sep;
    if (!(q > 0.0))
      return 1;
    *e_out = sqrt(q);
  } else
    *e_out = r.e_out;
  return 0;
}

/* Records the point of a formula that gives damping for a target e: e_real simulated (or exact). */
static int record_damping(audit_ctx *c, double e, int sim, double e_real, double var, double n, double m) {
  point pt = {.d = 0, .e = e, .var = var, .gtil = 0.0, .n = n, .m = m};
  if (sim == 1) {
    pt.d = e;
    acc_nosep(&c->a, &pt);
  } else {
    pt.d = fabs(e_real - e);
    acc_add(&c->a, &pt);
  }
  return 0;
}

/* eps(e): a Hunt–Crossley formula of formulas.h; λ = ε with k = mass = v = 1 (n = m = 3/2; e_out
 * does not depend on n). */
static int audit_eps(audit_ctx *c, impactfit_error *err) {
  const impactfit_formula *f = impactfit_formula_from_name(c->f->data);
  if (!f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no formula '%s'", (const char *)c->f->data);
  for (size_t i = 0; i < c->p->points; i++) {
    double e = grid_e(c->p, i), eps, eo = 0.0;
    int st = impactfit_formula_eps(f, e, &eps, err);
    if (st)
      return st;
    /* scaled problem: k = (n+1)/2, mass = v = 1, δ_m0 = 1: ζ = λ δ_m0^(n+1)/(mass v) and
     * ε = λ v/k, so ζ = K ε */
    int s = simulate(c, 1.5, 1.5, 1.25 * eps, 0.0, &eo, err);
    if (s < 0)
      return s;
    record_damping(c, e, s, eo, NAN, 1.5, 1.5);
  }
  return 0;
}

/* dem: a DEM code's form of dem.h, through its own audit. */
static int audit_dem(audit_ctx *c, impactfit_error *err) {
  const impactfit_dem_formula *f = impactfit_dem_formula_from_name(c->f->data);
  if (!f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no DEM formula '%s'", (const char *)c->f->data);
  for (size_t i = 0; i < c->p->points; i++) {
    double e = grid_e(c->p, i), z, eo = 0.0;
    int st = impactfit_dem_zeta(f, e, &z, err);
    if (st)
      return st;
    int s;
    if (!f->hunt_crossley && fabs(f->m - 0.5 * (f->n - 1.0)) < 1e-15) {
      impactfit_error e2;
      st = impactfit_scale_invariant_e(f->n, z, c->tr, &eo, &e2);
      s = (st == IMPACTFIT_ENOSEP) ? 1 : st ? -1 : 0;
      if (s < 0) {
        if (err)
          *err = e2;
        return st;
      }
    } else if ((s = simulate(c, f->n, f->m, z, 0.0, &eo, err)) < 0)
      return s;
    record_damping(c, e, s, eo, NAN, f->n, f->m);
  }
  return 0;
}

/* prefactor: c = a(e) √(mass k) with m = (n − 1)/2 at the listed n; e_real from the exact closed
 * form (inverse.h), no simulation. */
typedef struct prefactor {
  double (*a)(double e, double n);
  size_t nn;
  double n[3];
} prefactor;

static int audit_prefactor(audit_ctx *c, impactfit_error *err) {
  const prefactor *pf = c->f->data;
  for (size_t j = 0; j < pf->nn; j++)
    for (size_t i = 0; i < c->p->points; i++) {
      double n = pf->n[j], e = grid_e(c->p, i), eo = 0.0, a = pf->a(e, n);
      impactfit_error e2;
      int st = impactfit_scale_invariant_e(n, a * sqrt(0.5 * (n + 1.0)), c->tr, &eo, &e2);
      if (st && st != IMPACTFIT_ENOSEP) {
        if (err)
          *err = e2;
        return st;
      }
      record_damping(c, e, st ? 1 : 0, eo, NAN, n, 0.5 * (n - 1.0));
    }
  return 0;
}

/* copt: Poursina & Nikravesh 2020, Eq. (49) with α(n), β(n) of Eqs. (46)–(47), m = 0, at
 * n = 1 … 2: c for k = mass = v = 1, then ζ = c δ_m0/(mass v). */
static int audit_copt(audit_ctx *c, impactfit_error *err) {
  static const double ns[] = {1.0, 1.25, 1.5, 1.75, 2.0};
  const impactfit_copt_formula *pf = impactfit_copt_formula_poursina2020;
  for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
    for (size_t i = 0; i < c->p->points; i++) {
      double n = ns[j], e = grid_e(c->p, i), eo = 0.0;
      double cc = impactfit_copt_closed_c(impactfit_copt_formula_alpha(pf, n), impactfit_copt_formula_beta(pf, n), n, e,
                                          1.0, 1.0, 1.0);
      /* ζ = c δ_m0/(mass v) with δ_m0 = ((n+1)/2)^(1/(n+1)) for k = mass = v = 1 */
      double zeta = cc * pow(0.5 * (n + 1.0), 1.0 / (n + 1.0));
      int s = simulate(c, n, 0.0, zeta, 0.0, &eo, err);
      if (s < 0)
        return s;
      record_damping(c, e, s, eo, NAN, n, 0.0);
    }
  return 0;
}

/* zhang2021: α(e) of Eqs. (47)–(52), λ from Eq. (53), n = 3/2, in the scaled problem
 * ζ = 3(1 − e)(m + 1) e^(−(m+1)/(n+1))/(4α) (inverse.h). */
static int audit_zhang2021(audit_ctx *c, impactfit_error *err) {
  for (size_t j = 0; j < impactfit_zhang2021_fit_count(); j++) {
    const impactfit_zhang2021_fit *f = impactfit_zhang2021_fit_at(j);
    for (size_t i = 0; i < c->p->points; i++) {
      double e = grid_e(c->p, i), eo = 0.0, al = impactfit_zhang2021_alpha(f, e);
      double zeta = 0.75 * (1.0 - e) * (f->m + 1.0) * pow(e, -(f->m + 1.0) / 2.5) / al;
      int s = simulate(c, 1.5, f->m, zeta, 0.0, &eo, err);
      if (s < 0)
        return s;
      record_damping(c, e, s, eo, NAN, 1.5, f->m);
    }
  }
  return 0;
}

/* The exact ζ of every grid e for (n, m) under the audit's transition (continuation run); st[i] 0
 * where solved. */
static int exact_zetas(audit_ctx *c, double n, double m, double *zeta, int *st, impactfit_error *err) {
  size_t np = c->p->points;
  double *es = malloc(np * sizeof *es);
  impactfit_inverse_result *res = malloc(np * sizeof *res);
  if (!es || !res) {
    free(es);
    free(res);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  /* from e near 1 down: the continuation follows ζ from 0 */
  for (size_t i = 0; i < np; i++)
    es[i] = grid_e(c->p, np - 1 - i);
  impactfit_inverse_params ip = impactfit_inverse_default_params();
  ip.n = n;
  ip.m = m;
  ip.transition = c->tr;
  ip.surrogate_guess = 0;
  int *s2 = malloc(np * sizeof *s2);
  if (!s2) {
    free(es);
    free(res);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  impactfit_error e2;
  impactfit_inverse_solve_run(c->iws, &ip, es, np, res, s2, &e2);
  for (size_t i = 0; i < np; i++) {
    zeta[np - 1 - i] = res[i].zeta;
    st[np - 1 - i] = s2[i];
  }
  (void)err;
  free(es);
  free(res);
  free(s2);
  return 0;
}

/* visco-series: e(x) of the Pöschel group against the exact e at x = ζ/(5/4)^(3/5). */
static int audit_visco(audit_ctx *c, impactfit_error *err) {
  int order = *(const int *)c->f->data;
  size_t np = c->p->points;
  double *z = malloc(np * sizeof *z);
  int *st = malloc(np * sizeof *st);
  if (!z || !st) {
    free(z);
    free(st);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  int rc = exact_zetas(c, 1.5, 0.5, z, st, err);
  for (size_t i = 0; !rc && i < np; i++) {
    if (st[i]) {
      c->a.row->failures++;
      continue;
    }
    double e = grid_e(c->p, i), x = impactfit_visco_x_from_zeta(z[i]);
    point pt = {.d = fabs(impactfit_visco_e_series(order, x) - e), .e = e, .var = x, .gtil = 0.0, .n = 1.5, .m = 0.5};
    acc_add(&c->a, &pt);
  }
  free(z);
  free(st);
  return rc;
}

/* cjb: Chatterjee, James & Brogliato, at (α, β) = (3/2, 3/2), (3/2, 1), (1, 1) (order 3: (3/2, 3/2)
 * only); unloaded against the exact e of the inverse solver, loaded (g̃ of the parameters) against
 * simulations at the same γ. */
static int audit_cjb(audit_ctx *c, impactfit_error *err) {
  static const double ab[3][2] = {{1.5, 1.5}, {1.5, 1.0}, {1.0, 1.0}};
  int order = *(const int *)c->f->data;
  size_t np = c->p->points, ncase = (order == 3) ? 1 : 3;
  double *z = malloc(np * sizeof *z);
  int *st = malloc(np * sizeof *st);
  if (!z || !st) {
    free(z);
    free(st);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  int rc = 0;
  for (size_t k = 0; k < ncase && !rc; k++) {
    double al = ab[k][0], be = ab[k][1], n = al, m = be - 1.0, K = 0.5 * (al + 1.0);
    if ((rc = exact_zetas(c, n, m, z, st, err)))
      break;
    for (int loaded = 0; loaded < 2 && !rc; loaded++) {
      if (loaded && !(c->p->gtil > 0.0))
        break;
      for (size_t i = 0; i < np && !rc; i++) {
        if (st[i]) {
          c->a.row->failures++;
          continue;
        }
        impactfit_impact_params ip = impactfit_impact_scaled_params(n, m, z[i]);
        /* their g̃ = K^(−1/(α+1)) accel for k = K, mass = v = 1 */
        ip.accel = loaded ? c->p->gtil * pow(K, 1.0 / (al + 1.0)) : 0.0;
        double gam, gt, ef, ereal = grid_e(c->p, i);
        if ((rc = impactfit_cjb_scaled(&ip, &gam, &gt, err)))
          break;
        if (loaded) {
          int s = simulate(c, n, m, z[i], ip.accel, &ereal, err);
          if (s < 0) {
            rc = s;
            break;
          }
          if (s == 1)
            ereal = 0.0;
        }
        if ((rc = impactfit_cjb_e(order, al, be, gam, gt, &ef, err)))
          break;
        point pt = {.d = fabs(ef - ereal), .e = ereal, .var = gam, .gtil = gt, .n = n, .m = m};
        if (loaded && ereal == 0.0)
          acc_nosep(&c->a, &pt);
        else
          acc_add(&c->a, &pt);
      }
    }
  }
  free(z);
  free(st);
  return rc;
}

/* lambert: Carvalho & Martins' closed form against the allocation-free solver of hc.h. */
static int audit_lambert(audit_ctx *c, impactfit_error *err) {
  for (size_t i = 0; i < c->p->points; i++) {
    double e = grid_e(c->p, i), eps, el, ex;
    int st = impactfit_hc_eps(e, &eps, err);
    if (!st)
      st = impactfit_hc_e_lambert(eps, &el, err);
    if (!st)
      st = impactfit_hc_e(eps, &ex, err);
    if (st)
      return st;
    point pt = {.d = fabs(el - ex), .e = ex, .var = eps, .gtil = 0.0, .n = NAN, .m = NAN};
    acc_add(&c->a, &pt);
  }
  return 0;
}

static const impactfit_published_method m_eps = {"eps(e)", audit_eps};
static const impactfit_published_method m_dem = {"dem", audit_dem};
static const impactfit_published_method m_prefactor = {"prefactor", audit_prefactor};
static const impactfit_published_method m_copt = {"copt", audit_copt};
static const impactfit_published_method m_zhang2021 = {"zhang2021", audit_zhang2021};
static const impactfit_published_method m_visco = {"visco-series", audit_visco};
static const impactfit_published_method m_cjb = {"cjb", audit_cjb};
static const impactfit_published_method m_lambert = {"lambert", audit_lambert};

/* ---- the data of the entries ---- */

static double xi_tensile(double e) { return impactfit_kv_damping_ratio(e); } /* the half-period inverse (A) */

static double a_feng(double e, double n) { return sqrt(2.0 * (n + 1.0)) * xi_tensile(e); }

static double a_norouzi(double e, double n) {
  (void)n;
  double L = log(e);
  return 2.2664 * fabs(L) / sqrt(10.1354 + L * L);
}

static double a_kv_clamped(double e, double n) {
  (void)n;
  double xi = 0.0;
  impactfit_dem_damping_ratio(e, 1, &xi, NULL);
  return 2.0 * xi;
}

static const prefactor pf_feng = {a_feng, 3, {1.0, 1.5, 2.0}};
static const prefactor pf_norouzi = {a_norouzi, 1, {1.5}};
static const prefactor pf_kv = {a_kv_clamped, 1, {1.0}};
static const int order1 = 1, order2 = 2, order3 = 3;

#define HC_MODEL "m = n (Hunt-Crossley), any n"
#define HC_ALT "impactfit hc-eps --e E (exact; --k --v for lambda)"
#define NOT_FOUND NULL, NULL

static const impactfit_published table[] = {
    /* ---- Hunt–Crossley family ---- */
    {.name = "hunt-crossley",
     .authors = "Hunt & Crossley",
     .year = 1975,
     .reference = "Coefficient of restitution interpreted as damping in vibroimpact, J. Appl. Mech. 42 (1975) 440-445",
     .doi = "10.1115/1.3423596",
     .equation = "quoted as Eq. (13) by Poursina & Nikravesh 2020",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "e near 1",
     .expression = "eps = 3(1-e)/2",
     .claimed = "",
     .claimed_max = NAN,
     .found = "seed paper 000 (Poursina & Nikravesh 2020, Eq. 13)",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "hunt-crossley"},
    {.name = "herbert-mcwhannell",
     .authors = "Herbert & McWhannell",
     .year = 1977,
     .reference = "Shape and frequency composition of pulses from an impact pair, J. Eng. Ind. 99 (1977) 513-518",
     .doi = "10.1115/1.3439270",
     .equation = "not seen (paper not available here)",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "",
     .expression = "eps = 6(1-e)/((2e-1)^2+3)",
     .claimed = "",
     .claimed_max = NAN,
     .found = "L. Skrinjar's implementation of the models of Machado et al. 2012 (contact_model.py of his MBD_system "
              "code)",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "herbert-mcwhannell"},
    {.name = "lee-wang",
     .authors = "Lee & Wang",
     .year = 1983,
     .reference = "On the dynamics of intermittent-motion mechanisms, Part 1, J. Mech. Transm. Autom. Des. 105 (1983) "
                  "534-540",
     .doi = "",
     .equation = "not seen (paper not available here)",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "",
     .expression = "eps = 3(1-e)/4",
     .claimed = "",
     .claimed_max = NAN,
     .found = "L. Skrinjar's implementation of the models of Machado et al. 2012 (contact_model.py)",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "lee-wang"},
    {.name = "lankarani-nikravesh",
     .authors = "Lankarani & Nikravesh",
     .year = 1990,
     .reference = "A contact force model with hysteresis damping for impact analysis of multibody systems, J. Mech. "
                  "Des. 112 "
                  "(1990) 369-376",
     .doi = "10.1115/1.2912617",
     .equation = "quoted as Eq. (14) by Poursina & Nikravesh 2020",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "e near 1",
     .expression = "eps = 3(1-e^2)/4",
     .claimed = "",
     .claimed_max = NAN,
     .found = "seed paper 000 (Eq. 14)",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "lankarani-nikravesh"},
    {.name = "gonthier",
     .authors = "Gonthier et al.",
     .year = 2004,
     .reference = "A regularized contact model with asymmetric damping and dwell-time dependent friction, Multibody "
                  "Syst. Dyn. 11 "
                  "(2004) 209-233",
     .doi = "10.1023/B:MUBO.0000029392.21648.bc",
     .equation = "their approximation d = 1 - e^2 of Eqs. (18)-(19) of "
                 "Poursina & Nikravesh 2020",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "",
     .expression = "eps = (1-e^2)/e",
     .claimed = "",
     .claimed_max = NAN,
     .found = "L. Skrinjar's implementation (d = 1 - c_r^2, ksi = d/c_r); the exact relation in seed paper 000, Eqs. "
              "18-19",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "gonthier"},
    {.name = "zhiying-qishao",
     .authors = "Zhiying & Qishao",
     .year = 2006,
     .reference = "Analysis of impact process based on restitution coefficient, J. Dyn. Control 4 (2006) 294-298",
     .doi = "",
     .equation = "not seen (paper not available here)",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "",
     .expression = "eps = 3(1-e^2) exp(2(1-e))/4",
     .claimed = "",
     .claimed_max = NAN,
     .found = "L. Skrinjar's implementation of the models of Machado et al. 2012 (contact_model.py)",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "zhiying-qishao"},
    {.name = "flores",
     .authors = "Ye, Li & Zhu; Flores et al.",
     .year = 2011,
     .reference = "Flores, Machado, Silva, Martins, On the continuous contact force models for soft materials in "
                  "multibody "
                  "dynamics, Multibody Syst. Dyn. 25 (2011) 357-375; Ye, Li, Zhu, Earthq. Eng. Struct. Dyn. 38 (2009) "
                  "1135-1142",
     .doi = "10.1007/s11044-010-9237-4",
     .equation = "quoted as Eq. (16) by Poursina & Nikravesh 2020",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "",
     .expression = "eps = 8(1-e)/(5e)",
     .claimed = "57.617 % max error in eps (quoted by Ramaswamy & Humbert)",
     .claimed_max = NAN,
     .found = "seed paper 000 (Eq. 16)",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "flores"},
    {.name = "gharib-hurmuzlu",
     .authors = "Gharib & Hurmuzlu",
     .year = 2012,
     .reference = "A new contact force model for low coefficient of restitution impact, J. Appl. Mech. 79 (2012) "
                  "064506",
     .doi = "10.1115/1.4006494",
     .equation = "not seen",
     .model = HC_MODEL,
     .end = "-",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "form not found: searched the seed papers (cited by Zhang et al. 2021, Table 1, lost in the text "
              "extraction), "
              "public code (the names appear in plotting scripts only) and web pages (the paper's first page only)",
     .alternative = HC_ALT,
     .method = NOT_FOUND},
    {.name = "khatiwada",
     .authors = "Khatiwada et al.",
     .year = 2014,
     .reference = "(reference not found)",
     .doi = "",
     .equation = "not seen",
     .model = HC_MODEL,
     .end = "-",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "form not found: searched public code and web pages by name and by the reviews",
     .alternative = HC_ALT,
     .method = NOT_FOUND},
    {.name = "hu-guo",
     .authors = "Hu & Guo",
     .year = 2015,
     .reference = "A dissipative contact force model for impact analysis in multibody dynamics, Multibody Syst. Dyn. "
                  "35 (2015) "
                  "131-151",
     .doi = "10.1007/s11044-015-9453-z",
     .equation = "quoted as Eq. (15) by Poursina & Nikravesh 2020",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "",
     .expression = "eps = 3(1-e)/(2e)",
     .claimed = "47.768 % max error in eps (quoted by Ramaswamy & Humbert)",
     .claimed_max = NAN,
     .found = "seed paper 000 (Eq. 15)",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "hu-guo"},
    {.name = "carvalho-martins",
     .authors = "Carvalho & Martins",
     .year = 2019,
     .reference = "Exact restitution and generalizations for the Hunt-Crossley contact model, Mech. Mach. Theory "
                  "(2019)",
     .doi = "",
     .equation = "not seen; e(eps) = (1 + W0(-(1+eps) exp(-(1+eps))))/eps derived here from the exact relation",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "0 < e <= 1",
     .expression = "e = (1 + W0(-(1+eps) e^-(1+eps)))/eps (Lambert W)",
     .claimed = "exact",
     .claimed_max = 1e-9,
     .found = "derived from the exact relation (seed paper 000, Eqs. 18-19)",
     .alternative = HC_ALT,
     .method = &m_lambert,
     .data = NULL},
    {.name = "carvalho-martins-inverse",
     .authors = "Carvalho & Martins",
     .year = 2019,
     .reference = "their approximate inverse eps(e)",
     .doi = "",
     .equation = "not seen",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "form not found: the paper is not available here and no public code implements it",
     .alternative = HC_ALT,
     .method = NOT_FOUND},
    {.name = "zhang-2020",
     .authors = "Zhang et al.",
     .year = 2020,
     .reference = "A continuous contact force model for impact analysis in multibody dynamics, Mech. Mach. Theory 153 "
                  "(2020) "
                  "103946",
     .doi = "10.1016/j.mechmachtheory.2020.103946",
     .equation = "as written in Zhang et al. 2021, Eqs. (48), (53)",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "",
     .expression = "eps = 3(1-e)/(2 alpha e), alpha(e) of Zhang et al. 2021 Eq. (48)",
     .claimed = "",
     .claimed_max = NAN,
     .found = "seed paper 001 (Eqs. 48, 53)",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "zhang-2020"},
    {.name = "ramaswamy-humbert",
     .authors = "Ramaswamy & Humbert",
     .year = 0,
     .reference = "A continuous contact force model for highly damped impacts of arbitrary material and geometry "
                  "(extended "
                  "abstract)",
     .doi = "",
     .equation = "Eq. (6)",
     .model = HC_MODEL,
     .end = "A = C",
     .range = "0.01 <= e <= 1",
     .expression = "Eq. (6), alpha = 1.381, beta = 0.451",
     .claimed = "0.062 % max error in eps",
     .claimed_max = NAN,
     .found = "seed paper 002 (Eq. 6)",
     .alternative = HC_ALT,
     .method = &m_eps,
     .data = "ramaswamy-humbert"},
    {.name = "safaeifar-karimpour",
     .authors = "Safaeifar & Karimpour",
     .year = 2022,
     .reference = "(reference not found)",
     .doi = "",
     .equation = "not seen",
     .model = HC_MODEL,
     .end = "-",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "form not found: searched public code and web pages",
     .alternative = HC_ALT,
     .method = NOT_FOUND},
    /* ---- linear damper (m = 0) ---- */
    {.name = "kv-clamped",
     .authors = "Butcher & Segalman; Schwager & Poschel",
     .year = 2007,
     .reference = "Schwager, Poschel, Coefficient of restitution and linear-dashpot model revisited, Granular Matter 9 "
                  "(2007) "
                  "465-469; Butcher, Segalman, J. Appl. Mech. 67 (2000) 831-834",
     .doi = "10.1007/s10035-007-0065-z",
     .equation = "quoted by Poursina & Nikravesh 2020, Eq. (55), xi < 1 branch",
     .model = "n = 1, m = 0 (Kelvin-Voigt)",
     .end = "C",
     .range = "",
     .expression = "e = exp(-2 xi acos(xi)/sqrt(1-xi^2)), inverted exactly",
     .claimed = "exact",
     .claimed_max = 1e-9,
     .found = "seed paper 000 (Eq. 55; its xi > 1 branch is wrong, see topic copt)",
     .alternative = "impactfit dem-audit --write-header (dem_damping.h, linear clamped)",
     .method = &m_prefactor,
     .data = &pf_kv},
    {.name = "poursina-nikravesh",
     .authors = "Poursina & Nikravesh",
     .year = 2020,
     .reference = "Optimal damping coefficient for a class of continuous contact models, Multibody Syst. Dyn. 50 "
                  "(2020) 169-195",
     .doi = "10.1007/s11044-020-09746-y",
     .equation = "Eqs. (46), (47), (49)",
     .model = "m = 0, 1 <= n <= 2",
     .end = "C",
     .range = "0.45 <= e <= 1, 1 <= n <= 2",
     .expression = "c = alpha(n) (e^beta(n) - 1) [k v^(n-1) mass^n]^(1/(n+1))",
     .claimed = "",
     .claimed_max = NAN,
     .found = "seed paper 000",
     .alternative = "impactfit copt; generated/copt_surrogate.h",
     .method = &m_copt,
     .data = NULL},
    {.name = "zhang-2021",
     .authors = "Zhang et al.",
     .year = 2021,
     .reference = "Continuous contact force model with an arbitrary damping term exponent, Mech. Syst. Signal Process. "
                  "159 (2021) "
                  "107808",
     .doi = "10.1016/j.ymssp.2021.107808",
     .equation = "Eqs. (47)-(53)",
     .model = "n = 3/2, m = 2, 1.5, 1, 0.65, 0.5, 0.25",
     .end = "C",
     .range = "0.01 <= e <= 0.99",
     .expression = "lambda of Eq. (53) with alpha(e) of Eqs. (47)-(52)",
     .claimed = "",
     .claimed_max = NAN,
     .found = "seed paper 001",
     .alternative = "impactfit zhang-alpha; generated/zhang_c_surrogate.h",
     .method = &m_zhang2021,
     .data = NULL},
    /* ---- m = (n − 1)/2 ---- */
    {.name = "antypov-elliott",
     .authors = "Antypov & Elliott",
     .year = 2011,
     .reference = "On an analytical solution for the damped Hertzian spring, EPL 94 (2011) 50004",
     .doi = "10.1209/0295-5075/94/50004",
     .equation = "Eq. (17) as cited in YADE's HertzMindlin.cpp",
     .model = "n = 3/2, m = 1/4",
     .end = "A",
     .range = "0 < e <= 1",
     .expression = "c = sqrt(5) |ln e| sqrt(mass k)/sqrt(ln^2 e + pi^2)",
     .claimed = "exact",
     .claimed_max = 1e-9,
     .found = "YADE HertzMindlin.cpp (cites [Antypov2011] eq. 17); LIGGGHTS, Chrono, LAMMPS (dem.h: hertz-beta)",
     .alternative = "impactfit dem; generated/dem_damping.h",
     .method = &m_dem,
     .data = "hertz-beta"},
    {.name = "feng",
     .authors = "Feng",
     .year = 2026,
     .reference = "Exact phase-space analytical solution for the power-law damped contact oscillator, arXiv:2603.27764",
     .doi = "10.48550/arXiv.2603.27764",
     .equation = "abstract",
     .model = "m = (n-1)/2, any n >= 1",
     .end = "A",
     .range = "0 < e <= 1",
     .expression = "c = sqrt(2(n+1)) |ln e| sqrt(mass k)/sqrt(pi^2 + ln^2 e)",
     .claimed = "exact",
     .claimed_max = 1e-9,
     .found = "the paper's abstract (arXiv)",
     .alternative = "impactfit_dem_exact_prefactor (dem.h); generated/dem_damping.h",
     .method = &m_prefactor,
     .data = &pf_feng},
    {.name = "norouzi",
     .authors = "Norouzi et al.",
     .year = 2016,
     .reference = "Coupled CFD-DEM Modeling: Formulation, Implementation and Application to Multiphase Flows, Wiley "
                  "(2016)",
     .doi = "",
     .equation = "not seen",
     .model = "n = 3/2, m = 1/4",
     .end = "-",
     .range = "",
     .expression = "c = 2.2664 |ln e| sqrt(mass k)/sqrt(10.1354 + ln^2 e)",
     .claimed = "",
     .claimed_max = NAN,
     .found = "DEMLab ContactForceN_ViscoElasticNonlinear.m (damping formula TTI, force clamped at zero), "
              "rlrangel/DEMLab",
     .alternative = "impactfit dem; generated/dem_damping.h",
     .method = &m_prefactor,
     .data = &pf_norouzi},
    {.name = "tsuji",
     .authors = "Tsuji et al.",
     .year = 1992,
     .reference = "Lagrangian numerical simulation of plug flow of cohesionless particles in a horizontal pipe, Powder "
                  "Technol. "
                  "71 (1992) 239-250",
     .doi = "10.1016/0032-5910(92)88030-L",
     .equation = "the polynomial LAMMPS uses (dem.h)",
     .model = "n = 3/2, m = 1/4",
     .end = "-",
     .range = "",
     .expression = "c = sqrt(2) (1.2728 - 4.2783 e + ... + 4.8218 e^6) sqrt(mass k) (LAMMPS's fit)",
     .claimed = "",
     .claimed_max = NAN,
     .found = "LAMMPS pair granular damping tsuji (dem.h)",
     .alternative = "impactfit dem --code lammps",
     .method = &m_dem,
     .data = "tsuji"},
    {.name = "linear-log",
     .authors = "linear spring-dashpot (classic)",
     .year = 0,
     .reference = "the damped oscillator's half period; MFiX, LAMMPS hooke",
     .doi = "",
     .equation = "-",
     .model = "n = 1, m = 0",
     .end = "A",
     .range = "0 < e <= 1",
     .expression = "c = 2 |ln e| sqrt(mass k)/sqrt(pi^2 + ln^2 e)",
     .claimed = "exact",
     .claimed_max = 1e-9,
     .found = "dem.h: linear-log",
     .alternative = "impactfit dem; generated/dem_damping.h",
     .method = &m_dem,
     .data = "linear-log"},
    /* ---- viscoelastic spheres ---- */
    {.name = "kuwabara-kono",
     .authors = "Kuwabara & Kono; Brilliantov et al.",
     .year = 1996,
     .reference = "Kuwabara, Kono, Jpn. J. Appl. Phys. 26 (1987) 1230; Brilliantov, Spahn, Hertzsch, Poschel, Model "
                  "for "
                  "collisions in granular gases, Phys. Rev. E 53 (1996) 5382-5392",
     .doi = "10.1103/PhysRevE.53.5382",
     .equation = "not seen; C1 = Gamma(3/5) sqrt(pi)/(2^(1/5) 5^(2/5) Gamma(21/10))",
     .model = "n = 3/2, m = 1/2 (viscoelastic)",
     .end = "A",
     .range = "x small",
     .expression = "e = 1 - C1 x, x = beta v^(1/5)",
     .claimed = "",
     .claimed_max = NAN,
     .found = "C1 in Chatterjee et al.'s toolbox (ConstCORCoeffs.m, C0 at alpha = beta = 3/2) and derived in tests",
     .alternative = "impactfit zhang-alpha --n 1.5 --m 0.5 (exact zeta; zeta = (5/4)^(3/5) x)",
     .method = &m_visco,
     .data = &order1},
    {.name = "ramirez-schwager-poschel",
     .authors = "Ramirez et al.; Schwager & Poschel",
     .year = 2008,
     .reference = "Ramirez, Poschel, Brilliantov, Schwager, Phys. Rev. E 60 (1999) 4465; Schwager, Poschel, "
                  "Coefficient of "
                  "restitution for viscoelastic spheres: the effect of delayed recovery, Phys. Rev. E 78 (2008) 051304",
     .doi = "10.1103/PhysRevE.60.4465",
     .equation = "not seen; C2 = (3/5) C1^2",
     .model = "n = 3/2, m = 1/2 (viscoelastic)",
     .end = "A (1999), C (2008)",
     .range = "x small",
     .expression = "e = 1 - C1 x + C2 x^2",
     .claimed = "",
     .claimed_max = NAN,
     .found = "C2 = 0.7982665553 in Chatterjee et al.'s toolbox (ConstCORCoeffs.m, 'constant from Schwager-Poschel')",
     .alternative = "impactfit zhang-alpha --n 1.5 --m 0.5",
     .method = &m_visco,
     .data = &order2},
    {.name = "ramirez-pade",
     .authors = "Ramirez et al.",
     .year = 1999,
     .reference = "their Pade approximant of e(x)",
     .doi = "10.1103/PhysRevE.60.4465",
     .equation = "not seen",
     .model = "n = 3/2, m = 1/2 (viscoelastic)",
     .end = "A",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "coefficients not found: the abstract only (web pages); no public code found",
     .alternative = "impactfit zhang-alpha --n 1.5 --m 0.5",
     .method = NOT_FOUND},
    {.name = "schwager-poschel-series",
     .authors = "Schwager & Poschel",
     .year = 2008,
     .reference = "the complete series of e(x) with delayed recovery",
     .doi = "",
     .equation = "not seen",
     .model = "n = 3/2, m = 1/2 (viscoelastic)",
     .end = "C",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "coefficients not found: no text of the paper and no public code found (YADE's Mueller2011 model is not "
              "in "
              "the YADE copies searched)",
     .alternative = "impactfit zhang-alpha --n 1.5 --m 0.5",
     .method = NOT_FOUND},
    {.name = "muller-poschel-pade14",
     .authors = "Muller & Poschel",
     .year = 2011,
     .reference = "Collision of viscoelastic spheres: compact expressions for the coefficient of normal restitution, "
                  "Phys. Rev. E "
                  "84 (2011) 021302 (Pade [1/4])",
     .doi = "",
     .equation = "not seen",
     .model = "n = 3/2, m = 1/2 (viscoelastic)",
     .end = "C",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "coefficients not found: the abstract only (arXiv 1102.5247)",
     .alternative = "impactfit zhang-alpha --n 1.5 --m 0.5",
     .method = NOT_FOUND},
    {.name = "muller-poschel-pade36",
     .authors = "Muller & Poschel",
     .year = 2011,
     .reference = "the same, Pade [3/6]",
     .doi = "",
     .equation = "not seen",
     .model = "n = 3/2, m = 1/2 (viscoelastic)",
     .end = "C",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "coefficients not found: the abstract only (arXiv 1102.5247)",
     .alternative = "impactfit zhang-alpha --n 1.5 --m 0.5",
     .method = NOT_FOUND},
    /* ---- any n, m with an external load ---- */
    {.name = "cjb-first",
     .authors = "Chatterjee, James & Brogliato",
     .year = 2022,
     .reference = "(journal not found here; MATLAB toolbox ChattAbhi/"
                  "Approx-ViscoElastic-CoR)",
     .doi = "",
     .equation = "ConstCORCoeffs.m, getCOR.m 'ord1approx'",
     .model = "n >= 1, m >= 0, load g~",
     .end = "A",
     .range = "",
     .expression = "e = 1 - gamma C0 - gamma g~ C1",
     .claimed = "",
     .claimed_max = NAN,
     .found = "their MATLAB toolbox (commit 258b137)",
     .alternative = "impactfit zhang-alpha (unloaded); simulate --accel",
     .method = &m_cjb,
     .data = &order1},
    {.name = "cjb-second",
     .authors = "Chatterjee, James & Brogliato",
     .year = 2022,
     .reference = "the same",
     .doi = "",
     .equation = "analyticCOR.m with I, Q by quadrature",
     .model = "n >= 1, m >= 0, load g~",
     .end = "A",
     .range = "",
     .expression = "e = 1 - beta I gamma + beta^2 I (Q - I/2) gamma^2 (sqrt form beyond gamma_c)",
     .claimed = "",
     .claimed_max = NAN,
     .found = "their MATLAB toolbox (analyticCOR.m, VarCORCoeffsNumeric.m)",
     .alternative = "impactfit zhang-alpha; simulate --accel",
     .method = &m_cjb,
     .data = &order2},
    {.name = "cjb-sp",
     .authors = "Chatterjee, James & Brogliato",
     .year = 2022,
     .reference = "the same",
     .doi = "",
     .equation = "getCOR.m 'ord2schw-pos'",
     .model = "n = 3/2, m = 1/2, load g~",
     .end = "A",
     .range = "",
     .expression = "e = 1 - gamma C0 - gamma g~ C1 + (9/4) 0.7982665553 gamma^2",
     .claimed = "",
     .claimed_max = NAN,
     .found = "their MATLAB toolbox (ConstCORCoeffs.m)",
     .alternative = "impactfit zhang-alpha --n 1.5 --m 0.5; simulate --accel",
     .method = &m_cjb,
     .data = &order3},
    {.name = "shen",
     .authors = "Shen et al.",
     .year = 2018,
     .reference = "A contact force model considering constant external forces for impact analysis in multibody "
                  "dynamics, "
                  "Multibody Syst. Dyn. 44 (2018) 397-419",
     .doi = "10.1007/s11044-018-09638-0",
     .equation = "not seen",
     .model = "load",
     .end = "-",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "form not found: cited in the seed papers 000 and 001, no text or code found",
     .alternative = "simulate --accel",
     .method = NOT_FOUND},
    /* ---- damping only while approaching ---- */
    {.name = "jankowski",
     .authors = "Jankowski",
     .year = 2006,
     .reference = "Analytical expression between the impact damping ratio and the coefficient of restitution in the "
                  "non-linear "
                  "viscoelastic model of structural pounding, Earthq. Eng. Struct. Dyn. 35 (2006) 517-524 (model: EESD "
                  "34 (2005) "
                  "595-611)",
     .doi = "10.1002/eqe.537",
     .equation = "not seen",
     .model = "n = 3/2, m = 1/4, damper on approach only",
     .end = "-",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "form not confirmed: the papers are not available here (cited in the seed papers 000 and 001) and no "
              "public "
              "implementation was found (public code searched for the form and its constants); the model itself is "
              "simulated (law.h approach-damper)",
     .alternative = "impactfit_approach_damper_prefactor (formulas.h, exact); zhang-alpha --law approach-damper; "
                    "simulate --law "
                    "approach-damper",
     .method = NOT_FOUND},
    {.name = "khatami",
     .authors = "Khatami et al.",
     .year = 2019,
     .reference = "(reference not found)",
     .doi = "",
     .equation = "not seen",
     .model = "damper on approach only",
     .end = "-",
     .range = "",
     .expression = "form not found",
     .claimed = "",
     .claimed_max = NAN,
     .found = "form not found: searched public code and web pages",
     .alternative = "impactfit_approach_damper_prefactor (formulas.h, exact for m = (n-1)/2); zhang-alpha --law "
                    "approach-damper",
     .method = NOT_FOUND},
};

#define NPUB (sizeof table / sizeof table[0])

size_t impactfit_published_count(void) { return NPUB; }

const impactfit_published *impactfit_published_at(size_t i) { return i < NPUB ? &table[i] : NULL; }

const impactfit_published *impactfit_published_from_name(const char *name) {
  for (size_t i = 0; name && i < NPUB; i++)
    if (strcmp(table[i].name, name) == 0)
      return &table[i];
  return NULL;
}

const char *impactfit_published_method_name(const impactfit_published *f) {
  return (f && f->method) ? f->method->name : "";
}

impactfit_published_audit_params impactfit_published_audit_default_params(void) {
  impactfit_published_audit_params p;
  p.e_min = 0.01;
  p.e_max = 0.99;
  p.points = 99;
  p.gtil = 0.1;
  p.valid_tol = 0.01;
  return p;
}

/* e_valid: case by case (a case is one exponent pair and load: its own curve of |Δe| against e), the
 * smallest good e above the case's largest bad one; the largest of those over the cases, so that every
 * case is good from there on (NaN when a case has no good point above its bad ones). The union of the
 * cases' points, which the audit used before, could put a good point of one case between another
 * case's crossing and its last bad point: "good to 0.01 for e >= 0.851248" for cjb-second under C, whose
 * (3/2, 1) loaded case crosses 0.01 at 0.85255 (issue 39). */
static int same_value(double a, double b) { return a == b || (isnan(a) && isnan(b)); }
static int same_case(const point *a, const point *b) {
  return same_value(a->n, b->n) && same_value(a->m, b->m) && same_value(a->gtil, b->gtil);
}

static double e_valid(const point *pts, size_t n, double tol) {
  double worst = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    int first = 1; /* each case once, at its first point */
    for (size_t j = 0; j < i && first; j++)
      first = !same_case(&pts[j], &pts[i]);
    if (!first)
      continue;
    double bad = -INFINITY, ev = INFINITY;
    for (size_t j = i; j < n; j++)
      if (same_case(&pts[j], &pts[i]) && !(pts[j].d <= tol) && pts[j].e > bad)
        bad = pts[j].e;
    for (size_t j = i; j < n; j++)
      if (same_case(&pts[j], &pts[i]) && pts[j].d <= tol && pts[j].e > bad && pts[j].e < ev)
        ev = pts[j].e;
    if (!isfinite(ev))
      return NAN;
    worst = fmax(worst, ev);
  }
  return isfinite(worst) ? worst : NAN;
}

int impactfit_published_audit(impactfit_impact_workspace *ws, impactfit_inverse_workspace *iws,
                              const impactfit_published *f, const impactfit_transition *tr,
                              const impactfit_published_audit_params *p, impactfit_published_audit_row *row,
                              impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!ws || !f || !p || !row)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace, formula, parameters or row given");
  if (!f->method)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: not audited (%s)", f->name, f->found);
  if (tr != impactfit_transition_A && tr != impactfit_transition_C)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the audit is under condition A or C");
  if (!(isfinite(p->e_min) && isfinite(p->e_max) && p->e_min > 0.0 && p->e_max < 1.0 && p->e_min <= p->e_max) ||
      p->points < 1 || p->points > 100000 || ((p->points == 1) != (p->e_min == p->e_max)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "the grid must be 1..1e5 points on 0 < e_min <= e_max < 1 (got %zu on [%.17g, %.17g])",
                           p->points, p->e_min, p->e_max);
  if (!(isfinite(p->valid_tol) && p->valid_tol > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "valid_tol must be > 0 (got %.17g)", p->valid_tol);
  if (!(isfinite(p->gtil) && p->gtil >= 0.0 && p->gtil <= 100.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the load gtil must be in [0, 100] (got %.17g)", p->gtil);
  impactfit_inverse_workspace *own = NULL;
  if (!iws && !(iws = own = impactfit_inverse_alloc()))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  impactfit_published_audit_row r;
  memset(&r, 0, sizeof r);
  r.formula = f;
  r.transition = tr;
  r.var_at_max = r.n_at_max = r.m_at_max = NAN;
  /* the points of every method: at most 5 exponent cases × 2 loads × the grid */
  size_t cap = 10 * p->points;
  point *pts = malloc(cap * sizeof *pts);
  if (!pts) {
    impactfit_inverse_free(own);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  audit_ctx c = {.ws = ws,
                 .iws = iws,
                 .tr = tr,
                 .p = p,
                 .f = f,
                 .a = {.row = &r, .sum = 0.0, .tol = p->valid_tol, .pts = pts, .npts = 0, .cap = cap}};
  int st = f->method->audit(&c, err);
  impactfit_inverse_free(own);
  if (!st)
    r.e_valid = e_valid(pts, c.a.npts, p->valid_tol);
  free(pts);
  if (st)
    return st;
  r.mean = r.points ? c.a.sum / (double)r.points : NAN;
  *row = r;
  return IMPACTFIT_OK;
}
