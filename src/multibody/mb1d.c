/* SPDX-License-Identifier: GPL-3.0-or-later */
/* 1-D multibody system on a contact element with transition conditions A–D (include/impactfit/multibody.h).
 *
 * State vector y = (x_0..x_{N−1}, v_0..v_{N−1}, x_f): positions, velocities and the compression of the
 * relaxing element (used out of contact under D only). The mode (contact active or not) selects the
 * right-hand side and the event functions:
 *
 *   mode         A             B                C                         D
 *   no contact   δ ↑           F_f ↑            δ ↑, or F_f ↑ with δ > 0   δ − x_f ↑
 *   contact      δ ↓           F_f ↓            F_f ↓                      F_f ↓
 *
 * (↑: crossing from negative to non-negative). Every event is located on the integrator's own solution
 * (hybrid.h). Per-period statistics use the same machinery: the extrema of the contact mass's
 * acceleration (root of its jerk), of the force and of δ, and the crossings of δ = 0.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h> /* M_PI */
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multiroots.h>

#include "../common/common_impl.h"
#include "hybrid.h"
#include "impactfit/multibody.h"

#define NMAX IMPACTFIT_MB1D_MAX_MASSES
#define MAX_TRANSITIONS_PER_PERIOD 100000L
/* Flags are raised only beyond the resolution of the located transitions: a contact force below
 * −TENSILE_FLOOR·max|f| is tensile (under B, C, D the force at the end is a located zero, ±1e-12 of
 * max|f|), and a contact held while δ < 0 for more than UNTOUCHED_FLOOR of a period is a force
 * without touching (under A the contact starts at a located δ = 0, within ~1e-13 of a period). */
#define TENSILE_FLOOR 1e-8
#define UNTOUCHED_FLOOR 1e-9
/* A period-q steady state is accepted only if every proper divisor q' of q is far from repeating:
 * d_q' > SUBPERIOD_FACTOR·ss_tol (see impactfit_mb1d_steady). */
#define SUBPERIOD_FACTOR 1e3

/* ---- the system ----------------------------------------------------------------------------- */

typedef struct mbsys {
  impactfit_mb1d_system S;
  int N, cm;
  int in_contact;
  int relax; /* D */
  long nevals;
} mbsys;

static double spow(double d, double n) { /* s(δ) = sgn(δ)|δ|^n */
  double a = fabs(d), p = (n == 1.0) ? a : pow(a, n);
  return d < 0.0 ? -p : p;
}

static double element_force(const mbsys *M, const double *y) {
  double d = -y[M->cm], dd = -y[M->N + M->cm];
  return M->S.k * spow(d, M->S.n) + M->S.c * dd;
}

/* Accelerations of all masses; returns the contact force (0 out of contact). */
static double accelerations(const mbsys *M, double t, const double *y, double *a) {
  const impactfit_mb1d_system *S = &M->S;
  int N = M->N;
  double F[NMAX];
  for (int i = 0; i < N; i++)
    F[i] = -S->mass[i] * S->g;
  for (int l = 0; l < S->n_links; l++) {
    const impactfit_mb1d_link *L = &S->link[l];
    double xi = (L->i < 0) ? 0.0 : y[L->i], vi = (L->i < 0) ? 0.0 : y[N + L->i];
    double f = L->k * (y[L->j] - xi - L->d) + L->c * (y[N + L->j] - vi);
    F[L->j] -= f;
    if (L->i >= 0)
      F[L->i] += f;
  }
  if (S->excited >= 0)
    F[S->excited] += S->f_amp * sin(S->omega * t);
  double fc = 0.0;
  if (M->in_contact) {
    fc = element_force(M, y);
    F[M->cm] += fc;
  }
  for (int i = 0; i < N; i++)
    a[i] = F[i] / S->mass[i];
  return fc;
}

static double relax_rate(const mbsys *M, double xf) { /* x_f' = −(k/c) x_f^n */
  if (M->S.c <= 0.0 || xf <= 0.0)
    return 0.0;
  return -(M->S.k / M->S.c) * (M->S.n == 1.0 ? xf : pow(xf, M->S.n));
}

static int rhs(double t, const double y[], double dydt[], void *params) {
  mbsys *M = params;
  M->nevals++;
  int N = M->N;
  double a[NMAX];
  accelerations(M, t, y, a);
  for (int i = 0; i < N; i++) {
    dydt[i] = y[N + i];
    dydt[N + i] = a[i];
    if (!isfinite(a[i]))
      return GSL_EBADFUNC;
  }
  dydt[2 * N] = (!M->in_contact && M->relax) ? relax_rate(M, y[2 * N]) : 0.0;
  return GSL_SUCCESS;
}

/* ---- event functions and monitored quantities (with their time derivatives) ------------------- */

static double f_delta(double t, const double *y, void *ctx) {
  const mbsys *M = ctx;
  return -y[M->cm];
}
static double fd_delta(double t, const double *y, void *ctx) {
  const mbsys *M = ctx;
  return -y[M->N + M->cm];
}
static double f_force(double t, const double *y, void *ctx) { return element_force(ctx, y); }
/* dF_f/dt = k n |δ|^(n−1) δ' + c δ'', δ'' = −a_contact. */
static double force_rate(const mbsys *M, const double *y, const double *a) {
  double d = -y[M->cm], dd = -y[M->N + M->cm], n = M->S.n;
  double kp = (n == 1.0) ? 1.0 : n * pow(fabs(d), n - 1.0);
  return M->S.k * kp * dd - M->S.c * a[M->cm];
}
static double fd_force(double t, const double *y, void *ctx) {
  const mbsys *M = ctx;
  double a[NMAX];
  accelerations(M, t, y, a);
  return force_rate(M, y, a);
}
static double f_gap(double t, const double *y, void *ctx) {
  const mbsys *M = ctx;
  return -y[M->cm] - y[2 * M->N];
}
static double fd_gap(double t, const double *y, void *ctx) {
  const mbsys *M = ctx;
  return -y[M->N + M->cm] - relax_rate(M, y[2 * M->N]);
}
static double f_accel(double t, const double *y, void *ctx) {
  const mbsys *M = ctx;
  double a[NMAX];
  accelerations(M, t, y, a);
  return a[M->cm];
}
/* Jerk of the contact mass: the time derivative of its force balance. */
static double fd_accel(double t, const double *y, void *ctx) {
  const mbsys *M = ctx;
  const impactfit_mb1d_system *S = &M->S;
  int N = M->N, cm = M->cm;
  double a[NMAX];
  accelerations(M, t, y, a);
  double J = 0.0;
  for (int l = 0; l < S->n_links; l++) {
    const impactfit_mb1d_link *L = &S->link[l];
    if (L->i != cm && L->j != cm)
      continue;
    double vi = (L->i < 0) ? 0.0 : y[N + L->i], ai = (L->i < 0) ? 0.0 : a[L->i];
    double df = L->k * (y[N + L->j] - vi) + L->c * (a[L->j] - ai);
    J += (L->j == cm) ? -df : df;
  }
  if (S->excited == cm)
    J += S->f_amp * S->omega * cos(S->omega * t);
  if (M->in_contact)
    J += force_rate(M, y, a);
  return J / S->mass[cm];
}

/* ---- checks, presets, equilibrium ---------------------------------------------------------------- */

#define REQUIRE(cond, ...)                                        \
  do {                                                            \
    if (!(cond))                                                  \
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, __VA_ARGS__); \
  } while (0)

int impactfit_mb1d_check(const impactfit_mb1d_system *s, impactfit_error *err) {
  REQUIRE(s != NULL, "no system given");
  REQUIRE(s->n_masses >= 1 && s->n_masses <= NMAX, "n_masses must be 1..%d (got %d)", NMAX, s->n_masses);
  for (int i = 0; i < s->n_masses; i++)
    REQUIRE(isfinite(s->mass[i]) && s->mass[i] > 0.0, "mass %d must be a finite number > 0 (got %.17g)", i, s->mass[i]);
  REQUIRE(s->n_links >= 0 && s->n_links <= IMPACTFIT_MB1D_MAX_LINKS, "n_links must be 0..%d (got %d)",
          IMPACTFIT_MB1D_MAX_LINKS, s->n_links);
  for (int l = 0; l < s->n_links; l++) {
    const impactfit_mb1d_link *L = &s->link[l];
    REQUIRE(L->j >= 0 && L->j < s->n_masses && L->i >= -1 && L->i < s->n_masses && L->i != L->j,
            "link %d joins invalid masses (%d, %d)", l, L->i, L->j);
    REQUIRE(isfinite(L->k) && L->k >= 0.0 && isfinite(L->c) && L->c >= 0.0 && isfinite(L->d),
            "link %d needs finite k >= 0, c >= 0 and d", l);
  }
  REQUIRE(isfinite(s->g) && s->g >= 0.0, "gravity g must be a finite number >= 0 (got %.17g)", s->g);
  REQUIRE(s->excited >= -1 && s->excited < s->n_masses, "excited mass %d does not exist", s->excited);
  REQUIRE(isfinite(s->f_amp) && s->f_amp >= 0.0, "excitation amplitude must be finite and >= 0 (got %.17g)", s->f_amp);
  REQUIRE(isfinite(s->omega) && s->omega > 0.0, "excitation frequency omega must be finite and > 0 (got %.17g)",
          s->omega);
  REQUIRE(s->contact_mass >= 0 && s->contact_mass < s->n_masses, "contact mass %d does not exist", s->contact_mass);
  REQUIRE(isfinite(s->k) && s->k > 0.0, "contact stiffness k must be finite and > 0 (got %.17g)", s->k);
  REQUIRE(isfinite(s->c) && s->c >= 0.0, "contact damping c must be finite and >= 0 (got %.17g)", s->c);
  REQUIRE(isfinite(s->n) && s->n >= 1.0 && s->n <= 10.0, "contact exponent n must be in [1, 10] (got %.17g)", s->n);
  REQUIRE(s->transition == impactfit_transition_A || s->transition == impactfit_transition_B ||
              s->transition == impactfit_transition_C || s->transition == impactfit_transition_D,
          "unknown transition condition");
  return 0;
}

int impactfit_mb1d_roller(int case_no, const impactfit_transition *tr, impactfit_mb1d_system *sys,
                          impactfit_error *err) {
  static const double tab[4][3] = {
      {5e6, 8e4, 40.0 * M_PI}, {2e8, 5.06e5, 40.0 * M_PI}, {2e8, 5.06e5, 80.0 * M_PI}, {2e8, 2.53e6, 80.0 * M_PI}};
  REQUIRE(sys != NULL, "no system given");
  REQUIRE(case_no >= 1 && case_no <= 4, "roller case must be 1..4 (I..IV), got %d", case_no);
  memset(sys, 0, sizeof *sys);
  sys->n_masses = 2;
  sys->mass[0] = 2000.0; /* drum m2 */
  sys->mass[1] = 1000.0; /* frame m3 */
  sys->n_links = 1;
  sys->link[0] = (impactfit_mb1d_link){.i = 0, .j = 1, .k = 1e6, .c = 1e4, .d = 0.5};
  sys->g = 9.81;
  sys->excited = 0;
  sys->f_amp = 58.8e3;
  sys->omega = tab[case_no - 1][2];
  sys->contact_mass = 0;
  sys->k = tab[case_no - 1][0];
  sys->c = tab[case_no - 1][1];
  sys->n = 1.0;
  sys->transition = tr;
  return impactfit_mb1d_check(sys, err);
}

typedef struct eq_ctx {
  const impactfit_mb1d_system *S;
} eq_ctx;

/* Net static force on each mass (v = 0, no excitation) and its Jacobian d r_i / d x_j. */
static void eq_eval(const impactfit_mb1d_system *S, const double *x, double *r, double *J) {
  int N = S->n_masses;
  for (int i = 0; i < N; i++) {
    r[i] = -S->mass[i] * S->g;
    for (int j = 0; j < N && J; j++)
      J[i * N + j] = 0.0;
  }
  for (int l = 0; l < S->n_links; l++) {
    const impactfit_mb1d_link *L = &S->link[l];
    double xi = (L->i < 0) ? 0.0 : x[L->i];
    double f = L->k * (x[L->j] - xi - L->d);
    r[L->j] -= f;
    if (J)
      J[L->j * N + L->j] -= L->k;
    if (L->i >= 0) {
      r[L->i] += f;
      if (J) {
        J[L->j * N + L->i] += L->k;
        J[L->i * N + L->i] -= L->k;
        J[L->i * N + L->j] += L->k;
      }
    }
  }
  double d = -x[S->contact_mass];
  if (d > 0.0) {
    r[S->contact_mass] += S->k * pow(d, S->n);
    if (J)
      J[S->contact_mass * N + S->contact_mass] -= S->n * S->k * pow(d, S->n - 1.0);
  }
}

static int eq_f(const gsl_vector *x, void *p, gsl_vector *f) {
  const eq_ctx *c = p;
  eq_eval(c->S, x->data, f->data, NULL);
  return GSL_SUCCESS;
}
static int eq_df(const gsl_vector *x, void *p, gsl_matrix *J) {
  const eq_ctx *c = p;
  double r[NMAX];
  eq_eval(c->S, x->data, r, J->data);
  return GSL_SUCCESS;
}
static int eq_fdf(const gsl_vector *x, void *p, gsl_vector *f, gsl_matrix *J) {
  const eq_ctx *c = p;
  eq_eval(c->S, x->data, f->data, J->data);
  return GSL_SUCCESS;
}

int impactfit_mb1d_equilibrium(const impactfit_mb1d_system *S, impactfit_mb1d_state *out, impactfit_error *err) {
  int st = impactfit_mb1d_check(S, err);
  if (st)
    return st;
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output state given");
  IMPACTFIT__GSL_SCOPE;
  int N = S->n_masses;
  double W = 0.0;
  for (int i = 0; i < N; i++)
    W += S->mass[i] * S->g;
  /* Initial guess: the linear problem with the contact replaced by its tangent stiffness at the
   * deflection under the whole weight (exact for n = 1 when everything rests on the contact). */
  double d0 = (W > 0.0) ? pow(W / S->k, 1.0 / S->n) : 0.0;
  double kt = S->n * S->k * ((S->n == 1.0) ? 1.0 : pow(d0, S->n - 1.0));
  gsl_matrix *K = gsl_matrix_calloc(N, N);
  gsl_vector *b = gsl_vector_alloc(N), *x = gsl_vector_alloc(N);
  gsl_permutation *perm = gsl_permutation_alloc(N);
  gsl_multiroot_fdfsolver *sol = gsl_multiroot_fdfsolver_alloc(gsl_multiroot_fdfsolver_hybridsj, N);
  if (!K || !b || !x || !perm || !sol) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    goto done;
  }
  {
    double zero[NMAX] = {0}, r0[NMAX], J[NMAX * NMAX];
    eq_eval(S, zero, r0, J); /* r(x) = r0 + J x for the links (no contact at x = 0) */
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < N; j++)
        gsl_matrix_set(K, i, j, J[i * N + j]);
      gsl_vector_set(b, i, -r0[i]);
    }
    /* tangent contact: k δ^n ≈ k d0^n + kt (δ − d0), δ = −x_cm */
    int cm = S->contact_mass;
    *gsl_matrix_ptr(K, cm, cm) -= kt;
    *gsl_vector_ptr(b, cm) -= S->k * pow(d0, S->n) - kt * d0;
    int sgn;
    if (gsl_linalg_LU_decomp(K, perm, &sgn) != GSL_SUCCESS || fabs(gsl_linalg_LU_det(K, sgn)) == 0.0 ||
        gsl_linalg_LU_solve(K, perm, b, x) != GSL_SUCCESS) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "no static equilibrium: some mass is held neither by a link nor by the contact");
      goto done;
    }
  }
  {
    eq_ctx ctx = {S};
    gsl_multiroot_function_fdf F = {.f = eq_f, .df = eq_df, .fdf = eq_fdf, .n = (size_t)N, .params = &ctx};
    gsl_multiroot_fdfsolver_set(sol, &F, x);
    double fscale = W + S->f_amp + 1.0;
    int conv = 0;
    for (int it = 0; it < 200; it++) {
      if (gsl_multiroot_test_residual(sol->f, 1e-13 * fscale) == GSL_SUCCESS) {
        conv = 1;
        break;
      }
      if (gsl_multiroot_fdfsolver_iterate(sol) != GSL_SUCCESS)
        break;
    }
    if (!conv && gsl_multiroot_test_residual(sol->f, 1e-13 * fscale) == GSL_SUCCESS)
      conv = 1;
    if (!conv) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "static equilibrium: no convergence");
      goto done;
    }
    memset(out, 0, sizeof *out);
    for (int i = 0; i < N; i++)
      out->x[i] = gsl_vector_get(sol->x, i);
    double d = -out->x[S->contact_mass];
    out->in_contact = d > 0.0;
    out->element = out->in_contact ? d : 0.0;
    out->t = 0.0;
  }
done:
  gsl_multiroot_fdfsolver_free(sol);
  gsl_permutation_free(perm);
  gsl_vector_free(x);
  gsl_vector_free(b);
  gsl_matrix_free(K);
  return st;
}

/* ---- workspace ----------------------------------------------------------------------------------- */

struct impactfit_mb1d_workspace {
  impactfit__hyb H;
  impactfit_mb1d_period *periods;
  int n_periods;
};

impactfit_mb1d_params impactfit_mb1d_default_params(void) {
  impactfit_mb1d_params p;
  memset(&p, 0, sizeof p);
  p.rtol = 1e-11;
  p.ss_tol = 1e-8;
  p.max_periods = 20000;
  p.max_multiplicity = 8;
  p.record_periods = 0;
  p.trace_points = 0;
  return p;
}

impactfit_mb1d_workspace *impactfit_mb1d_alloc(void) {
  impactfit_mb1d_workspace *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  ws->periods = calloc(IMPACTFIT_MB1D_MAX_RECORD, sizeof *ws->periods);
  if (!ws->periods) {
    free(ws);
    return NULL;
  }
  return ws;
}

void impactfit_mb1d_free(impactfit_mb1d_workspace *ws) {
  if (!ws)
    return;
  impactfit__hyb_release(&ws->H);
  free(ws->periods);
  free(ws);
}

int impactfit_mb1d_period_get(const impactfit_mb1d_workspace *ws, int i, impactfit_mb1d_period *out) {
  if (!ws || !out || i < 0 || i >= ws->n_periods)
    return IMPACTFIT_EINVAL;
  *out = ws->periods[i];
  return 0;
}

static int check_params(const impactfit_mb1d_params *p, impactfit_error *err) {
  REQUIRE(p != NULL, "no parameters given");
  REQUIRE(isfinite(p->rtol) && p->rtol >= 1e-14 && p->rtol <= 1e-3, "rtol must be in [1e-14, 1e-3] (got %.17g)",
          p->rtol);
  REQUIRE(isfinite(p->ss_tol) && p->ss_tol > 0.0 && p->ss_tol < 1.0, "ss_tol must be in (0, 1) (got %.17g)", p->ss_tol);
  REQUIRE(p->max_periods >= 1 && p->max_periods <= 10000000, "max_periods must be 1..1e7 (got %d)", p->max_periods);
  REQUIRE(p->max_multiplicity >= 1 && p->max_multiplicity <= 64, "max_multiplicity must be 1..64 (got %d)",
          p->max_multiplicity);
  REQUIRE(p->record_periods >= 0 && p->record_periods <= IMPACTFIT_MB1D_MAX_RECORD,
          "record_periods must be 0..%d (got %d)", IMPACTFIT_MB1D_MAX_RECORD, p->record_periods);
  REQUIRE(p->trace_points >= 0 && p->trace_points <= 1000000, "trace_points must be 0..1e6 (got %d)", p->trace_points);
  return 0;
}
#undef REQUIRE

/* ---- the run: steps, events, samples, statistics ------------------------------------------------ */

typedef struct runner {
  impactfit__hyb *H;
  mbsys M;
  double T, L, V;
  const impactfit_mb1d_params *p;
  /* samples */
  int reporting; /* transitions and samples go to p->fn */
  int sampling;
  impactfit__hyb_sampler smp;
  /* statistics of the current period */
  int stats;
  impactfit_mb1d_period cur;
  double contact_time, touch_time, untouched_time;
  long transitions;
  double window_start;
} runner;

static void make_point(runner *R, int kind, double t, const double *y, impactfit_mb1d_point *pt) {
  const mbsys *M = &R->M;
  int N = M->N;
  memset(pt, 0, sizeof *pt);
  pt->kind = kind;
  pt->t = t;
  for (int i = 0; i < N; i++) {
    pt->x[i] = y[i];
    pt->v[i] = y[N + i];
  }
  pt->force = accelerations(M, t, y, pt->a);
  pt->delta = -y[M->cm];
  pt->in_contact = M->in_contact;
  pt->element = M->in_contact ? pt->delta : (M->relax ? y[2 * N] : 0.0);
}

static int emit(runner *R, int kind, double t, const double *y) {
  if (!R->p->fn || !R->reporting)
    return 0;
  impactfit_mb1d_point pt;
  make_point(R, kind, t, y, &pt);
  return R->p->fn(R->p->ctx, &pt);
}

/* Samples whose times fall in [t0 + 0, t0 + s_hi] of the current segment. */
static int emit_samples(runner *R, double s_hi) {
  if (!R->sampling || !R->p->fn)
    return 0;
  double ts, y[IMPACTFIT__HYB_MAXDIM];
  int st;
  while ((st = impactfit__hyb_sample(R->H, &R->smp, s_hi, &ts, y)) > 0)
    if ((st = emit(R, 0, ts, y)))
      return st;
  return st;
}

static void upd(double v, double *lo, double *hi) {
  if (v < *lo)
    *lo = v;
  if (v > *hi)
    *hi = v;
}

/* Statistics over [0, s_end] of the current segment (end states ya, yb). */
static int segment_stats(runner *R, double s_end, const double *ya, const double *yb) {
  if (!R->stats || s_end <= 0.0)
    return 0;
  impactfit__hyb *H = R->H;
  mbsys *M = &R->M;
  impactfit_mb1d_period *P = &R->cur;
  double t0 = H->t0;
  int st, found;
  double s, v;
  /* acceleration of the contact mass */
  impactfit__hyb_fn fa = {f_accel, fd_accel, M};
  upd(f_accel(t0, ya, M), &P->a_min, &P->a_max);
  upd(f_accel(t0 + s_end, yb, M), &P->a_min, &P->a_max);
  if ((st = impactfit__hyb_extremum(H, &fa, 0.0, s_end, ya, yb, &found, &s, &v)))
    return st;
  if (found)
    upd(v, &P->a_min, &P->a_max);
  /* contact force */
  if (M->in_contact) {
    impactfit__hyb_fn ff = {f_force, fd_force, M};
    upd(f_force(t0, ya, M), &P->f_min, &P->f_max);
    upd(f_force(t0 + s_end, yb, M), &P->f_min, &P->f_max);
    if ((st = impactfit__hyb_extremum(H, &ff, 0.0, s_end, ya, yb, &found, &s, &v)))
      return st;
    if (found)
      upd(v, &P->f_min, &P->f_max);
    R->contact_time += s_end;
  }
  /* penetration: extrema, and the time with δ > 0 from its crossings of zero on monotone pieces */
  impactfit__hyb_fn fdl = {f_delta, fd_delta, M};
  double da = -ya[M->cm], db = -yb[M->cm];
  upd(da, &P->delta_min, &P->delta_max);
  upd(db, &P->delta_min, &P->delta_max);
  double pts[3] = {0.0, s_end, s_end}, vals[3] = {da, db, db};
  int np = 2;
  if ((st = impactfit__hyb_extremum(H, &fdl, 0.0, s_end, ya, yb, &found, &s, &v)))
    return st;
  if (found) {
    upd(v, &P->delta_min, &P->delta_max);
    pts[1] = s;
    vals[1] = v;
    np = 3;
  }
  double touch = 0.0;
  for (int k = 0; k + 1 < np; k++) {
    double a = pts[k], b = pts[k + 1], ga = vals[k], gb = vals[k + 1];
    if (ga > 0.0 && gb > 0.0) {
      touch += b - a;
    } else if ((ga > 0.0) != (gb > 0.0)) {
      double r;
      if ((st = impactfit__hyb_root(H, &fdl, 0, a, b, &r)))
        return st;
      touch += (ga > 0.0) ? (r - a) : (b - r);
    }
  }
  R->touch_time += touch;
  if (M->in_contact)
    R->untouched_time += s_end - touch;
  return 0;
}

/* The first event of the current mode inside the current segment [0, len]; *which = −1 if none. */
static int delta_positive(const double *y, void *ctx) {
  const mbsys *M = ctx;
  return -y[M->cm] > 0.0;
}

static int find_event(runner *R, const double *ya, const double *yb, double *s_ev, int *which) {
  impactfit__hyb *H = R->H;
  mbsys *M = &R->M;
  const impactfit_transition *tr = M->S.transition;
  impactfit__hyb_fn fdl = {f_delta, fd_delta, M}, ffo = {f_force, fd_force, M}, fgp = {f_gap, fd_gap, M};
  const impactfit__hyb_fn *fns[2];
  int dirs[2], valid_pos[2], nf = 0;
  if (M->in_contact) {
    fns[nf] = (tr == impactfit_transition_A) ? &fdl : &ffo;
    dirs[nf] = -1;
    valid_pos[nf++] = 0;
  } else if (tr == impactfit_transition_A) {
    fns[nf] = &fdl, dirs[nf] = 1, valid_pos[nf++] = 0;
  } else if (tr == impactfit_transition_B) {
    fns[nf] = &ffo, dirs[nf] = 1, valid_pos[nf++] = 0;
  } else if (tr == impactfit_transition_C) {
    fns[nf] = &fdl, dirs[nf] = 1, valid_pos[nf++] = 0;
    fns[nf] = &ffo, dirs[nf] = 1, valid_pos[nf++] = 1; /* re-entry while still at δ > 0 */
  } else {
    fns[nf] = &fgp, dirs[nf] = 1, valid_pos[nf++] = 0;
  }
  *which = -1;
  double best = H->len;
  for (int k = 0; k < nf; k++) {
    int found, st;
    double s, ys[IMPACTFIT__HYB_MAXDIM];
    if ((st = impactfit__hyb_crossing_valid(H, fns[k], dirs[k], 0.0, H->len, ya, yb,
                                            valid_pos[k] ? delta_positive : NULL, M, &found, &s, ys)))
      return st;
    if (found && (s < best || *which < 0)) {
      best = s;
      *which = k;
    }
  }
  *s_ev = best;
  return 0;
}

/* Switches the contact mode at (t, y) and reports both sides of the transition. */
static int transition(runner *R, double t, double *y) {
  mbsys *M = &R->M;
  int N = M->N, st;
  int starting = !M->in_contact, kind = starting ? 1 : 2;
  if ((st = emit(R, kind, t, y)))
    return st;
  if (starting) {
    M->in_contact = 1;
    R->cur.contact_starts++;
  } else {
    M->in_contact = 0;
    y[2 * N] = (M->relax && M->S.c > 0.0) ? -y[M->cm] : 0.0; /* x_f(t⁺) = δ(t⁺) */
    R->cur.contact_losses++;
  }
  if (++R->transitions > MAX_TRANSITIONS_PER_PERIOD)
    return IMPACTFIT_ENOCONV;
  if ((st = emit(R, kind, t, y)))
    return st;
  impactfit__hyb_restart(R->H, R->H->h);
  return 0;
}

/* Integrates from (*t, y) to t_stop (a period boundary or the end), handling every event. */
static int advance(runner *R, double *t, double *y, double t_stop, impactfit_error *err) {
  impactfit__hyb *H = R->H;
  while (*t < t_stop) {
    int st = impactfit__hyb_step(H, t, y, t_stop);
    if (st)
      return IMPACTFIT__FAIL(err, st, "integration failed at t = %.17g s (%s)", H->t0,
                             st == IMPACTFIT_ESTEP ? "step failed" : "non-finite state");
    double s_ev;
    int which;
    if ((st = find_event(R, H->y0, y, &s_ev, &which)))
      return IMPACTFIT__FAIL(err, st, "event location failed at t = %.17g s", H->t0);
    if (which >= 0) {
      if ((st = impactfit__hyb_state(H, s_ev, y)))
        return IMPACTFIT__FAIL(err, st, "non-finite state at an event");
      *t = H->t0 + s_ev;
      if (*t > t_stop)
        *t = t_stop;
    }
    double s_end = (which >= 0) ? s_ev : H->len;
    if ((st = segment_stats(R, s_end, H->y0, y)))
      return IMPACTFIT__FAIL(err, st, "statistics failed at t = %.17g s", H->t0);
    if ((st = emit_samples(R, s_end)))
      return (st < 0) ? IMPACTFIT__FAIL(err, st, "sampling failed at t = %.17g s", H->t0) : st;
    if (which >= 0 && (st = transition(R, *t, y)))
      return (st == IMPACTFIT_ENOCONV) ? IMPACTFIT__FAIL(err, st,
                                                         "more than %ld contact transitions in one excitation "
                                                         "period (chattering) at t = %.17g s",
                                                         MAX_TRANSITIONS_PER_PERIOD, *t)
                                       : st;
    if (*t >= R->window_start + R->T) { /* the chattering counter is per excitation period */
      R->window_start = *t;
      R->transitions = 0;
    }
  }
  return 0;
}

static void scales(const impactfit_mb1d_system *S, double *L, double *V) {
  double W = 0.0;
  for (int i = 0; i < S->n_masses; i++)
    W += S->mass[i] * S->g;
  double l = pow(fmax(W, S->f_amp) / S->k, 1.0 / S->n);
  if (!(l > 0.0) || !isfinite(l))
    l = 1.0;
  double wc = sqrt(S->k * pow(l, S->n - 1.0) / S->mass[S->contact_mass]);
  *L = l;
  *V = l * fmax(S->omega, wc);
}

static int runner_init(runner *R, impactfit_mb1d_workspace *ws, const impactfit_mb1d_system *S,
                       const impactfit_mb1d_params *p, impactfit_error *err) {
  memset(R, 0, sizeof *R);
  R->M.S = *S;
  R->M.N = S->n_masses;
  R->M.cm = S->contact_mass;
  R->M.relax = (S->transition == impactfit_transition_D);
  R->T = 2.0 * M_PI / S->omega;
  R->p = p;
  scales(S, &R->L, &R->V);
  double sc[IMPACTFIT__HYB_MAXDIM];
  int N = S->n_masses;
  for (int i = 0; i < N; i++) {
    sc[i] = R->L;
    sc[N + i] = R->V;
  }
  sc[2 * N] = R->L;
  impactfit__hyb_release(&ws->H);
  int st = impactfit__hyb_init(&ws->H, (size_t)(2 * N + 1), rhs, &R->M, p->rtol, sc);
  if (st)
    return IMPACTFIT__FAIL(err, st, "cannot set up the integrator");
  R->H = &ws->H;
  impactfit__hyb_restart(R->H, 1e-3 * R->T);
  return 0;
}

static void state_to_y(const runner *R, const impactfit_mb1d_state *s, double *y) {
  int N = R->M.N;
  for (int i = 0; i < N; i++) {
    y[i] = s->x[i];
    y[N + i] = s->v[i];
  }
  y[2 * N] = s->in_contact ? 0.0 : s->element;
}

static void y_to_state(const runner *R, double t, const double *y, impactfit_mb1d_state *s) {
  int N = R->M.N;
  for (int i = 0; i < N; i++) {
    s->x[i] = y[i];
    s->v[i] = y[N + i];
  }
  s->t = t;
  s->in_contact = R->M.in_contact;
  s->element = R->M.in_contact ? -y[R->M.cm] : (R->M.relax ? y[2 * N] : 0.0);
}

int impactfit_mb1d_simulate(impactfit_mb1d_workspace *ws, const impactfit_mb1d_system *S,
                            const impactfit_mb1d_params *p, impactfit_mb1d_state *state, double t_end,
                            impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  int st;
  if (!ws)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace given");
  if ((st = impactfit_mb1d_check(S, err)) || (st = check_params(p, err)))
    return st;
  if (!state || !isfinite(state->t) || !isfinite(t_end) || !(t_end > state->t))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "t_end must be a finite time after the start");
  for (int i = 0; i < S->n_masses; i++)
    if (!isfinite(state->x[i]) || !isfinite(state->v[i]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "initial state of mass %d is not finite", i);
  if (!isfinite(state->element) || (!state->in_contact && state->element < 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "element compression must be finite, and >= 0 out of contact");
  runner R;
  if ((st = runner_init(&R, ws, S, p, err)))
    return st;
  ws->n_periods = 0;
  R.reporting = 1;
  R.M.in_contact = state->in_contact ? 1 : 0;
  double y[IMPACTFIT__HYB_MAXDIM], t = state->t;
  state_to_y(&R, state, y);
  if (p->trace_points > 0) {
    double dt = R.T / p->trace_points;
    R.sampling = 1;
    R.smp = (impactfit__hyb_sampler){t, dt, 1, (long)floor((t_end - t) / dt * (1.0 + 1e-15))};
    if ((st = emit(&R, 0, t, y)))
      return st;
  }
  R.window_start = t;
  st = advance(&R, &t, y, t_end, err);
  y_to_state(&R, t, y, state);
  return st;
}

/* ---- steady state ----------------------------------------------------------------------------- */

static double sample_distance(const runner *R, const double *a, const double *b) {
  int N = R->M.N;
  if (a[2 * N + 1] != b[2 * N + 1])
    return INFINITY; /* contact flags differ */
  double d = 0.0;
  for (int i = 0; i < N; i++) {
    d = fmax(d, fabs(a[i] - b[i]) / R->L);
    d = fmax(d, fabs(a[N + i] - b[N + i]) / R->V);
  }
  return fmax(d, fabs(a[2 * N] - b[2 * N]) / R->L);
}

static void period_reset(runner *R, double t) {
  memset(&R->cur, 0, sizeof R->cur);
  R->cur.t_start = t;
  R->cur.a_min = R->cur.f_min = R->cur.delta_min = INFINITY;
  R->cur.a_max = R->cur.f_max = R->cur.delta_max = -INFINITY;
  R->contact_time = R->touch_time = R->untouched_time = 0.0;
}

static void period_finish(runner *R) {
  impactfit_mb1d_period *P = &R->cur;
  P->contact_fraction = R->contact_time / R->T;
  P->touch_fraction = R->touch_time / R->T;
  P->untouched_force_fraction = R->untouched_time / R->T;
  if (!isfinite(P->f_min))
    P->f_min = P->f_max = 0.0;
}

/* The Poincaré samples of the last 2Q + 1 periods (positions, velocities, element compression, contact
 * flag; dim = 2N + 2 each) and the distances d_q of the last Q + 1 periods for each multiplicity q ≤ Q. */
typedef struct psamples {
  int N, dim, Q, ring;
  double *buf, *dhist;
} psamples;

static double *ps_sample(const psamples *ps, int j) { return ps->buf + (size_t)(j % ps->ring) * (size_t)ps->dim; }

static double *ps_dhist(const psamples *ps, int q, int j) { return &ps->dhist[q * (ps->Q + 1) + j % (ps->Q + 1)]; }

/* Stores the Poincaré sample of period j from the state y. */
static void ps_store(const psamples *ps, const runner *R, const double *y, int j) {
  int N = ps->N;
  double *s = ps_sample(ps, j);
  memcpy(s, y, (size_t)(2 * N) * sizeof y[0]);
  s[2 * N] = R->M.in_contact ? -y[R->M.cm] : (R->M.relax ? y[2 * N] : 0.0);
  s[2 * N + 1] = R->M.in_contact;
}

/* Advances period by period from (t, y), sample 0 stored, until the samples repeat with a multiplicity
 * q ≤ Q (the criterion below): *q_out, *J_out (the period where it was found), *dist (the distance d_q)
 * and *est (the estimated remaining error). ENOCONV after max_periods. */
static int find_steady(runner *R, const psamples *ps, const impactfit_mb1d_params *p, double *t, double *y, int *q_out,
                       int *J_out, double *dist_out, double *est_out, impactfit_error *err) {
  int st, Q = ps->Q;
  int J = 0, q = 0;
  double dist = INFINITY, best[65], est = INFINITY;
  for (int k = 0; k <= Q; k++)
    best[k] = INFINITY;
  for (int k = 0; k < (Q + 1) * (Q + 1); k++)
    ps->dhist[k] = INFINITY;
  R->window_start = 0.0;
  for (int j = 1; j <= p->max_periods && !q; j++) {
    if ((st = advance(R, t, y, j * R->T, err)))
      return st;
    ps_store(ps, R, y, j);
    for (int qq = 1; qq <= Q && !q; qq++) {
      if (j < 2 * qq)
        break;
      /* d: distance of the last q samples from those q periods earlier; rho: its decay over q
       * periods. Near a fixed point of the q-period map the remaining error of the current sample
       * is about d·rho/(1 − rho): a slowly decaying transient (rho near 1, e.g. an alternating
       * one that makes s_j − s_{j−2} small long before s_j − s_{j−1}) is not yet a steady state. */
      double d = 0.0;
      for (int r = 0; r < qq; r++)
        d = fmax(d, sample_distance(R, ps_sample(ps, j - r), ps_sample(ps, j - r - qq)));
      double dprev = *ps_dhist(ps, qq, j - qq);
      *ps_dhist(ps, qq, j) = d;
      if (d < best[qq])
        best[qq] = d;
      double rho = (dprev > 0.0 && isfinite(dprev)) ? d / dprev : 1.0;
      double e = (rho < 1.0) ? d / (1.0 - rho) : INFINITY;
      int ok = d <= 1e-2 * p->ss_tol || (d <= p->ss_tol && e <= p->ss_tol);
      /* A genuine period-q orbit differs between its phases by far more than the tolerance: when
       * a proper divisor q' of q nearly repeats (d_q' ≤ SUBPERIOD_FACTOR·ss_tol), the motion is
       * converging to the shorter period and we wait for it. */
      for (int q2 = 1; ok && q2 < qq; q2++)
        if (qq % q2 == 0 && *ps_dhist(ps, q2, j) <= SUBPERIOD_FACTOR * p->ss_tol)
          ok = 0;
      if (ok) {
        q = qq;
        dist = d;
        est = fmin(e, d);
        J = j;
      }
    }
  }
  if (!q) {
    double b = INFINITY;
    int bq = 0;
    for (int k = 1; k <= Q; k++)
      if (best[k] < b)
        b = best[k], bq = k;
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                           "no periodic steady state of multiplicity <= %d within %d periods (closest: "
                           "multiplicity %d at scaled distance %.3g > %.3g)",
                           Q, p->max_periods, bq, b, p->ss_tol);
  }
  *q_out = q;
  *J_out = J;
  *dist_out = dist;
  *est_out = est;
  return 0;
}

/* Records the nrec steady-state periods after period J (multiplicity q) into ws->periods, and the trace
 * when one is asked for; raises *dist to the largest distance of a sample from the one q periods
 * earlier, *contrast to the largest from the previous period. */
static int record_periods(runner *R, const psamples *ps, const impactfit_mb1d_params *p, impactfit_mb1d_workspace *ws,
                          int nrec, int q, int J, double *t, double *y, double *dist, double *contrast,
                          impactfit_error *err) {
  int st;
  R->stats = 1;
  R->reporting = 1;
  if (p->trace_points > 0 && p->fn) {
    R->sampling = 1;
    R->smp = (impactfit__hyb_sampler){J * R->T, R->T / p->trace_points, 1, (long)nrec * p->trace_points};
    if ((st = emit(R, 0, *t, y)))
      return st;
  }
  for (int r = 0; r < nrec; r++) {
    int j = J + r + 1;
    period_reset(R, *t);
    if ((st = advance(R, t, y, j * R->T, err)))
      return st;
    period_finish(R);
    ws->periods[r] = R->cur;
    ws->n_periods = r + 1;
    ps_store(ps, R, y, j);
    *dist = fmax(*dist, sample_distance(R, ps_sample(ps, j), ps_sample(ps, j - q)));
    *contrast = fmax(*contrast, sample_distance(R, ps_sample(ps, j), ps_sample(ps, j - 1)));
  }
  return 0;
}

/* The summary over the nrec recorded periods: ranges, means, contact and force flags. */
static void summarise(impactfit_mb1d_result *res, const impactfit_mb1d_workspace *ws, int nrec) {
  res->n_periods = nrec;
  res->a_max = res->f_max = res->delta_max = -INFINITY;
  res->a_min = res->f_min = res->delta_min = INFINITY;
  int any_contact = 0;
  for (int r = 0; r < nrec; r++) {
    const impactfit_mb1d_period *P = &ws->periods[r];
    res->losses_per_period += P->contact_losses;
    res->contact_fraction += P->contact_fraction;
    res->touch_fraction += P->touch_fraction;
    upd(P->a_max, &res->a_min, &res->a_max);
    upd(P->a_min, &res->a_min, &res->a_max);
    upd(P->delta_max, &res->delta_min, &res->delta_max);
    upd(P->delta_min, &res->delta_min, &res->delta_max);
    if (P->contact_fraction > 0.0 || P->contact_starts || P->contact_losses) {
      any_contact = 1;
      upd(P->f_max, &res->f_min, &res->f_max);
      upd(P->f_min, &res->f_min, &res->f_max);
    }
    if (P->untouched_force_fraction > UNTOUCHED_FLOOR)
      res->untouched_force = 1;
  }
  res->losses_per_period /= nrec;
  res->contact_fraction /= nrec;
  res->touch_fraction /= nrec;
  if (!any_contact)
    res->f_min = res->f_max = 0.0;
  res->tensile = res->f_min < -TENSILE_FLOOR * fmax(fabs(res->f_max), fabs(res->f_min));
}

int impactfit_mb1d_steady(impactfit_mb1d_workspace *ws, const impactfit_mb1d_system *S, const impactfit_mb1d_params *p,
                          impactfit_mb1d_result *res, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  int st;
  if (!ws || !res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace or result given");
  if ((st = impactfit_mb1d_check(S, err)) || (st = check_params(p, err)))
    return st;
  memset(res, 0, sizeof *res);
  ws->n_periods = 0;
  impactfit_mb1d_state s0;
  if ((st = impactfit_mb1d_equilibrium(S, &s0, err)))
    return st;
  runner R;
  if ((st = runner_init(&R, ws, S, p, err)))
    return st;
  R.M.in_contact = s0.in_contact;
  psamples ps;
  ps.N = S->n_masses;
  ps.dim = 2 * ps.N + 2;
  ps.Q = p->max_multiplicity;
  ps.ring = 2 * ps.Q + 1;
  ps.buf = malloc((size_t)ps.ring * (size_t)ps.dim * sizeof *ps.buf);
  ps.dhist = malloc((size_t)((ps.Q + 1) * (ps.Q + 1)) * sizeof *ps.dhist);
  if (!ps.buf || !ps.dhist) {
    free(ps.dhist);
    free(ps.buf);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  double y[IMPACTFIT__HYB_MAXDIM], t = 0.0;
  state_to_y(&R, &s0, y);
  y[2 * ps.N] = 0.0;
  ps_store(&ps, &R, y, 0);
  int J = 0, q = 0;
  double dist = INFINITY, est = INFINITY, contrast = 0.0;
  if ((st = find_steady(&R, &ps, p, &t, y, &q, &J, &dist, &est, err)))
    goto out;
  int nrec = p->record_periods > 0 ? p->record_periods : 2 * q;
  if (nrec > IMPACTFIT_MB1D_MAX_RECORD)
    nrec = IMPACTFIT_MB1D_MAX_RECORD;
  if ((st = record_periods(&R, &ps, p, ws, nrec, q, J, &t, y, &dist, &contrast, err)))
    goto out;
  res->multiplicity = q;
  res->transient_periods = J;
  res->distance = dist;
  res->error_estimate = est;
  res->period_contrast = contrast;
  summarise(res, ws, nrec);
  res->length_scale = R.L;
  res->velocity_scale = R.V;
  res->steps = R.H->steps;
  res->rhs_evals = R.M.nevals;
  st = 0;
out:
  free(ps.dhist);
  free(ps.buf);
  return st;
}

double impactfit_mb1d_excitation_period(const impactfit_mb1d_system *sys) {
  return (sys && sys->omega > 0.0) ? 2.0 * M_PI / sys->omega : NAN;
}
