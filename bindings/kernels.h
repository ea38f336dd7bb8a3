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
 * (octave/src/impactfit_hc_eps.c is the pattern; octave/src/impactfit_code.c for name/value inputs). */
#ifndef IMPACTFIT_BINDINGS_KERNELS_H
#define IMPACTFIT_BINDINGS_KERNELS_H

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
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
  /* code: the request of the code registry without its numbers (model, version, integrator, clamp, geometry),
   * its settings of several values, and the names of the one-value settings the points give (code_slot) */
  impactfit_code_request code;
  impactfit_code_setting code_set[IMPACTFIT_CODE_MAX_INPUTS];
  size_t code_nset;
  const char *code_slot[8];
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

/* code: one request to the code registry (impactfit_code_solve): in e, v, value, dt, radius, r2, density, rho2,
 * mass, m2, meff, reff, then one value of each one-value setting named by o->code_slot (NaN: not given); out the
 * numbers of the answer, CODE_OUT's order. The front ends (Python's impactfit.code, Octave's impactfit_code)
 * broadcast over every input. */
enum { CODE_N_FIXED = 12, CODE_SLOTS = 8, CODE_N_IN = CODE_N_FIXED + CODE_SLOTS };
#define CODE_OUT(X)                                                                                                 \
  X(value) X(e) X(e_min) X(e_max) X(e_continuous) X(e_speed_min) X(e_speed_max) X(e_naive) X(e_naive_min)         \
  X(e_naive_max) X(naive_value) X(reachable) X(stable) X(dt_stable) X(e_reach_min) X(e_reach_max) X(zeta) X(C) X(K) \
  X(R) X(mass) X(dt) X(speed_dependent) X(stepped) X(forward) X(impacts)
enum {
#define X(f) CO_##f,
  CODE_OUT(X)
#undef X
      CODE_N_OUT
};

/* the request of one point; its settings into set (IMPACTFIT_CODE_MAX_INPUTS + CODE_SLOTS) */
static void code_request(const kopts *o, const double *in, impactfit_code_request *q, impactfit_code_setting *set) {
  *q = o->code;
  memcpy(set, o->code_set, o->code_nset * sizeof *set);
  size_t n = o->code_nset;
  for (int k = 0; k < CODE_SLOTS; k++)
    if (o->code_slot[k] && given(in[CODE_N_FIXED + k])) {
      memset(&set[n], 0, sizeof set[n]);
      set[n].name = o->code_slot[k];
      set[n].count = 1;
      set[n++].values[0] = in[CODE_N_FIXED + k];
    }
  q->settings = set;
  q->n_settings = n;
  q->e = in[0];
  q->v = in[1];
  q->value = in[2];
  q->dt = in[3];
  q->bodies.r1 = in[4];
  q->bodies.r2 = in[5];
  q->bodies.rho1 = in[6];
  q->bodies.rho2 = in[7];
  q->bodies.m1 = in[8];
  q->bodies.m2 = in[9];
  q->bodies.meff = in[10];
  q->bodies.reff = in[11];
}

static void code_numbers(const impactfit_code_answer *a, double *out) {
#define X(f) out[CO_##f] = (double)a->f;
  CODE_OUT(X)
#undef X
}

static int k_code(void *ws, const kopts *o, const double *in, double *out, impactfit_error *err) {
  (void)ws;
  if (!o->code.model)
    return fail(err, IMPACTFIT_EINVAL, "code: no code and model given");
  impactfit_code_request q;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS + CODE_SLOTS];
  code_request(o, in, &q, set);
  impactfit_code_answer a;
  int st = impactfit_code_solve(&q, &a, err);
  if (!st)
    code_numbers(&a, out);
  impactfit_code_answer_free(&a);
  return st;
}

/* The keys of one answer, those of `impactfit dem/engine --json` (src/cli/code_print.c) for the answer's kind:
 * code_keys[] with the kinds each key belongs to, read by code_key_get. The front ends build their dict or
 * struct from it (then add the alternative, the speed rows and the kind). */
enum { CK_POWER = 1, CK_FORWARD = 2, CK_STEPS = 4, CK_PF = 3, CK_PS = 5, CK_ALL = 7 };
enum { CK_DOUBLE, CK_INT, CK_STR, CK_RANGE };
typedef struct code_strs {
  const char *code, *version, *end, *integrator, *input, *note, *naive;
  int run_here;
} code_strs;
typedef struct code_key {
  const char *key;
  int kinds, type, obj; /* obj 0: the model, 1: the answer, 2: its code_strs */
  size_t off;
} code_key;
#define CK_M(key, f, t, k) {key, k, t, 0, offsetof(impactfit_code_model, f)}
#define CK_A(key, f, t, k) {key, k, t, 1, offsetof(impactfit_code_answer, f)}
#define CK_S(key, f, t, k) {key, k, t, 2, offsetof(code_strs, f)}
static const code_key code_keys[] = {
    CK_S("code", code, CK_STR, CK_ALL),
    CK_S("version", version, CK_STR, CK_ALL),
    CK_M("versions", versions, CK_STR, CK_PF),
    CK_S("run_here", run_here, CK_INT, CK_ALL),
    CK_M("model", model, CK_STR, CK_ALL),
    CK_M("damping", option, CK_STR, CK_PF),
    CK_S("integrator", integrator, CK_STR, CK_STEPS),
    CK_A("dt", dt, CK_DOUBLE, CK_STEPS),
    CK_A("mass", mass, CK_DOUBLE, CK_STEPS),
    CK_A("e_asked", e_asked, CK_DOUBLE, CK_PS),
    CK_A("v", v, CK_DOUBLE, CK_ALL),
    CK_M("param", param, CK_STR, CK_ALL),
    CK_M("param_unit", param_unit, CK_STR, CK_POWER),
    CK_A("value", value, CK_DOUBLE, CK_ALL),
    CK_S("input", input, CK_STR, CK_ALL),
    CK_A("e_real", e, CK_DOUBLE, CK_FORWARD),
    CK_A("e_mean", e, CK_DOUBLE, CK_STEPS),
    CK_A("e_min", e_min, CK_DOUBLE, CK_STEPS),
    CK_A("e_max", e_max, CK_DOUBLE, CK_STEPS),
    CK_A("e_continuous", e_continuous, CK_DOUBLE, CK_STEPS),
    CK_A("e_range", e_speed_min, CK_RANGE, CK_PF),
    CK_S("note", note, CK_STR, CK_PS),
    CK_S("naive", naive, CK_STR, CK_STEPS),
    CK_A("naive_value", naive_value, CK_DOUBLE, CK_STEPS),
    CK_A("e_naive", e_naive, CK_DOUBLE, CK_PS),
    CK_A("e_naive_range", e_naive_min, CK_RANGE, CK_PS),
    CK_A("reachable", reachable, CK_INT, CK_PS),
    CK_A("e_reach_range", e_reach_min, CK_RANGE, CK_STEPS),
    CK_A("stable", stable, CK_INT, CK_STEPS),
    CK_A("dt_stable", dt_stable, CK_DOUBLE, CK_STEPS),
    CK_A("gravity", gravity, CK_DOUBLE, CK_STEPS),
    CK_A("speed_dependent", speed_dependent, CK_INT, CK_PF),
    CK_S("end", end, CK_STR, CK_ALL),
    CK_M("n", n, CK_DOUBLE, CK_POWER),
    CK_M("m", m, CK_DOUBLE, CK_POWER),
    CK_A("K", K, CK_DOUBLE, CK_POWER),
    CK_A("R", R, CK_DOUBLE, CK_PF),
    CK_A("M", mass, CK_DOUBLE, CK_PF),
    CK_A("C", C, CK_DOUBLE, CK_POWER),
    CK_A("zeta", zeta, CK_DOUBLE, CK_POWER),
    CK_M("source", source, CK_STR, CK_ALL),
};
#define N_CODE_KEYS (sizeof code_keys / sizeof code_keys[0])

static __attribute__((unused)) int code_kind(const impactfit_code_answer *a) {
  return a->stepped ? CK_STEPS : a->forward ? CK_FORWARD : CK_POWER;
}
static __attribute__((unused)) const char *code_kind_name(const impactfit_code_answer *a) {
  return a->stepped ? "steps" : a->forward ? "forward" : "power";
}
static __attribute__((unused)) code_strs code_strs_of(const impactfit_code_answer *a) {
  code_strs s = {.code = a->model->code->name,
                 .version = a->version,
                 .end = a->end->name,
                 .integrator = a->integrator ? a->integrator->name : "",
                 .input = a->input ? a->input : "",
                 .note = a->note ? a->note : "",
                 .naive = a->naive ? a->naive : "",
                 .run_here = a->run_here};
  return s;
}
/* key k of the answer: a number (x[0]; a range: x[0], x[1]) or a string (*str) */
static __attribute__((unused)) void code_key_get(const code_key *k, const impactfit_code_answer *a, const code_strs *s, double x[2],
                         const char **str) {
  const char *base = k->obj == 0 ? (const char *)a->model : k->obj == 1 ? (const char *)a : (const char *)s;
  const char *p = base + k->off;
  x[0] = x[1] = NAN;
  *str = NULL;
  if (k->type == CK_STR) {
    memcpy(str, p, sizeof *str);
    if (!*str)
      *str = "";
  } else if (k->type == CK_INT) {
    int i;
    memcpy(&i, p, sizeof i);
    x[0] = i;
  } else {
    memcpy(x, p, (k->type == CK_RANGE ? 2 : 1) * sizeof(double));
  }
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
    {"code", CODE_N_IN, CODE_N_OUT, WS_NONE, k_code},
};
#define N_KERNELS (sizeof KERNELS / sizeof KERNELS[0])
#define MAX_IO 32


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
  o->code = impactfit_code_request_default();
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
