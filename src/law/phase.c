/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The statistics of e over the phase of the first contact step (include/impactfit/stepper.h): the impacts
 * at the samples, the jumps of the signature by bisection, the quadrature on every smooth piece, the extremes
 * refined inside their pieces; the continuous-time impact of a stepper's law. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <omp.h>

#include "../common/common_impl.h"
#include "impactfit/stepper.h"
#include "step_internal.h"
#include "stepper_impl.h"

/* ---------------------------------------------------------------- statistics over the phase */

typedef struct {
  const impactfit_stepper *st;
  double v;
  int lean; /* no linearisation: the inverse's search */
  impactfit_step_stats *S;
  impactfit_error *err;
  int status;
  int until_unstable;      /* stop at the first impact that shows the step unstable (STATS_STABILITY) */
  double piece_a, piece_w; /* the smooth piece the quadrature integrates: [piece_a, piece_a + piece_w] */
  int sidi;                /* 1: in Sidi's variable t (gl) */
  impactfit__family *fam;  /* the family of reference impacts (NULL: every impact stepped in full) */
  int gl4_off;             /* a piece's 4-point rules disagreed: the other pieces start with the 8-point rules */
  double flat;             /* > 0: every sample's e within FLAT of the others, this their spread (find_jumps) */
  struct eval_log *log;    /* a job's impacts, kept for the accounting in order (run_jobs; NULL: accounted at once) */
  int par;                 /* the jobs may run on the threads of an OpenMP team (no family: nothing shared) */
} phase_ctx;

/* One job's impacts in the order it computed them, accounted into the statistics in the jobs' order (run_jobs) */
typedef struct {
  double phi;
  impactfit_step_impact r;
} eval_rec;
typedef struct eval_log {
  eval_rec *rec;
  int n, cap;
} eval_log;

#define STOP_UNSTABLE 1 /* eval's status when it stopped there (not an error) */


/* one impact into the statistics: its work and the extremes (the first phase that reached one keeps it) */
static void account(impactfit_step_stats *S, double phi, const impactfit_step_impact *r) {
  S->impacts++;
  S->steps += r->work;
  if (r->steps > S->steps_max)
    S->steps_max = r->steps;
  if (r->rho_max > S->rho_max)
    S->rho_max = r->rho_max;
  if (r->e < S->e_min) {
    S->e_min = r->e;
    S->phi_min = phi;
  }
  if (r->e > S->e_max) {
    S->e_max = r->e;
    S->phi_max = phi;
  }
}

static int log_grow(eval_log *L) {
  int cap = L->cap ? 2 * L->cap : 32;
  eval_rec *n = realloc(L->rec, (size_t)cap * sizeof *n);
  if (!n)
    return 0;
  L->rec = n;
  L->cap = cap;
  return 1;
}

static int eval(phase_ctx *c, double phi, double *e, uint64_t *sig) {
  impactfit_step_impact r;
  impactfit__family_begin(c->fam);
  int s = impactfit__step_impact(c->st, c->v, phi, c->lean, STEP_LIMIT, impactfit__family_hooks(c->fam), &r, c->err);
  if (s == IMPACTFIT_ENOSEP && r.steps >= STEP_LIMIT)
    s = impactfit__step_limit_verdict(c->st, c->v, c->err);
  /* the rule of phase_stats' check before stepping, for the modes without it (the inverse's quick means) */
  if (!s && r.work > STEP_LIMIT / 4 && impactfit__step_limit_verdict(c->st, c->v, c->err) == IMPACTFIT_ENOCONV)
    s = IMPACTFIT_ENOCONV;
  if (s) {
    c->status = s;
    return s;
  }
  if (!c->log) {
    account(c->S, phi, &r);
  } else if (c->log->n < c->log->cap || log_grow(c->log)) {
    c->log->rec[c->log->n++] = (eval_rec){phi, r};
  } else {
    c->status = IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper: out of memory");
    return c->status;
  }
  *e = r.e;
  if (sig)
    *sig = r.signature;
  if (c->until_unstable && (r.e > 1.0 || r.rho_max > 1.0 + 1e-9)) {
    c->status = STOP_UNSTABLE;
    return STOP_UNSTABLE;
  }
  return 0;
}

/* 8-point Gauss–Legendre on [a, b] */
static const double gl_x[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
static const double gl_w[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};

/* The quadrature of a smooth piece [a, a + w] of e(φ) runs in t ∈ [0, 1] with φ = a + w s(t), s(t) = t⁴(35 − 84t
 * + 70t² − 20t³), s'(t) = 140 t³(1 − t)³ (Sidi's polynomial transformation): e(φ) has a fractional power of
 * φ − a at a piece's ends wherever the first or last contact step starts at a penetration → 0 in a law with
 * δ^p, p < 1 (Chrono's PlainCoulomb and Hertz dampings δ^(1/2) δ', δ^(1/4) δ'), which Gauss–Legendre in φ
 * integrates to only ~1e-10 (issue 39 item 5: 2.0e-10 off); in t the integrand is smooth (t³ and higher). */
static double sidi(double t) { return t * t * t * t * (35.0 + t * (-84.0 + t * (70.0 - 20.0 * t))); }
static double sidi_d(double t) {
  double u = t * (1.0 - t);
  return 140.0 * u * u * u;
}

/* 4-point Gauss–Legendre */
static const double g4_x[2] = {0.3399810435848563, 0.8611363115940526};
static const double g4_w[2] = {0.6521451548625461, 0.3478548451374538};

/* a Gauss–Legendre rule: its nodes ±x[i] on [−1, 1] and weights w[i], i < half */
typedef struct {
  int half;
  const double *x, *w;
} gl_rule;
static const gl_rule GL4 = {2, g4_x, g4_w}, GL8 = {4, gl_x, gl_w};

/* The rule q on [ta, tb] of the piece's integrand in t (φ = a + w t where c->sidi is 0) */
static int gl(phase_ctx *c, const gl_rule *q, double ta, double tb, double *out) {
  double m = 0.5 * (ta + tb), r = 0.5 * (tb - ta), sum = 0.0, e1, e2;
  for (int i = 0; i < q->half; i++) {
    double t1 = m - r * q->x[i], t2 = m + r * q->x[i];
    double s1 = c->sidi ? sidi(t1) : t1, s2 = c->sidi ? sidi(t2) : t2;
    if (eval(c, c->piece_a + c->piece_w * s1, &e1, NULL) || eval(c, c->piece_a + c->piece_w * s2, &e2, NULL))
      return c->status;
    sum += c->sidi ? q->w[i] * (e1 * sidi_d(t1) + e2 * sidi_d(t2)) : q->w[i] * (e1 + e2);
  }
  *out = c->piece_w * r * sum;
  return 0;
}

static int adapt(phase_ctx *c, double a, double b, double whole, int depth, double *out) {
  double m = 0.5 * (a + b), l, r;
  if (gl(c, &GL8, a, m, &l) || gl(c, &GL8, m, b, &r))
    return c->status;
  if (depth >= 10 || fabs(l + r - whole) <= 1e-12 * (b - a) * c->piece_w) {
    *out = l + r;
    return 0;
  }
  double L2, R2;
  if (adapt(c, a, m, l, depth + 1, &L2) || adapt(c, m, b, r, depth + 1, &R2))
    return c->status;
  *out = L2 + R2;
  return 0;
}

/* A piece's integral: Gauss–Legendre in φ on the piece and its halves, 4 points each (12 impacts) where they
 * agree to GL4_TOL, else 8 points each (24 impacts) where they agree to 1e-12, as for a smooth e(φ); else
 * adaptively in Sidi's t (a fractional power at an end). The halves' sum is kept, its error about the
 * disagreement over 2^8 − 1 (4 points) or 2^16 − 1 (8 points): below 4e-17 of the piece's width either way.
 * Once the 4-point rules disagree on a piece (a fractional power at its ends, as Chrono's dampings have at
 * every piece) the other pieces of the statistics start with the 8-point rules. The 4-point rules take a
 * quarter of the phases' impacts off where e(φ) has many smooth pieces (MuJoCo's rk4 at dt 1e-5 s, 15 pieces:
 * 643 → 463 impacts). */
#define GL4_TOL 1e-14
/* The 4-point rules on the piece [a, b] (the piece set into c): 0 with *out the halves' sum and *agree whether they
 * agree with the whole's to GL4_TOL, or a status */
static int gl4_rules(phase_ctx *c, double a, double b, double *out, int *agree) {
  double whole, l, r;
  c->piece_a = a;
  c->piece_w = b - a;
  c->sidi = 0;
  if (gl(c, &GL4, 0.0, 1.0, &whole) || gl(c, &GL4, 0.0, 0.5, &l) || gl(c, &GL4, 0.5, 1.0, &r))
    return c->status;
  *agree = fabs(l + r - whole) <= GL4_TOL * c->piece_w;
  *out = l + r;
  return 0;
}

static int piece_integral(phase_ctx *c, double a, double b, double *out) {
  double whole, l, r;
  if (!c->gl4_off) {
    int agree;
    if (gl4_rules(c, a, b, out, &agree))
      return c->status;
    if (agree)
      return 0;
    c->gl4_off = 1;
  }
  c->piece_a = a;
  c->piece_w = b - a;
  c->sidi = 0;
  if (gl(c, &GL8, 0.0, 1.0, &whole) || gl(c, &GL8, 0.0, 0.5, &l) || gl(c, &GL8, 0.5, 1.0, &r))
    return c->status;
  if (fabs(l + r - whole) <= 1e-12 * c->piece_w) {
    *out = l + r;
    return 0;
  }
  c->sidi = 1;
  if (gl(c, &GL8, 0.0, 1.0, &whole))
    return c->status;
  return adapt(c, 0.0, 1.0, whole, 0, out);
}

#define MAX_JUMPS 4096

/* the breaks found (at most MAX_JUMPS: the rest are dropped, as pieces_mean's dense case needs to know) */
typedef struct {
  double *at;
  int n, cap;
} jumps;

/* x into J: 0, or ENOMEM (c's status) */
static int jumps_add(phase_ctx *c, jumps *J, double x) {
  if (J->n >= MAX_JUMPS)
    return 0;
  if (J->n == J->cap) {
    int cap = J->cap ? 2 * J->cap : 16;
    double *n = realloc(J->at, (size_t)cap * sizeof *n);
    if (!n)
      return c->status = IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper: out of memory");
    J->at = n;
    J->cap = cap;
  }
  J->at[J->n++] = x;
  return 0;
}

/* A side of a bracket: the phase, the signature and e there (every e evaluated enters the extremes), and the
 * slope of e on its piece from the last two points there (NaN: not known yet). */
typedef struct {
  double phi, e;
  uint64_t sig;
  double slope;
} side;

/* The jumps of the signature between l and r, by bisection. A change of signature is a point where
 * e(φ) or one of its derivatives may jump. Placing the break at the bracket's midpoint errs in the
 * mean by at most (r − l)/2 · (|e(r) − e(l)| + (r − l)(|e_l'| + |e_r'|)) with e_l', e_r' the slopes of the two
 * pieces (from the last two points on each side; 1 while not known): bisection stops when that is below
 * 1e-15, or at r − l ≤ 1e-13. A jump J of e is thus located to 2e-15/|J|, a point where only a derivative
 * jumps (e continuous: a clamp or a knot of the law acting) to about √(1e-15/|e'|), in ~20 evaluations
 * instead of ~37. */
static int find_jumps(phase_ctx *c, side l, side r, int depth, jumps *J) {
  if (l.sig == r.sig)
    return 0;
  /* where the samples are flat (c->flat), an unknown slope is their spread over the samples' spacing, and the
   * bisection stops at any width once the bound is below 1e-17 */
  double s0 = c->flat > 0.0 ? c->flat * 64.0 : 1.0;
  double w = r.phi - l.phi, sl = isnan(l.slope) ? s0 : fabs(l.slope), sr = isnan(r.slope) ? s0 : fabs(r.slope);
  double bound = 0.5 * w * (fabs(r.e - l.e) + w * (sl + sr));
  if (w <= 1e-13 || depth > 60 || (w <= 1e-4 && bound <= 1e-15) || (c->flat > 0.0 && bound <= 1e-17)) {
    return jumps_add(c, J, 0.5 * (l.phi + r.phi));
  }
  side m = {.phi = 0.5 * (l.phi + r.phi), .slope = NAN};
  if (eval(c, m.phi, &m.e, &m.sig))
    return c->status;
  side ml = m, mr = m; /* m as the right side of [l, m] and the left of [m, r] */
  if (m.sig == l.sig)
    ml.slope = mr.slope = (m.e - l.e) / (m.phi - l.phi);
  if (m.sig == r.sig)
    mr.slope = ml.slope = (r.e - m.e) / (r.phi - m.phi);
  if (find_jumps(c, l, ml, depth + 1, J))
    return c->status;
  return find_jumps(c, mr, r, depth + 1, J);
}

/* The breaks of e(φ) between l and r where the signature changes almost everywhere (pieces_mean's dense case: every
 * phase's contact takes another sequence of branches while e stays smooth or even constant across most of them, as
 * DART's push-out at maxERV, whose number of steps changes with φ): by e alone, each bracket split at its midpoint
 * until e there is on the chord of its ends to 1e-15 (no break: e linear across, which the pieces' rules then
 * integrate exactly), a break placed where the chord's area error is below 1e-15 (w ≤ 1e-4, or w ≤ 1e-13). */
static int find_kinks(phase_ctx *c, side l, side r, int depth, jumps *J) {
  double w = r.phi - l.phi;
  side m = {.phi = 0.5 * (l.phi + r.phi), .slope = NAN}; /* its signature is not read */
  if (eval(c, m.phi, &m.e, NULL))
    return c->status;
  double dev = fabs(m.e - 0.5 * (l.e + r.e));
  if (dev <= 1e-15)
    return 0;
  if (w <= 1e-13 || depth > 60 || (w <= 1e-4 && dev * w <= 1e-15)) {
    return jumps_add(c, J, m.phi);
  }
  if (find_kinks(c, l, m, depth + 1, J))
    return c->status;
  return find_kinks(c, m, r, depth + 1, J);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The continuous-time impact of the stepper's law (or of its `continuous` law): 0 with *r, or a status
 * (EINVAL when it has none). */
int impactfit__step_continuous_impact(const impactfit_stepper *st, double v, impactfit_law_impact_result *r) {
  if (st->gravity != 0.0) /* law.h's impact has no gravity */
    return IMPACTFIT_EINVAL;
  impactfit_law law;
  const impactfit_transition *end = st->end ? st->end : impactfit_transition_C;
  if (!st->type || st->type->needs_law)
    law = st->law;
  else if (!(st->type->continuous && st->type->continuous(st, &law, &end) == 0))
    return IMPACTFIT_EINVAL;
  impactfit_law_impact_params lp = impactfit_law_impact_default_params();
  lp.law = law;
  lp.mass = st->mass;
  lp.v = v;
  lp.transition = end;
  impactfit_error e2;
  return impactfit_law_impact_solve(NULL, &lp, r, &e2);
}

/* The continuous-time e (NaN when the stepper has none or the law's engine fails). */
double impactfit__step_continuous_e(const impactfit_stepper *st, double v) {
  impactfit_law_impact_result r;
  return impactfit__step_continuous_impact(st, v, &r) == 0 ? r.e_out : NAN;
}

/* An impact that ran into the step limit: the bodies stick (ENOSEP, as the message says), unless the
 * continuous-time contact separates after more than a quarter of the limit's steps, so that the limit and not
 * the contact ended it: then ENOCONV saying that dt is too small to be stepped through (not a NaN nor a false
 * "stick"). */
int impactfit__step_limit_verdict(const impactfit_stepper *st, double v, impactfit_error *err) {
  impactfit_law_impact_result r;
  if (impactfit__step_continuous_impact(st, v, &r) != 0 || !(r.t_contact / st->dt > 0.25 * (double)STEP_LIMIT))
    return IMPACTFIT_ENOSEP;
  impactfit_error_clear(err);
  return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                         "stepper %s: dt = %.6g s is too small to step through: the contact lasts %.6g s in continuous "
                         "time, %.3g steps, beyond the %ld steps one impact is followed for (or the %ld it may compute "
                         "one by one); as dt -> 0 e tends to the continuous-time e = %.10g (its error is of first "
                         "order "
                         "in dt/t_contact = %.2g)",
                         st->type->name, st->dt, r.t_contact, r.t_contact / st->dt, STEP_LIMIT, STEP_LIMIT / 4, r.e_out,
                         st->dt / r.t_contact);
}

/* What phase_stats computes: everything; everything but the continuous-time e (the stability search);
 * the mean and extremes only, without the linearisation (the inverse's search: stable is then decided
 * by e ≤ 1 alone); or only the midpoint rule on QUICK_PHASES cells of φ, without the linearisation
 * (within about the largest jump/QUICK_PHASES of the exact mean: enough to bracket a root cheaply). */

/* The 16-phase midpoint rule (STATS_QUICK) */
static int quick_mean(phase_ctx *c, int known) {
  enum { NQ = QUICK_PHASES };
  impactfit_step_stats *out = c->S;
  double sum = 0.0, eq;
  for (int i = 0; i < NQ; i++) {
    if (eval(c, (i + 0.5) / NQ, &eq, NULL))
      return c->status;
    sum += eq;
  }
  out->e_mean = sum / NQ;
  out->pieces = 0;
  out->stable = (!known || out->rho_max <= 1.0 + 1e-9) && out->e_max <= 1.0;
  return 0;
}

/* The slope of e at sample i from its neighbour on the side dir (−1, 1) when that one has the same signature
 * (NaN: not known) */
static double sample_slope(const double *phi, const double *e, const uint64_t *sig, int n, int i, int dir) {
  int j = i + dir;
  return j >= 0 && j < n && sig[j] == sig[i] ? (e[j] - e[i]) / (phi[j] - phi[i]) : NAN;
}

#define FLAT 1e-14
#define DENSE 0.75

/* ---------------------------------------------------------------- jobs: the impacts on an OpenMP team */

/* A job of the statistics (a sample, a bracket's bisection, a piece's rule): its impacts through t, a copy of the
 * context; returns 0 or t's status */
typedef int (*job_fn)(phase_ctx *t, int i, void *arg);

typedef struct {
  eval_log log;
  int status;
  impactfit_error err;
} job_out;

static void job_run(const phase_ctx *c, job_fn f, void *arg, int i, job_out *o) {
  phase_ctx t = *c;
  t.log = &o->log;
  t.err = &o->err;
  t.status = 0;
  t.S = NULL;
  impactfit_error_clear(&o->err);
  int s = f(&t, i, arg);
  o->status = s ? s : t.status;
}

/* job o's impacts into the statistics in the order it computed them, then its status (a failure's message into
 * c->err): 0 or the status */
static int job_replay(phase_ctx *c, const job_out *o) {
  for (int k = 0; k < o->log.n; k++)
    account(c->S, o->log.rec[k].phi, &o->log.rec[k].r);
  if (o->status) {
    c->status = o->status;
    if (o->status != STOP_UNSTABLE && c->err)
      *c->err = o->err;
  }
  return o->status;
}

/* jobs i0 .. i1 − 1 on the threads of an OpenMP team, each into o[i] (the team the caller runs in, or one of two
 * threads; one job on the caller's thread) */
static void jobs_compute(const phase_ctx *c, int i0, int i1, job_fn f, void *arg, job_out *o) {
  if (i1 - i0 == 1) {
    job_run(c, f, arg, i0, &o[i0]);
  } else if (omp_in_parallel()) {
#pragma omp taskloop grainsize(1)
    for (int i = i0; i < i1; i++)
      job_run(c, f, arg, i, &o[i]);
  } else {
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop grainsize(1)
    for (int i = i0; i < i1; i++)
      job_run(c, f, arg, i, &o[i]);
  }
}

static void jobs_free(job_out *o, int n) {
  if (o)
    for (int i = 0; i < n; i++)
      free(o[i].log.rec);
  free(o);
}

/* Jobs 0 .. n − 1 accounted in their order up to the first that fails (its status returned): one after the other,
 * or where c->par on a team, each into its own log, then accounted in the same order, so that every statistic
 * and count is the one of the jobs one after the other (the later jobs' impacts after a failure are left out) */
static int run_jobs(phase_ctx *c, int n, job_fn f, void *arg) {
  if (!c->par || n < 2) {
    for (int i = 0; i < n; i++) {
      int s = f(c, i, arg);
      if (s)
        return s;
    }
    return 0;
  }
  job_out *o = calloc((size_t)n, sizeof *o);
  if (!o)
    return c->status = IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper: out of memory");
  int s = 0;
  jobs_compute(c, 0, n, f, arg, o);
  for (int i = 0; i < n && !s; i++)
    s = job_replay(c, &o[i]);
  jobs_free(o, n);
  return s;
}

/* ---------------------------------------------------------------- the samples, the breaks, the pieces */

enum { NS = 66 }; /* the samples */

typedef struct {
  double phi[NS], e[NS], e_end;
  uint64_t sig[NS];
  int dense;
  jumps J[NS - 1]; /* the breaks between samples i and i + 1 */
} samples;

/* job i: sample i, or (i = NS) e just below φ = 1 */
static int sample_job(phase_ctx *t, int i, void *arg) {
  samples *X = arg;
  return i < NS ? eval(t, X->phi[i], &X->e[i], &X->sig[i]) : eval(t, 1.0 - 0x1p-40, &X->e_end, NULL);
}

/* job i: the breaks between samples i and i + 1 */
static int breaks_job(phase_ctx *t, int i, void *arg) {
  samples *X = arg;
  const double *phi = X->phi, *e = X->e;
  const uint64_t *sig = X->sig;
  X->J[i].n = 0;
  if (X->dense)
    return find_kinks(t, (side){phi[i], e[i], sig[i], NAN}, (side){phi[i + 1], e[i + 1], sig[i + 1], NAN}, 0, &X->J[i]);
  return find_jumps(t, (side){phi[i], e[i], sig[i], sample_slope(phi, e, sig, NS, i, -1)},
                    (side){phi[i + 1], e[i + 1], sig[i + 1], sample_slope(phi, e, sig, NS, i + 1, 1)}, 0, &X->J[i]);
}

/* The breaks of every sample interval into J (sorted), the first MAX_JUMPS in the intervals' order */
static int gather_breaks(phase_ctx *c, samples *X, jumps *J) {
  J->n = 0;
  for (int i = 0; i + 1 < NS; i++)
    for (int k = 0; k < X->J[i].n; k++)
      if (jumps_add(c, J, X->J[i].at[k]))
        return c->status;
  if (J->n > 1) /* (no breaks: J->at is still NULL, which qsort may not be given) */
    qsort(J->at, (size_t)J->n, sizeof J->at[0], cmp_double);
  return 0;
}

/* the pieces between the breaks: [a_k, b_k], k < K */
typedef struct {
  const double *at; /* the breaks */
  int K;
  double *part; /* each piece's integral */
  int *gl4;     /* each piece's 4-point rules agreed (job_gl4) */
} pieces;

static double piece_a(const pieces *P, int k) { return k ? P->at[k - 1] : 0.0; }
static double piece_b(const pieces *P, int k) { return k < P->K - 1 ? P->at[k] : 1.0; }

/* job k: piece k's 4-point rules (piece_integral's first stage) */
static int gl4_job(phase_ctx *t, int k, void *arg) {
  pieces *P = arg;
  double a = piece_a(P, k), b = piece_b(P, k);
  if (!(b > a)) { /* two breaks at one phase: no piece (piece_integral's loop leaves it out) */
    P->gl4[k] = 1;
    P->part[k] = 0.0;
    return 0;
  }
  return gl4_rules(t, a, b, &P->part[k], &P->gl4[k]);
}

/* job k: piece k's integral from its 8-point rules on (piece_integral once the 4-point rules are off) */
static int gl8_job(phase_ctx *t, int k, void *arg) {
  pieces *P = arg;
  t->gl4_off = 1;
  P->part[k] = 0.0;
  return piece_b(P, k) > piece_a(P, k) ? piece_integral(t, piece_a(P, k), piece_b(P, k), &P->part[k]) : 0;
}

/* The pieces' integrals on a team (c->par), as piece_integral one piece after the other: the first piece alone;
 * where its 4-point rules agree the others' 4-point rules together, up to the first piece where they disagree (its
 * 8-point rules next, and every later piece's from the 8-point rules, the 4-point impacts of those left out), else
 * every piece's 8-point rules together. 0, or a status. */
static int pieces_par(phase_ctx *c, pieces *P) {
  int K = P->K, s = 0, f = 0;
  job_out *o4 = calloc((size_t)K, sizeof *o4), *o8 = calloc((size_t)K, sizeof *o8);
  if (!o4 || !o8) {
    jobs_free(o4, 0), jobs_free(o8, 0);
    return c->status = IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper: out of memory");
  }
  if (!c->gl4_off) {
    jobs_compute(c, 0, 1, gl4_job, P, o4);
    if ((s = job_replay(c, &o4[0])))
      goto done;
    if (P->gl4[0])
      jobs_compute(c, 1, K, gl4_job, P, o4);
    for (f = P->gl4[0]; f < K && o4[f].status == 0 && P->gl4[f]; f++)
      if ((s = job_replay(c, &o4[f])))
        goto done;
    if (f < K && f > 0 && (s = job_replay(c, &o4[f]))) /* its failure, or its rules' disagreement */
      goto done;
    if (f < K)
      c->gl4_off = 1;
  }
  if (f < K)
    jobs_compute(c, f, K, gl8_job, P, o8);
  for (int k = f; k < K && !s; k++)
    s = job_replay(c, &o8[k]);
done:
  jobs_free(o4, K);
  jobs_free(o8, K);
  return s;
}

/* The mean: the pieces' integrals in their order */
static int pieces_integral(phase_ctx *c, const jumps *J, double *mean) {
  int K = J->n + 1;
  double *part = calloc((size_t)K, sizeof *part);
  int *g4 = calloc((size_t)K, sizeof *g4), s = 0;
  pieces P = {J->at, K, part, g4};
  if (!part || !g4) {
    s = c->status = IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper: out of memory");
  } else if (c->par && K > 1) {
    s = pieces_par(c, &P);
  } else {
    for (int k = 0; k < K && !s; k++)
      s = piece_b(&P, k) > piece_a(&P, k) ? piece_integral(c, piece_a(&P, k), piece_b(&P, k), &part[k]) : 0;
  }
  *mean = 0.0;
  for (int k = 0; k < K && !s; k++)
    *mean += piece_b(&P, k) > piece_a(&P, k) ? part[k] : 0.0;
  free(part);
  free(g4);
  return s;
}

/* The samples, the jumps between them and the quadrature on every piece (the other modes) */
static int pieces_mean(phase_ctx *c, int mode, int known) {
  impactfit_step_stats *out = c->S;
  samples *X = calloc(1, sizeof *X);
  jumps J = {0};
  int s = 0;
  if (!X)
    return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper: out of memory");
  X->phi[0] = 0x1p-30;
  for (int i = 1; i < NS - 1; i++)
    X->phi[i] = (i - 0.5) / (NS - 2);
  X->phi[NS - 1] = 1.0;
  c->until_unstable = mode == STATS_STABILITY;
  /* the samples, and e just below φ = 1, for the extremes: the limit φ → 1⁻ may differ from e(1) (Bullet's ERP term
   * erp2 φ v at a rebound: the supremum R + erp2 is approached there, while e(1) starts the next step's sequence) */
  if ((s = run_jobs(c, NS + 1, sample_job, X)))
    goto done;
  /* the linearisation (the spectral radius, for `stable`) at these 67 phases only: the bisection's and the
   * quadrature's impacts shift the same steps by less than 1/64 of a step */
  c->lean = 1;
  /* e flat to FLAT over every sample (a restitution of 0 in an engine whose contact then ends at a rounding-level
   * speed, e ~ 1e-16, each phase through another sequence of branches: Rapier at 1/60 s and 1.5 m/s, where the
   * bisection to 1e-4 of every change found 4096 and took 2.3e6 impacts, 35 s): find_jumps' rule for it */
  double lo = X->e_end, hi = X->e_end;
  for (int i = 0; i < NS; i++)
    lo = fmin(lo, X->e[i]), hi = fmax(hi, X->e[i]);
  c->flat = hi - lo <= FLAT ? fmax(hi - lo, DBL_MIN) : 0.0;
  /* the signature changing between at least DENSE of the samples' neighbours: the breaks by e alone (find_kinks) */
  int changes = 0;
  for (int i = 0; i + 1 < NS; i++)
    changes += X->sig[i] != X->sig[i + 1];
  X->dense = c->flat == 0.0 && changes >= DENSE * (NS - 1);
  if ((s = run_jobs(c, NS - 1, breaks_job, X)) || (s = gather_breaks(c, X, &J)))
    goto done;
  if (J.n == MAX_JUMPS && !X->dense) { /* more changes than the jumps kept: the pieces would hold some of them */
    X->dense = 1;
    if ((s = run_jobs(c, NS - 1, breaks_job, X)) || (s = gather_breaks(c, X, &J)))
      goto done;
  }
  if (mode == STATS_STABILITY) { /* no impact showed the step unstable: the mean is not needed */
    out->e_mean = NAN;
  } else {
    double mean;
    if ((s = pieces_integral(c, &J, &mean)))
      goto done;
    out->pieces = J.n + 1;
    out->e_mean = mean;
  }
  out->stable = (!known || out->rho_max <= 1.0 + 1e-9) && out->e_max <= 1.0;
done:
  for (int i = 0; i + 1 < NS; i++)
    free(X->J[i].at);
  free(X);
  free(J.at);
  return s == STOP_UNSTABLE ? 0 : s;
}

/* Where one impact's steps computed one by one are at least this many, the family of reference impacts
 * passes the others over their smooth stretches (step_family.c) */
#define FAMILY_WORK 500
/* Where no family is built and the check impact took at least this long, the statistics' impacts are stepped on the
 * threads of an OpenMP team: a statistics of 300 impacts or more then takes 8 ms or more, against a team's first
 * start of 3-6 ms on the 2-core machines here, and each of its parallel regions keeps the other thread spinning for
 * a while. A choice by time and not by work, as a step's cost differs 10-fold between steppers (MuJoCo's rk4 at 1e-6
 * s and 5 m/s, 451 steps' work: 40 us, 76.5 -> 36 ms wall; DART's at 1 m/s, 501 steps, 5 us: on a team its 31
 * statistics took 40 ms wall as before and 70 ms of CPU instead of 40; Chrono's PlainCoulomb at 1e-5 s and 0.1 m/s,
 * 309 steps: 16 ms on a team against 11 ms on one thread). The numbers are the same either way (the jobs). */
#define PAR_SECONDS 25e-6
int impactfit__phase_team = 0;
#define FLOW_FAMILY 200

int impactfit__phase_stats(const impactfit_stepper *st, double v, impactfit_step_stats *out, int mode,
                           impactfit__family **keep, impactfit_error *err) {
  if (keep)
    *keep = NULL;
  impactfit_error_clear(err);
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper: NULL result");
  memset(out, 0, sizeof *out);
  int s = impactfit_stepper_check(st, err);
  if (s)
    return s;
  if (!(isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper: v must be > 0 (m/s) (got %.17g)", v);
  out->e_min = INFINITY;
  out->e_max = -INFINITY;
  out->e_continuous = NAN;
  if (!st->type) {
    impactfit_law_impact_result r;
    if ((s = impactfit__step_adaptive_impact(st, v, &r, err)))
      return s;
    out->e_mean = out->e_min = out->e_max = out->e_continuous = r.e_out;
    out->phi_min = out->phi_max = 1.0;
    out->stable = 1;
    out->pieces = 1;
    out->impacts = 1;
    out->steps_max = out->steps = r.steps;
    return 0;
  }
  /* a contact that would take more than a quarter of the step limit's work is refused before it is stepped
   * through: where one impact takes more than 4096 steps computed one by one, the continuous-time contact
   * decides (a law solve, ~50 us, skipped for the short contacts of the usual steps); where it lasts more than a
   * quarter of the step limit, the impact is followed to that work (its long runs taken at once) */
  impactfit_law_impact_result cr;
  int have_cr = 0;
  long probe_work = 0, flowed = 0;
  double probe_seconds = 0.0;
  if (mode != STATS_QUICK) {
    impactfit_step_impact probe;
    impactfit_error e5;
    double t0 = omp_get_wtime();
    int ps = impactfit__step_impact_flowed(st, v, 0.5, 1, 4096, NULL, &probe, &flowed, &e5);
    probe_seconds = omp_get_wtime() - t0;
    out->impacts++; /* the work counts it */
    out->steps += probe.work;
    probe_work = probe.work;
    if (ps == IMPACTFIT_ENOSEP && probe.work >= 4096) {
      have_cr = impactfit__step_continuous_impact(st, v, &cr) == 0;
      if (have_cr && cr.t_contact / st->dt > 0.25 * (double)STEP_LIMIT) {
        if (cr.t_contact / st->dt > 0.9 * (double)STEP_LIMIT) /* beyond the step limit whatever the work */
          return impactfit__step_limit_verdict(st, v, err);
        ps = impactfit__step_impact_flowed(st, v, 0.5, 1, STEP_LIMIT / 4, NULL, &probe, &flowed, &e5);
        out->impacts++;
        out->steps += probe.work;
        probe_work = probe.work;
        if (ps == IMPACTFIT_ENOSEP)
          return impactfit__step_limit_verdict(st, v, err);
      }
    }
  }
  int lean = mode == STATS_SEARCH || mode == STATS_QUICK;
  phase_ctx c = {.st = st, .v = v, .lean = lean, .S = out, .err = err};
  int known = !lean && st->type->needs_law && st->type->amplification;
  /* where rk4's flow took the check impact's long runs (stepper.c), every impact takes them so, no family: its
   * references would be stepped in full (5 of them against some 300 impacts at the probe's work), so not where
   * the flow took fewer than FLOW_FAMILY times the probe's work, and then the family is chosen on the work the
   * probe would have taken stepped (MuJoCo rk4 at 0.1 m/s: at 1e-6 s the flow took 91 times its work, and the
   * family takes 355 M instructions where the flow took 459 M; at 1e-7 s 264-856 times, the flow 20-40 ms where
   * the family took 90-120) */
  int by_flow = flowed >= FLOW_FAMILY * probe_work;
  long stepped_work = probe_work + flowed; /* the probe's work with its runs stepped */
  if (mode != STATS_QUICK && mode != STATS_STABILITY && stepped_work >= FAMILY_WORK && !by_flow &&
      (s = impactfit__family_build(st, v, lean, out, &c.fam, err)))
    return s;
  /* without a family nothing is shared between impacts: a team's threads may step them (every statistic and count
   * the same as one after the other) where an impact is worth a task */
  c.par = !c.fam && omp_get_max_threads() >= 2 && mode != STATS_QUICK &&
          (impactfit__phase_team > 0 || (impactfit__phase_team == 0 && probe_seconds >= PAR_SECONDS));
  s = mode == STATS_QUICK ? quick_mean(&c, known) : pieces_mean(&c, mode, known);
  if (keep && !s)
    *keep = c.fam;
  else
    impactfit__family_free(c.fam);
  if (!s && mode == STATS_FULL)
    out->e_continuous = have_cr ? cr.e_out : impactfit__step_continuous_e(st, v);
  return s;
}

/* ---------------------------------------------------------------- extremes inside a smooth piece */

typedef struct {
  phase_ctx *c;
  double sign; /* +1: the maximum, -1: the minimum */
} extreme_ctx;

static double extreme_fn(double phi, void *p) {
  extreme_ctx *x = p;
  double e;
  if (x->c->status || eval(x->c, phi, &e, NULL))
    return 0.0;
  return -x->sign * e;
}

/* The phase's e and signature (eval's, so that the extremes see it); 0 or a status. */
static int eval_sig(phase_ctx *c, double phi, double *e, uint64_t *sig) { return eval(c, phi, e, sig); }

/* The extreme at *phi0 refined where it lies inside a smooth piece (the samples and the quadrature's nodes
 * leave an interior extremum up to ~1e-8 off: Chrono's Hertz law at dt 1e-5, e_min 5.7e-9 above it): a bracket
 * of ±1/128 around it, halved until both ends have its signature and lie below (above) it, then Brent's
 * minimisation (GSL) to 1e-12 in φ; every e evaluated enters the extremes. 0, or a status. */
static int refine_extreme(phase_ctx *c, double phi0, double sign) {
  double e0, el, er, w = 1.0 / 128.0;
  uint64_t s0, sl, sr;
  if (!(phi0 > 0.0 && phi0 < 1.0) || eval_sig(c, phi0, &e0, &s0))
    return c->status;
  for (int k = 0; k < 12; k++, w *= 0.5) {
    double l = fmax(phi0 - w, 0.5 * phi0), r = fmin(phi0 + w, 0.5 * (phi0 + 1.0));
    if (eval_sig(c, l, &el, &sl) || eval_sig(c, r, &er, &sr))
      return c->status;
    if (sl != s0 || sr != s0)
      continue; /* a break inside: closer */
    if (!(sign * e0 > sign * el && sign * e0 > sign * er))
      return 0; /* monotone here: the extreme is a piece's end, which the samples and bisection hold */
    gsl_min_fminimizer *m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    if (!m)
      return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper: out of memory");
    extreme_ctx x = {c, sign};
    gsl_function F = {extreme_fn, &x};
    if (gsl_min_fminimizer_set_with_values(m, &F, phi0, -sign * e0, l, -sign * el, r, -sign * er) == GSL_SUCCESS)
      for (int it = 0; it < 60 && !c->status; it++) {
        if (gsl_min_fminimizer_iterate(m) != GSL_SUCCESS)
          break;
        if (gsl_min_fminimizer_x_upper(m) - gsl_min_fminimizer_x_lower(m) <= 1e-12)
          break;
      }
    gsl_min_fminimizer_free(m);
    return c->status;
  }
  return 0;
}

/* e_min and e_max refined inside their pieces (the answer's statistics: forward mode, the inverse's answer) */
int impactfit__step_refine_extremes(const impactfit_stepper *st, double v, impactfit_step_stats *S,
                                    impactfit__family *fam, impactfit_error *err) {
  if (!st->type || !(S->e_min <= S->e_max))
    return 0;
  phase_ctx c = {.st = st, .v = v, .lean = 1, .S = S, .err = err, .fam = fam};
  double pmin = S->phi_min, pmax = S->phi_max;
  if (refine_extreme(&c, pmax, 1.0) || refine_extreme(&c, pmin, -1.0))
    return c.status;
  return 0;
}

int impactfit_step_phase_stats(const impactfit_stepper *st, double v, impactfit_step_stats *out, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit__family *fam;
  int s = impactfit__phase_stats(st, v, out, STATS_FULL, &fam, err);
  if (!s)
    s = impactfit__step_refine_extremes(st, v, out, fam, err);
  impactfit__family_free(fam);
  if (!s)
    out->stable = out->stable && out->e_max <= 1.0;
  return s;
}
