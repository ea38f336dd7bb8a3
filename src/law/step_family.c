/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The phase statistics' family of reference impacts (include/impactfit/stepper.h's fast path of long contacts):
 * at a step far below the contact time, the impacts of different phases follow the same smooth stretches of
 * the step map (a run of one symbol where the map is smooth but not affine: a nonlinear law away from its
 * knots), each shifted by a fraction of a step and offset from the others by a small amount. A few reference
 * impacts, stepped in full at the nodes φ_j, record their states at every step (smooth in the step index t
 * inside a stretch: P_j(t), 8-point Lagrange interpolation, exact to rounding there). Inside each stretch a
 * section, the line through reference 0's state at the stretch's matching index normal to its flow (in
 * coordinates scaled by the largest |x| and |u|), gives every trajectory that crosses it a crossing time s and
 * a label η (its coordinate along the section). Every other impact is stepped until it has crossed the
 * section; its own last states give its s and η, and it resumes at Y = Σ_j ℓ_j(η) P_j(s_j + m), m steps
 * after its crossing (ℓ_j: the Lagrange polynomials on the references' labels η_j, cubic, quartic where the check
 * asks for it; the states at one time after the crossing are smooth in the label), near the stretch's end; it
 * steps on from there (the stretch's end, the clamp, the exit). Where a stretch starts at a singular point of the
 * law (δ^m with m < 1 at δ = 0) the section waits until every reference's leave-one-out interpolation error is
 * below 1e-15 of the state's scale. The check impact at φ = 1/2, stepped in full, is also the last node; passed
 * through the family of the other nodes (a leave-one-out: a polynomial one degree below the family's, so its error
 * is a cautious estimate of the family's) it must agree with itself stepped in full to CHECK_TOL (times
 * √(steps/1e4) beyond 1e4 steps: the stepped e's own rounding) with the same signature. Where it does not, one node
 * more is recorded and the check repeated, up to NODES (the check then cubic, the family quartic), else the family
 * is not used. (MuJoCo's soft contact at dt 1e-5, rk4 and Euler, 0.1 and 0.3 m/s, contacts of 1.4e3-8.1e3 steps:
 * the check's quadratic is 1.3e-13 to 1.2e-12 off, its cubic at most 1.4e-14; the stepped e and e through the 4-
 * and the 5-node families are all within 2.3e-15 of the same map stepped in __float128 (tests/test_family.c): the
 * quadratic's error failed the check, not the stepping's rounding.) The other nodes are chosen among 32 phases
 * stepped to the check impact's first section by their labels, each the farthest in label from those chosen before
 * (the check impact's first; the label is a closed curve in φ, φ → 0 and φ = 1 nearly the same trajectory one step
 * apart, so fixed phases can coincide in label); one node where the labels agree to rounding (then φ = 1/4 is the
 * check, stepped in full and through it). The nodes are stepped without the linearisation: each stretch's spectral
 * radius is taken from the nodes' recorded states (every 4th). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/stepper.h"
#include "step_internal.h"

#define NODES 5       /* the most reference impacts (the family is a polynomial of degree nodes − 1 in λ) */
#define NODES_FIRST 4 /* the first family's: cubic */
#define MAX_RUNS 64   /* runs of an impact the family follows */
#define P 8           /* points of the interpolation in t */
#define RUN_LONG 64   /* the stretch must be at least this many steps beyond the match and before the end */
/* the shortest run a stretch of the family can be: its section's crossings must leave 2 RUN_LONG steps before its end
 * (4 RUN_LONG before: MuJoCo's rk4 at dt 1e-5 s and 0.3 m/s crosses each half of the impedance's width in 167
 * steps, which were stepped in every impact, 328 of its 982 steps computed one by one; now 168) */
#define SEG_MIN (2 * RUN_LONG)
#define INTERP_TOL 1e-15
#define CHECK_TOL 1e-13

typedef struct {
  uint64_t sym;
  long k0, n;    /* first step, steps */
  int jumped;    /* steps taken at once: its states are not kept */
  long saved;    /* the steps its runs taken at once saved (each counts one in the work) */
  double *x, *u; /* the state at the start of step i at [at(i)], k0 ≤ i ≤ k0 + n (runs not taken at once) */
  long cap;
  long gap_a, miss; /* the run's middle taken by the flow: the states at k0 + gap_a + 1 .. k0 + gap_a + miss not kept */
  double gap_rho;   /* the largest spectral radius at the flow's points (0: none) */
} frun;

/* The place of the state at the start of step i in q's arrays, -1 where it is not kept */
static long at(const frun *q, long i) {
  long k = i - q->k0;
  if (k < 0 || k > q->n)
    return -1;
  if (q->miss && k > q->gap_a)
    k = k > q->gap_a + q->miss ? k - q->miss : -1;
  return k < q->cap ? k : -1;
}

typedef struct {
  int n_runs, broken;
  frun run[MAX_RUNS];
} fref;

typedef struct {
  uint64_t sym; /* the stretch's symbol, and its first step in reference 0 */
  long k0;
  long k_sec;                  /* the section's index (reference 0's state there is on it) */
  double y0[2], n[2];          /* a point of the section and its unit normal (scaled coordinates) */
  double s[NODES], eta[NODES]; /* the references' crossing times and labels */
  long k_last[NODES];          /* the last index whose 8-point stencil stays inside each reference's run */
  const frun *q[NODES];        /* the stretch's run in each node */
  double rho; /* the largest spectral radius over the stretch (every 4th state of each node; 0: none) */
} fseg;

#define RING 16 /* the matched impact's last states */

struct impactfit__family {
  impactfit__step_hooks hooks; /* first: the hooks point at the family */
  const impactfit_stepper *st;
  int lean;            /* no linearisation: no spectral radius of the stretches */
  fref ref[NODES + 1]; /* the nodes, then the check impact (φ = 1/2) */
  int nodes;           /* NODES_FIRST to NODES, or 1 where every phase's label is the same to rounding */
  fseg seg[MAX_RUNS];
  int n_segs;
  double xs, us; /* the scales of x and u */
  fref *rec;     /* the reference being recorded (NULL: matching) */
  int done[MAX_RUNS];
  long ring_k[RING]; /* the matched impact's states at the start of step ring_k (−1: none) */
  double ring_x[RING], ring_u[RING];
  long matched; /* steps passed over */
};

/* ---------------------------------------------------------------- recording */

static int run_put(frun *q, long i, double x, double u) {
  long k = i - q->k0;
  if (k < 0)
    return 1;
  if (q->miss && k > q->gap_a) {
    if (k <= q->gap_a + q->miss)
      return 0;
    k -= q->miss;
  }
  if (k >= q->cap) {
    long cap = q->cap ? 2 * q->cap : 1024;
    while (cap <= k)
      cap *= 2;
    double *nx = realloc(q->x, (size_t)cap * sizeof *nx);
    if (!nx)
      return 0;
    q->x = nx;
    double *nu = realloc(q->u, (size_t)cap * sizeof *nu);
    if (!nu)
      return 0;
    q->u = nu;
    for (long m = q->cap; m < cap; m++)
      q->x[m] = q->u[m] = NAN;
    q->cap = cap;
  }
  q->x[k] = x;
  q->u[k] = u;
  return 1;
}

static void on_stepped(impactfit__step_hooks *h, long k, const impactfit_step_state *pre, const impactfit_step_state *s,
                       uint64_t sym, int run) {
  impactfit__family *f = (impactfit__family *)h;
  fref *r = f->rec;
  if (!r) { /* matching: the impact's last states */
    int q = (int)((k + 1) % RING);
    f->ring_k[q] = k + 1, f->ring_x[q] = s->x, f->ring_u[q] = s->u;
    return;
  }
  static const double zero[4] = {0.0, 0.0, 0.0, 0.0};
  if (r->broken || run < 0) /* steps before the first with a symbol are not kept */
    return;
  if (run >= MAX_RUNS || memcmp(pre->mem, zero, sizeof zero) || memcmp(s->mem, zero, sizeof zero)) {
    r->broken = 1; /* too many runs, or a stepper with memory: no family */
    return;
  }
  if (run >= r->n_runs) {
    r->n_runs = run + 1;
    r->run[run] = (frun){.sym = sym, .k0 = k};
  }
  frun *q = &r->run[run];
  q->n = k + 1 - q->k0;
  if (!q->jumped && (!run_put(q, k, pre->x, pre->u) || !run_put(q, k + 1, s->x, s->u)))
    r->broken = 1;
}

/* The middle of a run taken by the flow (may_flow allowed it): its states are not kept, the head's and the tail's
 * are */
static void on_flowed(impactfit__step_hooks *h, long k, long n, int run, double rho) {
  impactfit__family *f = (impactfit__family *)h;
  fref *r = f->rec;
  if (!r || r->broken)
    return;
  if (run < 0 || run >= r->n_runs || r->run[run].miss || k - r->run[run].k0 != r->run[run].n) {
    r->broken = 1;
    return;
  }
  frun *q = &r->run[run];
  q->gap_a = k - q->k0;
  q->miss = n - 1;
  q->gap_rho = rho;
  q->n = k + n - q->k0;
}

static void on_jumped(impactfit__step_hooks *h, long k, long n, int run) {
  impactfit__family *f = (impactfit__family *)h;
  fref *r = f->rec;
  if (!r || r->broken)
    return;
  if (run < 0 || run >= r->n_runs) {
    r->broken = 1;
    return;
  }
  frun *q = &r->run[run];
  q->n = k + n - q->k0;
  q->jumped = 1;
  q->saved += n - 1;
  free(q->x);
  free(q->u);
  q->x = q->u = NULL;
  q->cap = 0;
}

/* ---------------------------------------------------------------- interpolation */

/* The weights of the 8-point Lagrange interpolation in t on the integers m0 .. m0 + 7 (m0 = floor(t) − 3) and
 * of its derivative: each weight's product of linear factors with its derivative by the product rule (O(P²);
 * the weights are the same products as a direct evaluation, the denominators Π_{j ≠ i} (i − j) exact) */
static long lagrange_t(double t, double w[P], double dw[P]) {
  static const double den[P] = {-5040.0, 720.0, -240.0, 144.0, -144.0, 240.0, -720.0, 5040.0};
  long m0 = (long)floor(t) - 3;
  double tau = t - (double)m0;
  for (int i = 0; i < P; i++) {
    double num = 1.0, d = 0.0;
    for (int j = 0; j < P; j++)
      if (j != i) {
        double fj = tau - (double)j;
        d = d * fj + num;
        num *= fj;
      }
    w[i] = num / den[i];
    dw[i] = d / den[i];
  }
  return m0;
}

/* P_j(t) of run r (or of the ring when r is NULL) and its derivative; 0 when the stencil leaves the states */
static int interp(const impactfit__family *f, const frun *r, double t, double y[2], double dy[2]) {
  double w[P], dw[P];
  long m0 = lagrange_t(t, w, dw);
  y[0] = y[1] = dy[0] = dy[1] = 0.0;
  for (int i = 0; i < P; i++) {
    long m = m0 + i;
    double x, u;
    if (r) {
      long p = at(r, m);
      if (p < 0)
        return 0;
      x = r->x[p], u = r->u[p];
    } else {
      int q = (int)(m % RING);
      if (m < 0 || f->ring_k[q] != m)
        return 0;
      x = f->ring_x[q], u = f->ring_u[q];
    }
    y[0] += w[i] * x, y[1] += w[i] * u;
    dy[0] += dw[i] * x, dy[1] += dw[i] * u;
  }
  return isfinite(y[0]) && isfinite(y[1]);
}

/* Where the trajectory of r (or the ring) crosses segment g's section near t: 1 with *s and *eta */
static int crossing(const impactfit__family *f, const frun *r, const fseg *g, double t, double *s, double *eta) {
  double y[2], dy[2];
  for (int it = 0; it < 20; it++) {
    if (!interp(f, r, t, y, dy))
      return 0;
    double gx = (y[0] - g->y0[0]) / f->xs, gu = (y[1] - g->y0[1]) / f->us;
    double val = gx * g->n[0] + gu * g->n[1], der = dy[0] / f->xs * g->n[0] + dy[1] / f->us * g->n[1];
    if (!(der != 0.0))
      return 0;
    double d = val / der;
    t -= d;
    if (fabs(d) <= 1e-14 * fmax(1.0, fabs(t)))
      break;
  }
  if (!interp(f, r, t, y, dy))
    return 0;
  *s = t;
  *eta = -(y[0] - g->y0[0]) / f->xs * g->n[1] + (y[1] - g->y0[1]) / f->us * g->n[0];
  return 1;
}

/* The first index i of run q where the leave-one-out interpolation of the state at i (and at the next 8) from
 * its 8 neighbours is within INTERP_TOL of the scales; -1 when none */
static long smooth_from(const frun *q, double xs, double us) {
  static const double w[P] = {-1.0 / 70.0, 8.0 / 70.0,   -28.0 / 70.0, 56.0 / 70.0,
                              56.0 / 70.0, -28.0 / 70.0, 8.0 / 70.0,   -1.0 / 70.0};
  long good = 0;
  for (long i = 4; i + 4 <= q->n; i++) { /* i predicted from i − 4 .. i − 1, i + 1 .. i + 4 */
    double px = 0.0, pu = 0.0;
    long pi = at(q, q->k0 + i);
    int kept = pi >= 0;
    for (int k = 0; k < P && kept; k++) {
      long p = at(q, q->k0 + i - 4 + k + (k >= 4));
      kept = p >= 0;
      if (kept)
        px += w[k] * q->x[p], pu += w[k] * q->u[p];
    }
    if (!kept && q->miss && i <= q->gap_a + q->miss + 4) { /* over the flow's gap: its tail next */
      good = 0;
      i = i > q->gap_a ? q->gap_a + q->miss + 4 : i;
      continue;
    }
    if (kept && fabs(px - q->x[pi]) <= INTERP_TOL * xs && fabs(pu - q->u[pi]) <= INTERP_TOL * us) {
      if (++good >= 9)
        return q->k0 + i - 8;
    } else {
      good = 0;
    }
  }
  return -1;
}

/* The largest |x| and |u| of the runs kept */
static void scales(const fref *r, double *xs, double *us) {
  for (int k = 0; k < r->n_runs; k++)
    for (long i = 0; i < r->run[k].cap; i++)
      if (isfinite(r->run[k].x[i]))
        *xs = fmax(*xs, fabs(r->run[k].x[i])), *us = fmax(*us, fabs(r->run[k].u[i]));
}

/* ---------------------------------------------------------------- matching */

static long on_skip(impactfit__step_hooks *h, int run, long k0, long k, impactfit_step_state *st, uint64_t sym,
                    double *rho) {
  impactfit__family *f = (impactfit__family *)h;
  if (f->rec)
    return 0;
  int q = 0; /* the stretch: the same symbol, starting within 16 steps of reference 0's */
  while (q < f->n_segs && !(f->seg[q].sym == sym && labs(k0 - f->seg[q].k0) <= 16))
    q++;
  if (q == f->n_segs || f->done[q])
    return 0;
  (void)run;
  const fseg *g = &f->seg[q];
  long t0 = k + 1; /* st is the state at the start of step k + 1, the ring's newest */
  if (t0 < g->k_sec + 6)
    return 0;
  f->done[q] = 1; /* one match a stretch */
  double s, eta;
  if (!crossing(f, NULL, g, (double)g->k_sec, &s, &eta) || !(fabs(s - (double)g->k_sec) <= 3.0))
    return 0;
  /* the landing: the last index every reference's stencil allows */
  double lim = INFINITY;
  for (int j = 0; j < f->nodes; j++)
    lim = fmin(lim, (double)g->k_last[j] - g->s[j]);
  long ke = (long)floor(lim + s);
  if (ke - t0 < RUN_LONG)
    return 0;
  double w[NODES], y[2] = {0.0, 0.0};
  for (int i = 0; i < f->nodes; i++) {
    w[i] = 1.0;
    for (int j = 0; j < f->nodes; j++)
      if (j != i)
        w[i] *= (eta - g->eta[j]) / (g->eta[i] - g->eta[j]);
    double yj[2], dyj[2];
    if (!interp(f, g->q[i], g->s[i] + ((double)ke - s), yj, dyj))
      return 0;
    y[0] += w[i] * yj[0], y[1] += w[i] * yj[1];
  }
  if (!(isfinite(y[0]) && isfinite(y[1])))
    return 0;
  st->x = y[0];
  st->u = y[1];
  *rho = g->rho;
  f->matched += ke - t0;
  return ke - t0;
}

/* A reference's run may be taken by the flow from step k on (include/impactfit/stepper.h's fast path of long
 * contacts) once its kept states are smooth (smooth_from, in the run's own scales) FLOW_HEAD steps before k: the
 * sections lie there, and the landings in the FLOW_MARGIN steps the flow leaves stepped before the run's end.
 * Never while matching (the members are passed over the stretches by the family). */
#define FLOW_HEAD 256
static int may_flow(impactfit__step_hooks *h, int run, long k0, long k) {
  impactfit__family *f = (impactfit__family *)h;
  const fref *r = f->rec;
  if (!r || r->broken || run < 0 || run >= r->n_runs)
    return 0;
  const frun *q = &r->run[run];
  if (q->jumped || q->miss || q->k0 != k0 || k - k0 < SEG_MIN + FLOW_HEAD)
    return 0;
  double xs = 0.0, us = 0.0;
  for (long i = 0; i < q->cap && i <= q->n; i++)
    if (isfinite(q->x[i]))
      xs = fmax(xs, fabs(q->x[i])), us = fmax(us, fabs(q->u[i]));
  long from = xs > 0.0 && us > 0.0 ? smooth_from(q, xs, us) : -1;
  return from >= 0 && k - from >= FLOW_HEAD;
}

void impactfit__family_begin(impactfit__family *f) {
  if (!f)
    return;
  memset(f->done, 0, sizeof f->done);
  for (int q = 0; q < RING; q++)
    f->ring_k[q] = -1;
}

impactfit__step_hooks *impactfit__family_hooks(impactfit__family *f) { return f ? &f->hooks : NULL; }

void impactfit__family_free(impactfit__family *f) {
  if (!f)
    return;
  for (int j = 0; j <= NODES; j++)
    for (int k = 0; k < f->ref[j].n_runs; k++) {
      free(f->ref[j].run[k].x);
      free(f->ref[j].run[k].u);
    }
  free(f);
}

/* ---------------------------------------------------------------- building */

/* The largest spectral radius of the step map linearised at every 4th state of the nodes' stretch between its
 * section and its end (the nodes are stepped without the linearisation; the impacts passed over the stretch take
 * it from here) */
static double stretch_rho(const impactfit__family *f, const fseg *g) {
  const impactfit_stepper *st = f->st;
  if (f->lean || !st->type->needs_law || !st->type->amplification)
    return 0.0;
  double r = 0.0;
  for (int j = 0; j < f->nodes; j++) {
    const frun *q = g->q[j];
    if (q->miss && q->k0 + q->gap_a + q->miss >= g->k_sec && q->k0 + q->gap_a < g->k_last[j])
      r = fmax(r, q->gap_rho); /* the flow's points inside the stretch */
    for (long i = g->k_sec; i <= g->k_last[j]; i += 4) {
      long m = at(q, i);
      if (m < 0) {
        if (q->miss && i > q->k0 + q->gap_a) /* the gap passed over */
          i += (q->k0 + q->gap_a + q->miss - i) / 4 * 4;
        continue;
      }
      double fd, fr, x = q->x[m], u = q->u[m];
      double fo = st->law.type->force(st->law.p, x, u, &fd, &fr);
      if (x > 0.0 && (fo >= 0.0 || st->end == impactfit_transition_A) && isfinite(fd) && isfinite(fr))
        r = fmax(r, st->type->amplification(st, fd, fr));
    }
  }
  return r;
}

/* The run of reference r with symbol sym starting within 16 steps of k0 (NULL: none) */
static const frun *run_near(const fref *r, uint64_t sym, long k0) {
  for (int q = 0; q < r->n_runs; q++)
    if (r->run[q].sym == sym && labs(r->run[q].k0 - k0) <= 16)
      return &r->run[q];
  return NULL;
}

/* The stretches every node steps through (a long run of reference 0 taken one step at a time, with a run of
 * the same symbol near it in every node) and their sections: 1 when there is one at least */
static int family_segments(impactfit__family *f) {
  int any = 0;
  double xs = 0.0, us = 0.0;
  for (int j = 0; j < f->nodes; j++)
    scales(&f->ref[j], &xs, &us);
  f->xs = xs, f->us = us;
  if (!(xs > 0.0 && us > 0.0))
    return 0;
  f->n_segs = 0;
  for (int r = 0; r < f->ref[0].n_runs; r++) {
    const frun *q0 = &f->ref[0].run[r];
    if (q0->jumped || q0->n < SEG_MIN || f->n_segs == MAX_RUNS)
      continue;
    fseg *g = &f->seg[f->n_segs];
    memset(g, 0, sizeof *g);
    g->sym = q0->sym, g->k0 = q0->k0;
    long ksec = 0;
    int ok = 1;
    for (int j = 0; j < f->nodes && ok; j++) {
      const frun *q = run_near(&f->ref[j], q0->sym, q0->k0);
      long from = q && !q->jumped && q->n >= SEG_MIN ? smooth_from(q, xs, us) : -1;
      ok = from >= 0;
      ksec = from + 8 > ksec ? from + 8 : ksec;
      if (ok)
        g->k_last[j] = q->k0 + q->n - 5, g->q[j] = q; /* the landing's stencil stays inside the run's states */
    }
    if (!ok)
      continue;
    double y[2], dy[2];
    if (!interp(f, g->q[0], (double)ksec, y, dy))
      continue;
    double nx = dy[0] / xs, nu = dy[1] / us, nn = hypot(nx, nu);
    g->k_sec = ksec;
    g->y0[0] = y[0], g->y0[1] = y[1];
    g->n[0] = nx / nn, g->n[1] = nu / nn;
    double lo = INFINITY, hi = -INFINITY;
    for (int j = 0; j < f->nodes && ok; j++) {
      ok = crossing(f, g->q[j], g, (double)ksec, &g->s[j], &g->eta[j]) && fabs(g->s[j] - (double)ksec) <= 3.0 &&
           g->k_last[j] - g->s[j] >= (double)(2 * RUN_LONG);
      lo = fmin(lo, g->eta[j]), hi = fmax(hi, g->eta[j]);
    }
    /* distinct labels: no two closer than a thousandth of their spread (else the cubic is ill-conditioned) */
    for (int i = 0; i < f->nodes && ok; i++)
      for (int j = i + 1; j < f->nodes; j++)
        ok = ok && fabs(g->eta[i] - g->eta[j]) > 1e-3 * (hi - lo);
    if (ok) {
      g->rho = stretch_rho(f, g);
      f->n_segs++;
      any = 1;
    }
  }
  return any;
}

/* One impact recorded into r (a node or the check); 0, or 1 when it failed or could not be recorded */
static int record(impactfit__family *f, fref *r, const impactfit_stepper *st, double v, double phi,
                  impactfit_step_stats *S, impactfit_step_impact *out) {
  impactfit_error e2;
  f->rec = r;
  int s = impactfit__step_impact(st, v, phi, 1, STEP_LIMIT, &f->hooks, out, &e2); /* lean: stretch_rho */
  f->rec = NULL;
  S->impacts++;
  S->steps += out->work;
  return s || r->broken;
}

/* The labels of SURVEY phases at the section of the check impact's first stretch, and the nodes chosen among
 * them: NODES - 1 phases in the order chosen, each the farthest in label from the check impact's (0) and those
 * chosen before (the ends of the labels' range first; the family of k nodes takes the first k − 1 and the check
 * impact); 1 where the labels agree to rounding (one node: the check impact). 0 when no section or labels. */
#define SURVEY 32
static int choose_nodes(impactfit__family *f, const impactfit_stepper *st, double v, int lean, impactfit_step_stats *S,
                        double phis[NODES]) {
  const fref *a = &f->ref[NODES];
  double xs = 0.0, us = 0.0;
  scales(a, &xs, &us);
  f->xs = xs, f->us = us;
  int r1 = -1;
  long from = -1, saved = 0;
  for (int r = 0; r < a->n_runs && r1 < 0; r++) {
    const frun *q = &a->run[r];
    if (!q->jumped && q->n >= SEG_MIN && (from = smooth_from(q, xs, us)) >= 0)
      r1 = r;
    else
      saved += q->saved;
  }
  if (r1 < 0 || !(xs > 0.0 && us > 0.0))
    return 0;
  fseg g = {.k_sec = from + 12};
  double y[2], dy[2];
  if (!interp(f, &a->run[r1], (double)g.k_sec, y, dy))
    return 0;
  double nx = dy[0] / xs, nu = dy[1] / us, nn = hypot(nx, nu);
  g.y0[0] = y[0], g.y0[1] = y[1], g.n[0] = nx / nn, g.n[1] = nu / nn;
  double sphi[SURVEY], seta[SURVEY], lo = INFINITY, hi = -INFINITY;
  int ns = 0;
  for (int i = 0; i < SURVEY; i++) {
    double phi = (i + 0.5) / SURVEY, ss, eta;
    impactfit_step_impact o;
    impactfit_error e2;
    impactfit__family_begin(f);
    impactfit__step_impact(st, v, phi, lean, g.k_sec + 9 - saved, &f->hooks, &o, &e2);
    S->impacts++;
    S->steps += o.work;
    if (crossing(f, NULL, &g, (double)g.k_sec, &ss, &eta) && fabs(ss - (double)g.k_sec) <= 3.0) {
      sphi[ns] = phi, seta[ns++] = eta;
      lo = fmin(lo, eta), hi = fmax(hi, eta);
    }
  }
  if (ns < NODES)
    return 0;
  if (!(hi - lo > 1e-15)) /* the phase does not move the label: one node (the check impact's) */
    return 1;
  /* the other nodes: each the survey phase farthest in label from those chosen (the check impact's label is 0) */
  double chosen[NODES] = {0.0};
  for (int k = 0; k + 1 < NODES; k++) {
    int best = -1;
    double bd = -1.0;
    for (int i = 0; i < ns; i++) {
      double d = INFINITY;
      for (int q = 0; q <= k; q++)
        d = fmin(d, fabs(seta[i] - chosen[q]));
      if (d > bd)
        bd = d, best = i;
    }
    chosen[k + 1] = seta[best];
    phis[k] = sphi[best];
  }
  return NODES;
}

/* The check: the impact at pcheck passed through the family of the first f->nodes nodes (the check impact itself
 * excluded where it is the last of them: excl) against full, the same impact stepped in full; 1 when they agree
 * (the same signature, e within the tolerance, the family passed over some steps), 0 when not, -1 when the impact
 * failed */
static int family_check(impactfit__family *f, const impactfit_stepper *st, double v, double pcheck, int excl,
                        const impactfit_step_impact *full, impactfit_step_stats *S) {
  impactfit_step_impact fast;
  impactfit_error e3;
  f->nodes -= excl;
  f->matched = 0;
  impactfit__family_begin(f);
  int s2 = impactfit__step_impact(st, v, pcheck, 1, STEP_LIMIT, &f->hooks, &fast, &e3);
  f->nodes += excl;
  S->impacts++;
  S->steps += fast.work;
  /* the stepped e's own rounding grows like the square root of the steps: the tolerance with it beyond 1e4 */
  double tol = CHECK_TOL * fmax(1.0, sqrt((double)full->steps / 1e4));
  if (s2)
    return -1;
  return fabs(full->e - fast.e) <= tol && full->signature == fast.signature && f->matched;
}

/* Where the check impact took at least this much work, the first family's other nodes are recorded on the threads
 * of an OpenMP team (impacts of some milliseconds each) */
#define PAR_RECORD_WORK 20000

/* The first family's nodes but the check impact (ref[0 .. nodes − 2] at phis): one after the other, or where the
 * impacts are long on an OpenMP team, each through a family of its own whose hooks record into the node (the
 * recording touches nothing else), the counts then taken in the nodes' order up to the first that failed, as one
 * after the other. 0, or 1 when a node failed or could not be recorded. */
static int record_nodes(impactfit__family *f, const impactfit_stepper *st, double v, const double *phis, long work,
                        impactfit_step_stats *S) {
  enum { N = NODES_FIRST - 1 };
  impactfit_step_impact r;
  impactfit__family *sh[N] = {NULL};
  int par = work >= PAR_RECORD_WORK && !omp_in_parallel() && omp_get_max_threads() >= 2, ok = par;
  for (int j = 0; j < N && ok; j++)
    ok = (sh[j] = calloc(1, sizeof *sh[j])) != NULL;
  if (!ok) {
    for (int j = 0; j < N; j++)
      free(sh[j]);
    for (int j = 0; j < N; j++)
      if (record(f, &f->ref[j], st, v, phis[j], S, &r))
        return 1;
    return 0;
  }
  impactfit_step_stats L[N];
  int bad[N];
  memset(L, 0, sizeof L);
#pragma omp parallel for schedule(dynamic, 1) num_threads(2)
  for (int j = 0; j < N; j++) {
    impactfit_step_impact o;
    sh[j]->hooks = f->hooks;
    bad[j] = record(sh[j], &f->ref[j], st, v, phis[j], &L[j], &o);
  }
  int failed = 0;
  for (int j = 0; j < N && !failed; j++) {
    S->impacts += L[j].impacts;
    S->steps += L[j].steps;
    failed = bad[j];
  }
  for (int j = 0; j < N; j++)
    free(sh[j]);
  return failed;
}

static void fref_swap(fref *a, fref *b) {
  fref t = *a;
  *a = *b;
  *b = t;
}

int impactfit__family_build(const impactfit_stepper *st, double v, int lean, impactfit_step_stats *S,
                            impactfit__family **out, impactfit_error *err) {
  *out = NULL;
  impactfit__family *f = calloc(1, sizeof *f);
  if (!f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "stepper: out of memory");
  f->hooks = (impactfit__step_hooks){
      .stepped = on_stepped, .jumped = on_jumped, .skip = on_skip, .may_flow = may_flow, .flowed = on_flowed};
  f->st = st;
  f->lean = lean;
  impactfit_step_impact full, r;
  double phis[NODES];
  int n = 0, ok = 0;
  /* the check impact (φ = 1/2, the last node), then the other nodes chosen by their labels */
  if (record(f, &f->ref[NODES], st, v, 0.5, S, &full) || !(n = choose_nodes(f, st, v, lean, S, phis)))
    goto refused; /* the impacts themselves say what is wrong, stepped one by one */
  if (n == 1) {   /* one node: φ = 1/4 the check, stepped in full and through it */
    f->nodes = 1;
    fref_swap(&f->ref[0], &f->ref[NODES]);
    if (family_segments(f)) {
      impactfit_error e4;
      int s1 = impactfit__step_impact(st, v, 0.25, 1, STEP_LIMIT, NULL, &full, &e4);
      S->impacts++;
      S->steps += full.work;
      ok = !s1 && family_check(f, st, v, 0.25, 0, &full, S) == 1;
    }
  } else {
    f->nodes = NODES_FIRST;
    fref_swap(&f->ref[NODES_FIRST - 1], &f->ref[NODES]); /* the check impact is the last node */
    if (record_nodes(f, st, v, phis, full.work, S))
      goto refused;
    /* the check through the family of the other nodes; where it is off (the family one degree below the one used:
     * a cautious estimate of its error), one node more, up to NODES */
    for (;;) {
      if (!family_segments(f))
        break;
      int c = family_check(f, st, v, 0.5, 1, &full, S);
      if (c == 1)
        ok = 1;
      if (c != 0 || f->nodes == NODES)
        break;
      fref_swap(&f->ref[f->nodes - 1], &f->ref[f->nodes]); /* the check moves up; the new node takes its place */
      if (record(f, &f->ref[f->nodes - 1], st, v, phis[f->nodes - 1], S, &r))
        break;
      f->nodes++;
    }
  }
  if (ok) {
    *out = f;
    return 0;
  }
refused:
  impactfit__family_free(f);
  return 0;
}
