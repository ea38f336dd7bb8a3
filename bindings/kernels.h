/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit bindings: the vectorised kernels shared by the Python extension (python/src/_impactfit.c)
 * and the Octave/MATLAB MEX functions (octave/src/). Header-only (static functions): each binding
 * includes it once.
 *
 * A kernel computes one point: in[0..n_in) -> out[0..n_out) with a per-thread library workspace, and
 * returns 0 or the library's status with err filled. kernels_run() runs one over `count` points in
 * parallel (OpenMP, schedule(dynamic)), one workspace per thread taken from a pool that keeps them
 * for the next call, writes NaN to the outputs of failed points and reports the failure with the
 * lowest index (so the report does not depend on the number of threads). It takes no lock of the
 * caller's language: the Python binding calls it with the GIL released.
 *
 * Adding a function: write its point function below and add one line to KERNELS[];
 * then a wrapper in python/impactfit/__init__.py and, for Octave, a MEX file of a few lines
 * (octave/src/impactfit_hc_eps.c is the pattern; octave/src/impactfit_dem.c for name/value inputs). */
#ifndef IMPACTFIT_BINDINGS_KERNELS_H
#define IMPACTFIT_BINDINGS_KERNELS_H

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"

/* ---- options shared by the kernels (each kernel reads the ones it documents) ------------------- */

typedef struct kopts {
  impactfit_inverse_params inv;  /* copt, zhang_alpha: method, tol, max_iter, surrogate_guess */
  impactfit_impact_params sim;   /* simulate: transition, max_contacts, t_max, rtol, series */
  const impactfit_transition *tr; /* zhang_alpha, zhang_surrogate */
  int dimensional;               /* copt */
  char which[16];                /* rh_eps: lsq | minimax */
  const impactfit_dem_model *dem; /* dem: the code's model (impactfit_dem_model_find) */
  int dem_clamp;                 /* dem: -1 the code's default, 0 off, 1 on */
  int dem_wall;                  /* dem: 1 sphere against a wall, 0 two spheres */
} kopts;


/* ---- workspace pool ---------------------------------------------------------------------------- */

enum { WS_NONE, WS_IMPACT, WS_INVERSE, WS_KINDS };
#define POOL_MAX 64
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static void *pool[WS_KINDS][POOL_MAX];
static int pool_n[WS_KINDS];

static void *ws_get(int kind) {
  if (kind == WS_NONE)
    return NULL;
  void *w = NULL;
  pthread_mutex_lock(&pool_lock);
  if (pool_n[kind] > 0)
    w = pool[kind][--pool_n[kind]];
  pthread_mutex_unlock(&pool_lock);
  if (!w)
    w = kind == WS_IMPACT ? (void *)impactfit_impact_alloc() : (void *)impactfit_inverse_alloc();
  return w;
}

static void ws_put(int kind, void *w) {
  if (!w)
    return;
  pthread_mutex_lock(&pool_lock);
  if (pool_n[kind] < POOL_MAX) {
    pool[kind][pool_n[kind]++] = w;
    w = NULL;
  }
  pthread_mutex_unlock(&pool_lock);
  if (w) {
    if (kind == WS_IMPACT)
      impactfit_impact_free(w);
    else
      impactfit_inverse_free(w);
  }
}

/* Frees every pooled workspace (a MEX file being cleared: mexAtExit). */
static __attribute__((unused)) void ws_pool_free_all(void) {
  pthread_mutex_lock(&pool_lock);
  for (int kind = WS_IMPACT; kind < WS_KINDS; kind++)
    while (pool_n[kind] > 0) {
      void *w = pool[kind][--pool_n[kind]];
      if (kind == WS_IMPACT)
        impactfit_impact_free(w);
      else
        impactfit_inverse_free(w);
    }
  pthread_mutex_unlock(&pool_lock);
}

/* ---- kernels: one point each ------------------------------------------------------------------- */

typedef int (*point_fn)(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err);

static int given(double x) { return !isnan(x); }

static int fail(impactfit_error *err, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(impactfit_error *err, int status, const char *fmt, ...) {
  impactfit_error_clear(err);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  impactfit_shorten_numbers(err->message);
  err->status = status;
  return status;
}

/* The unit inputs of a kernel (NaN: not given): all given or none, the rule of every front end
 * (impactfit_all_or_none); names "k", "mass", "v" as the Python keywords and the Octave help call them.
 * Sets *all. */
static int units(int n, double a, double b, double c, int *all, impactfit_error *err) {
  static const char *const kmv[] = {"k", "mass", "v"}, *const kv[] = {"k", "v"};
  const double values[3] = {a, b, c};
  return impactfit_all_or_none((size_t)n, values, n == 2 ? kv : kmv, all, err);
}

/* copt: in n, e, k, mass, v (k, mass, v all NaN: 1 each, the scaled problem); out c_opt, zeta, e_out, delta_sep, t_contact, iterations, rhs_evals */
static int k_copt(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  impactfit_inverse_params p = o->inv;
  p.n = in[0];
  impactfit_copt_result r;
  int all, st = units(3, in[2], in[3], in[4], &all, err);
  if (st)
    return st;
  if ((st = impactfit_copt_solve(ws, &p, in[1], all ? in[2] : 1.0, all ? in[3] : 1.0, all ? in[4] : 1.0,
                                 o->dimensional, &r, err)))
    return st;
  out[0] = r.c_opt;
  out[1] = r.zeta;
  out[2] = r.e_out;
  out[3] = r.delta_sep;
  out[4] = r.t_contact;
  out[5] = r.iterations;
  out[6] = (double)r.rhs_evals;
  return 0;
}

/* zhang_alpha: in n, m, e, k, mass, v (k, mass, v NaN: no lambda); out alpha, lambda_star, zeta,
 * e_out, lambda, iterations, rhs_evals */
static int k_zhang_alpha(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  impactfit_inverse_params p = o->inv;
  p.n = in[0];
  p.m = in[1];
  p.transition = o->tr;
  double e = in[2];
  if (!(e > 0.0 && e < 1.0))
    return fail(err, IMPACTFIT_EINVAL, "the coefficient of restitution must be in (0, 1) for alpha (got %g)", e);
  int all, st = units(3, in[3], in[4], in[5], &all, err);
  if (st)
    return st;
  if (all) { /* check the units before solving */
    double lam;
    if ((st = impactfit_lambda_from_zeta(p.n, p.m, 1.0, in[3], in[4], in[5], &lam, err)))
      return st;
  }
  impactfit_inverse_result r;
  if ((st = impactfit_inverse_solve(ws, &p, e, 0.0, &r, err)))
    return st;
  if ((st = impactfit_zhang_alpha_from_zeta(p.n, p.m, e, r.zeta, &out[0], &out[1], err)))
    return st;
  out[2] = r.zeta;
  out[3] = r.e_out;
  out[4] = NAN;
  if (given(in[3]) && (st = impactfit_lambda_from_zeta(p.n, p.m, r.zeta, in[3], in[4], in[5], &out[4], err)))
    return st;
  out[5] = r.iterations;
  out[6] = (double)r.rhs_evals;
  return 0;
}

/* simulate: in n, m, k, c, mass, v, accel (k, mass, v all NaN: 1 each); out the impactfit_impact_result
 * fields */
static int k_simulate(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  impactfit_impact_params p = o->sim;
  int all, st = units(3, in[2], in[4], in[5], &all, err);
  if (st)
    return st;
  p.n = in[0];
  p.m = in[1];
  p.k = all ? in[2] : 1.0;
  p.c = in[3];
  p.mass = all ? in[4] : 1.0;
  p.v = all ? in[5] : 1.0;
  p.accel = in[6];
  impactfit_impact_result r;
  if ((st = impactfit_impact_solve(ws, &p, &r, err)))
    return st;
  const double v[] = {r.e_out,       r.t_contact,    r.f_max,     r.t_fmax,       r.f_min,
                      r.delta_max,   r.t_delta_max,  r.delta_start, r.delta_sep,  r.f_start,
                      r.f_end,       r.damping_work, r.energy_error, r.zeta,      r.gamma,
                      r.delta_m0,    (double)r.rhs_evals, (double)r.steps, r.n_contacts};
  memcpy(out, v, sizeof v);
  return 0;
}

/* hc_eps: in e, k, v (k, v NaN: no lambda); out eps, lambda */
static int k_hc_eps(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  int all, st = units(2, in[1], in[2], NAN, &all, err);
  if (st || (st = impactfit_hc_eps(in[0], &out[0], err)))
    return st;
  out[1] = NAN;
  if (all) {
    if (!(in[1] > 0.0 && isfinite(in[1]) && in[2] > 0.0 && isfinite(in[2])))
      return fail(err, IMPACTFIT_EINVAL, "hc_eps: k and v must be finite and > 0 (got k = %g, v = %g)",
                  in[1], in[2]);
    out[1] = out[0] * in[1] / in[2];
  }
  return 0;
}

/* impact_time: in eps, n, k, mass, v (NaN: not given); out dtau, e, e_sim, omega_i, dt, lambda */
static int k_impact_time(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  double omega = NAN;
  int all, st = units(3, in[2], in[3], in[4], &all, err);
  if (st)
    return st;
  if (all)
    if ((st = impactfit_hc_omega(in[2], in[4], in[3], in[1], &omega, err)))
      return st;
  if ((st = impactfit_hc_impact_time(ws, in[0], in[1], &out[0], &out[2], err)))
    return st;
  if ((st = impactfit_hc_e(in[0], &out[1], err)))
    return st;
  out[3] = omega;
  out[4] = given(omega) ? out[0] / omega : NAN;
  out[5] = given(omega) ? in[0] * in[2] / in[4] : NAN;
  return 0;
}

/* identify_hc: in e, dt, v, mass, n; out the impactfit_hc_identified fields */
static int k_identify_hc(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  impactfit_hc_identified r;
  int st = impactfit_hc_identify(ws, in[0], in[1], in[2], in[3], in[4], &r, err);
  if (st)
    return st;
  const double v[] = {r.eps, r.dtau, r.omega_i, r.k, r.lambda, r.e_sim, r.dt_sim, r.e_residual, r.dt_residual};
  memcpy(out, v, sizeof v);
  return 0;
}

/* copt_surrogate: in n, e, k, mass, v (NaN: not given); out zeta, c */
static int k_copt_surrogate(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  int all, st = units(3, in[2], in[3], in[4], &all, err);
  if (st || (st = impactfit_committed_copt_zeta(in[0], in[1], &out[0], err)))
    return st;
  out[1] = NAN;
  if (all)
    return impactfit_copt_from_zeta(in[0], out[0], in[2], in[3], in[4], &out[1], err);
  return 0;
}

/* zhang_surrogate: in n, m, e, k, mass, v (NaN: not given); out zeta, alpha, lambda */
static int k_zhang_surrogate(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  int all, st = units(3, in[3], in[4], in[5], &all, err);
  if (st || (st = impactfit_committed_zhang_zeta(o->tr, in[0], in[1], in[2], &out[0], &out[1], err)))
    return st;
  out[2] = NAN;
  if (all)
    return impactfit_lambda_from_zeta(in[0], in[1], out[0], in[3], in[4], in[5], &out[2], err);
  return 0;
}

/* dtau_surrogate: in eps, n, k, mass, v (NaN: not given); out dtau, dt */
static int k_dtau_surrogate(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  int all, st = units(3, in[2], in[3], in[4], &all, err);
  if (st || (st = impactfit_committed_dtau(in[0], in[1], &out[0], err)))
    return st;
  out[1] = NAN;
  if (all) {
    double omega;
    if ((st = impactfit_hc_omega(in[2], in[4], in[3], in[1], &omega, err)))
      return st;
    out[1] = out[0] / omega;
  }
  return 0;
}

/* dem: in e, v, value, E, nu, r1, r2, rho1, rho2, m1, m2, kn, vchar, tc (NaN: not given; value given:
 * the forward problem); out value, e_naive, reachable, zeta, C, K, R, M, e_real. As `impactfit dem`:
 * r2 = r1 and rho2 = rho1 when not given (a wall ignores r2, m2), masses (4/3) pi r^3 rho from the
 * densities unless m1 (and m2, default m1) are given; vchar defaults to v. */
enum { DEM_N_IN = 14, DEM_N_OUT = 9 };

static int dem_request(const kopts *o, const double *in, impactfit_dem_request *q, impactfit_error *err) {
  const impactfit_dem_model *md = o->dem;
  if (!md)
    return fail(err, IMPACTFIT_EINVAL, "dem: no code and model given");
  int wall = o->dem_wall;
  double r1 = in[5], r2 = wall ? NAN : in[6], rho1 = in[7], rho2 = in[8], m1 = in[9], m2 = wall ? NAN : in[10];
  if (!wall && !given(r2))
    r2 = r1;
  if (!wall && !given(rho2))
    rho2 = rho1;
  if (!given(m1) && !given(m2)) {
    if (!given(rho1))
      return fail(err, IMPACTFIT_EINVAL, "dem: give the density (density or rho1/rho2, kg/m^3) or the masses (m1/m2, kg)");
    if (!(rho1 > 0.0) || (!wall && !(rho2 > 0.0)))
      return fail(err, IMPACTFIT_EINVAL, "dem: densities must be > 0 kg/m^3 (got %.17g, %.17g)", rho1, rho2);
    m1 = impactfit_dem_sphere_mass(r1, rho1);
    m2 = wall ? NAN : impactfit_dem_sphere_mass(r2, rho2);
  } else if (!given(m2) && !wall) {
    m2 = m1;
  }
  impactfit_dem_stiffness_input stiff = impactfit_dem_model_stiffness_input(md); /* the registry says */
  if (stiff == IMPACTFIT_DEM_FROM_MATERIAL && (!given(in[3]) || !given(in[4])))
    return fail(err, IMPACTFIT_EINVAL, "dem: %s %s takes the material: give E (Pa) and nu", md->code, md->model);
  if (stiff == IMPACTFIT_DEM_FROM_TC && !given(in[13]))
    return fail(err, IMPACTFIT_EINVAL, "dem: yade viscel damping en takes the contact time: give tc (s)");
  if (stiff == IMPACTFIT_DEM_FROM_KN && !given(in[11]))
    return fail(err, IMPACTFIT_EINVAL, "dem: %s %s takes the code's stiffness: give kn (%s)", md->code, md->model,
                md->law);
  if (given(in[0]) && given(in[2]))
    return fail(err, IMPACTFIT_EINVAL, "dem: give e (the restitution you want) or value (what you type), not both");
  *q = impactfit_dem_default_request();
  q->model = md;
  q->clamp = o->dem_clamp;
  q->contact.geometry = wall ? IMPACTFIT_DEM_SPHERE_WALL : IMPACTFIT_DEM_SPHERE_SPHERE;
  q->contact.E = in[3];
  q->contact.nu = in[4];
  q->contact.r1 = r1;
  q->contact.r2 = r2;
  q->contact.m1 = m1;
  q->contact.m2 = m2;
  q->contact.kn = in[11];
  q->contact.v_char = in[12];
  q->contact.tc = in[13];
  q->e = in[0];
  q->v = in[1];
  return 0;
}

static int k_dem(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  impactfit_dem_request q;
  int st = dem_request(o, in, &q, err);
  if (st)
    return st;
  for (int j = 0; j < DEM_N_OUT; j++)
    out[j] = NAN;
  if (given(in[2])) { /* forward: the real e of a typed value */
    if (!given(q.contact.v_char))
      q.contact.v_char = q.v;
    out[0] = in[2];
    if ((st = impactfit_dem_effective(&q.contact, &out[6], &out[7], err)))
      return st;
    return impactfit_dem_forward(q.model, &q.contact, q.clamp, in[2], q.v, &out[8], err);
  }
  impactfit_dem_answer a;
  if ((st = impactfit_dem_solve(ws, &q, &a, err)))
    return st;
  const double v[] = {a.value, a.e_naive, a.reachable, a.zeta, a.C, a.K, a.R, a.M, NAN};
  memcpy(out, v, sizeof v);
  return 0;
}

/* dem, one point: the texts (input to paste, note) and, when e is out of reach, another model of the
 * same code that reaches it (*alt NULL when none does). */
static __attribute__((unused)) int dem_describe(const kopts *o, const double *in, char *input, size_t input_size,
                                                char *note, size_t note_size, const impactfit_dem_model **alt,
                                                impactfit_dem_answer *alt_ans, impactfit_error *err) {
  impactfit_dem_request q;
  *alt = NULL;
  input[0] = note[0] = '\0';
  int st = dem_request(o, in, &q, err);
  if (st)
    return st;
  if (given(in[2])) {
    if (!given(q.contact.v_char))
      q.contact.v_char = q.v;
    return impactfit_dem_input(q.model, &q.contact, q.clamp, in[2], input, input_size, err);
  }
  impactfit_dem_answer a;
  if ((st = impactfit_dem_solve(NULL, &q, &a, err)))
    return st;
  snprintf(input, input_size, "%s", a.input);
  snprintf(note, note_size, "%s", a.note);
  if (!a.reachable && impactfit_dem_suggest(NULL, &q, alt, alt_ans, NULL) != 0)
    *alt = NULL;
  return 0;
}

/* rh_eps: in e; out eps */
static int k_rh_eps(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  return impactfit_committed_rh_eps(o->which, in[0], &out[0], err);
}

typedef struct kernel {
  const char *name;
  int n_in, n_out;
  int ws; /* WS_NONE, WS_IMPACT, WS_INVERSE */
  point_fn point;
} kernel;

static const kernel KERNELS[] = {
    {"copt", 5, 7, WS_INVERSE, k_copt},
    {"zhang_alpha", 6, 7, WS_INVERSE, k_zhang_alpha},
    {"simulate", 7, 19, WS_IMPACT, k_simulate},
    {"hc_eps", 3, 2, WS_NONE, k_hc_eps},
    {"impact_time", 5, 6, WS_IMPACT, k_impact_time},
    {"identify_hc", 5, 9, WS_IMPACT, k_identify_hc},
    {"copt_surrogate", 5, 2, WS_NONE, k_copt_surrogate},
    {"zhang_surrogate", 6, 3, WS_NONE, k_zhang_surrogate},
    {"dtau_surrogate", 5, 2, WS_NONE, k_dtau_surrogate},
    {"rh_eps", 1, 1, WS_NONE, k_rh_eps},
    {"dem", DEM_N_IN, DEM_N_OUT, WS_INVERSE, k_dem},
};
#define N_KERNELS (sizeof KERNELS / sizeof KERNELS[0])
#define MAX_IO 24


static const kernel *kernel_find(const char *name) {
  for (size_t i = 0; i < N_KERNELS; i++)
    if (!strcmp(KERNELS[i].name, name))
      return &KERNELS[i];
  return NULL;
}

/* Options at their defaults (C, fast, tol 1e-10, the engine's defaults, minimax). */
static void kopts_default(kopts *o) {
  memset(o, 0, sizeof *o);
  o->inv = impactfit_inverse_default_params();
  o->sim = impactfit_impact_default_params();
  o->tr = impactfit_transition_C;
  snprintf(o->which, sizeof o->which, "minimax");
  o->dem_clamp = -1;
}

typedef struct kfailure {
  long long index; /* -1: none */
  impactfit_error err;
} kfailure;

/* Runs kernel kn over count points: ip[j][i] -> op[k][i] (NaN where point i failed), status[i] (may be
 * NULL). threads <= 0: omp_get_max_threads(). Returns the failure with the lowest index in *first. */
static void kernels_run(const kernel *kn, const kopts *o, size_t count, const double *const *ip,
                        double *const *op, int32_t *status, int threads, kfailure *first) {
  first->index = -1;
  if (threads <= 0)
    threads = omp_get_max_threads();
  if (count < 2 * (size_t)threads)
    threads = count > 1 ? (int)(count / 2) : 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    kfailure mine;
    mine.index = -1;
    void *ws = ws_get(kn->ws);
    int have_ws = kn->ws == WS_NONE || ws;
    double in[MAX_IO], out[MAX_IO];
    impactfit_error err;
#pragma omp for schedule(dynamic, 1) nowait
    for (size_t i = 0; i < count; i++) {
      int st;
      for (int j = 0; j < kn->n_in; j++)
        in[j] = ip[j][i];
      impactfit_error_clear(&err);
      if (!have_ws)
        st = fail(&err, IMPACTFIT_ENOMEM, "out of memory");
      else
        st = kn->point(ws, o, in, out, &err);
      if (status)
        status[i] = st;
      for (int j = 0; j < kn->n_out; j++)
        op[j][i] = st ? NAN : out[j];
      if (st && mine.index < 0) { /* the loop runs in increasing i on each thread */
        mine.index = (long long)i;
        mine.err = err;
        mine.err.status = st;
        if (!mine.err.message[0])
          snprintf(mine.err.message, sizeof mine.err.message, "%s", impactfit_strerror(st));
      }
    }
    ws_put(kn->ws, ws);
#pragma omp critical(impactfit_bindings_first)
    {
      if (mine.index >= 0 && (first->index < 0 || mine.index < first->index))
        *first = mine;
    }
  }
}

#endif /* IMPACTFIT_BINDINGS_KERNELS_H */
