/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The inverse problem: ζ (or c) such that a simulated impact gives the target restitution
 * (include/impactfit/inverse.h).
 *
 * All methods search on u = ln ζ (or ln c) the root of g(u) = ln e_out(e^u) − ln e, which is smooth
 * and close to linear in u over many decades. A simulation that does not separate counts as
 * g = NOSEP_G (too much damping) so that the bracket logic stays sign-based.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_gamma.h>
#include <nlopt.h>

#include "../common/common_impl.h"
#include "impactfit/committed.h"
#include "impactfit/formulas.h"
#include "impactfit/inverse.h"
#include "inverse_impl.h"

#define NOSEP_G (-50.0) /* g for a simulation without separation: e_out "below e^-50 e" */
#define MAX_EVALS 512   /* simulations recorded per point */
#define HISTORY 8       /* points used by the continuation (degree-7 extrapolation) */
/* Time bound of the simulations: 0, the engine's own default 1e4 max(1, ζ) δ_m0/v, the same as a
 * forward simulation, so that the inverse path never sees a "no separation" that `simulate` would
 * not. A fixed bound (200 δ_m0/v until 0.0.x) cut short the slow creep to δ = 0 of strongly damped
 * elements with m ≥ n, whose contact lasts a time ∝ ζ (n = m = 1.5, e = 1e-4: ζ = 6789, 251 δ_m0/v),
 * and turned them into false "no damping gives e" failures. The creep's cost that the fixed bound
 * avoided is now bounded by the engine itself: under A with m ≤ (n − 1)/2 it proves non-separation
 * from the state (creeps_forever in impact.c), with n − m < 1 the creep ends in a finite time of
 * order ζ/(K (1 − n + m)), and every contact gives up after 4e6 integrator steps. */
#define SIM_T_MAX 0.0
#define ACCEPT 0.9 /* a simulation within ACCEPT·tol of the target ends the search */

/* ---- methods -------------------------------------------------------------------------------- */

static const impactfit_root_method m_bisect = {"bisect", "bisection on ln zeta in an expanding bracket (reference)"};
static const impactfit_root_method m_fast = {"fast", "Newton step from a close guess, secant to a bracket, then Brent "
                                                     "(default)"};
static const impactfit_root_method m_nlopt = {"nlopt", "NLopt BOBYQA minimising ((e_out - e)/e)^2 over ln zeta"};
const impactfit_root_method *const impactfit_root_bisect = &m_bisect;
const impactfit_root_method *const impactfit_root_fast = &m_fast;
const impactfit_root_method *const impactfit_root_nlopt = &m_nlopt;

const impactfit_root_method *impactfit_root_method_from_name(const char *name) {
  static const impactfit_root_method *const all[] = {&m_bisect, &m_fast, &m_nlopt};
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (strcmp(name, all[i]->name) == 0)
      return all[i];
  return NULL;
}

impactfit_inverse_params impactfit_inverse_default_params(void) {
  impactfit_inverse_params p;
  memset(&p, 0, sizeof p);
  p.n = 1.5;
  p.m = 0.0;
  p.transition = impactfit_transition_C;
  p.method = impactfit_root_fast;
  p.tol = 1e-10;
  p.max_iter = 200;
  p.surrogate_guess = 1;
  return p;
}

/* ---- workspace and evaluations -------------------------------------------------------------- */

typedef struct evaluation {
  double u, g;
  int separated;
  int beyond;                                /* the engine refused the damping as out of its range (ζ > 1e12) */
  double e_out, one_minus, x_sep, t_contact; /* one_minus = 1 − e_out without cancellation */
} evaluation;

struct impactfit_inverse_workspace {
  impactfit_impact_workspace *impact;
  gsl_root_fsolver *brent;
  nlopt_opt opt;
  /* the current point */
  impactfit_impact_params base; /* c is set from u */
  double target, ln_target, tol;
  int upper; /* e > 1/2: g in terms of 1 − e */
  double one_minus_target, ln_one_minus;
  int max_iter, n_evals, converged, best;
  /* the loose stage (evaluate): simulations predicted to miss the tolerance run at loose_rtol */
  double loose_rtol;
  int loose_next;
  int loose_used;         /* a simulation of this pass ran at loose_rtol */
  int damping_only;       /* the caller's damping_only, where the error model allows it (search) */
  int damping_only_asked; /* the caller's: the result's simulation fields are NaN (not reported) */
  int damping_only_try;   /* damping_only: a tight simulation is tried at loose_rtol first (until one misses) */
  int trusted_start;      /* the search's start is a close guess (a continuation's, the surrogate's, a caller's) */
  long rhs;
  int extra_evals; /* simulations of earlier passes and verifications of this point */
  long extra_rhs;
  evaluation evals[MAX_EVALS];
  int status; /* first engine failure inside a callback */
  impactfit_error *err;
  char beyond_msg[256]; /* the engine's reason for the first damping out of its range */
  char nosep_msg[256];  /* the engine's reason for the smallest damping without separation */
  double nosep_u;
  double u_unit; /* u of the unit scaled damping ζ = 1, where bisection starts its bracket */
};

impactfit_inverse_workspace *impactfit_inverse_alloc(void) {
  impactfit_inverse_workspace *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  IMPACTFIT__GSL_SCOPE;
  ws->impact = impactfit_impact_alloc();
  ws->brent = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  ws->opt = nlopt_create(NLOPT_LN_BOBYQA, 1);
  if (!ws->impact || !ws->brent || !ws->opt) {
    impactfit_inverse_free(ws);
    return NULL;
  }
  return ws;
}

void impactfit_inverse_free(impactfit_inverse_workspace *ws) {
  if (!ws)
    return;
  impactfit_impact_free(ws->impact);
  if (ws->brent)
    gsl_root_fsolver_free(ws->brent);
  if (ws->opt)
    nlopt_destroy(ws->opt);
  free(ws);
}

/* One simulation at u = ln c (or ln ζ) with integrator tolerance rtol, into *ev. Returns 0 (also
 * when the bodies do not separate: ev->separated = 0) or the engine's failure, with *rhs its cost.
 * g = ln e_out − ln e for e ≤ 1/2, and g = ln(1 − e) − ln(1 − e_out) above, where 1 − e_out is
 * taken from the energy balance 1 − e_out² = 2 (W + U(x_end) − U(x_start)) (W the damping work,
 * integrated with relative accuracy; U = K|x|^(n+1)/(n+1) the spring energy), which has no
 * cancellation as e → 1: ζ ∝ 1 − e there, so this keeps ζ accurate to about tol relative. */
static int simulate(impactfit_inverse_workspace *ws, double u, double rtol, evaluation *ev, long *rhs,
                    impactfit_error *e2) {
  impactfit_impact_params p = ws->base;
  p.c = exp(u);
  p.rtol = rtol;
  impactfit_impact_result r;
  memset(&r, 0, sizeof r);
  impactfit_error_clear(e2);
  int st = impactfit_impact_solve(ws->impact, &p, &r, e2);
  *rhs = r.rhs_evals;
  ev->u = u;
  ev->beyond = 0;
  /* The point's own parameters were checked before the search, so an input error here is a trial
   * damping the engine does not accept (ζ > 1e12: the target needs more damping than the engine
   * simulates). It counts as too much damping, so that a root below the limit is still bracketed;
   * run_method reports the limit if the search ends there. */
  if (impactfit_status_is_input_error(st)) {
    if (!ws->beyond_msg[0])
      snprintf(ws->beyond_msg, sizeof ws->beyond_msg, "%.200s", e2->message);
    ev->beyond = 1;
    st = IMPACTFIT_ENOSEP;
  }
  if (st == IMPACTFIT_ENOSEP) {
    if (!ev->beyond && (!ws->nosep_msg[0] || u < ws->nosep_u)) {
      snprintf(ws->nosep_msg, sizeof ws->nosep_msg, "%.200s", e2->message);
      ws->nosep_u = u;
    }
    ev->separated = 0;
    ev->g = NOSEP_G;
    ev->e_out = 0.0;
    ev->one_minus = 1.0;
    ev->x_sep = ev->t_contact = 0.0;
    return 0;
  }
  if (st)
    return st;
  ev->separated = 1;
  ev->e_out = r.e_out;
  ev->x_sep = r.delta_sep / r.delta_m0;
  ev->t_contact = r.t_contact * p.v / r.delta_m0;
  double n = p.n, K = 0.5 * (n + 1.0), x0 = r.delta_start / r.delta_m0;
  double W = r.damping_work / (p.mass * p.v * p.v);
  double dU = K * (pow(fabs(ev->x_sep), n + 1.0) - pow(fabs(x0), n + 1.0)) / (n + 1.0);
  ev->one_minus = 2.0 * (W + dU) / (1.0 + r.e_out);
  if (ws->upper)
    ev->g = (ev->one_minus > 0.0) ? ws->ln_one_minus - log(ev->one_minus) : 50.0;
  else
    ev->g = (r.e_out > 0.0) ? log(r.e_out) - ws->ln_target : NOSEP_G;
  if (ev->g < NOSEP_G)
    ev->g = NOSEP_G;
  return 0;
}

/* |e_out − e| ≤ tol·min(e, 1 − e), measured on 1 − e_out above e = 1/2 */
static int within_tol(const impactfit_inverse_workspace *ws, const evaluation *ev, double tol) {
  return ws->upper ? fabs(ev->one_minus - ws->one_minus_target) <= tol * ws->one_minus_target
                   : fabs(ev->e_out - ws->target) <= tol * ws->target;
}

/* Below this |g| the next simulation of a search is expected to meet the tolerance (the secant and
 * Newton steps converge superlinearly), and runs at the tight tolerance. */
#define G_TIGHT 1e-5

/* damping_only (inverse.h): a loose simulation within this fraction of tol ends the search without
 * the tight one. Its e_out is within 0.05 tol of the exact value under C and D where needs_verification()
 * is false (sim_rtol's error model), and the tight one within 0.005 tol, so the tight simulation of the same
 * u would be within ACCEPT·tol too and be accepted: the damping returned is the one the full
 * search returns, with a margin of twice the loose error. Anything else is simulated again at the
 * tight tolerance and the search goes on as the full one, from the same doubles. */
#define DAMPING_ONLY_ACCEPT (ACCEPT - 0.1)

/* A simulation for the root search, cached: the same u is never simulated twice. The loose stage
 * (issue 34): a simulation that is expected to miss the tolerance (the first of a point searched
 * from a closed-form guess, and any after one that missed by more than G_TIGHT) only steers the
 * search, so it runs at loose_rtol (a tenth of tol: its g is then accurate to a twentieth of tol,
 * sim_rtol); where it lands within tol anyway, the same u is simulated again at the tight tolerance,
 * and only that simulation can be accepted. So the accepted simulation, the one reported, is always
 * at the search's own tolerance (never looser than the engine's default). */
static const evaluation *evaluate(impactfit_inverse_workspace *ws, double u) {
  for (int i = 0; i < ws->n_evals; i++)
    if (ws->evals[i].u == u)
      return &ws->evals[i];
  if (ws->n_evals >= ws->max_iter || ws->n_evals >= MAX_EVALS || ws->status)
    return NULL;
  evaluation *ev = &ws->evals[ws->n_evals];
  impactfit_error e2;
  long rhs = 0;
  int loose = (ws->loose_next || ws->damping_only_try) && ws->loose_rtol > ws->base.rtol;
  ws->loose_used |= loose && ws->loose_next;
  int st = simulate(ws, u, loose ? ws->loose_rtol : ws->base.rtol, ev, &rhs, &e2);
  ws->rhs += rhs;
  int extra = loose && !ws->loose_next; /* damping_only's loose try of a tight simulation */
  int kept = !st && loose && ws->damping_only && ev->separated && within_tol(ws, ev, DAMPING_ONLY_ACCEPT * ws->tol);
  if (extra && !kept)
    ws->damping_only_try = 0; /* a try missed: the point's later tight simulations are run at once */
  if (loose && !kept && (extra || (!st && ev->separated && within_tol(ws, ev, ws->tol)))) {
    st = simulate(ws, u, ws->base.rtol, ev, &rhs, &e2);
    ws->rhs += rhs;
  }
  if (st) {
    ws->status = st;
    if (ws->err)
      *ws->err = e2;
    return NULL;
  }
  ws->n_evals++;
  ws->loose_next = !(ev->separated && fabs(ev->g) <= G_TIGHT);
  /* accepted within 0.9 tol: the simulation's own error (≤ 0.05 tol, sim_rtol) must fit too */
  if (ev->separated && within_tol(ws, ev, ACCEPT * ws->tol)) {
    ws->converged = 1;
    ws->best = ws->n_evals - 1;
  }
  return ev;
}

/* Sets the target of the next solve. */
static void set_target(impactfit_inverse_workspace *ws, double e, double tol, int max_iter) {
  ws->target = e;
  ws->ln_target = log(e);
  ws->upper = (e > 0.5);
  ws->one_minus_target = 1.0 - e; /* exact for e ≥ 1/2 (Sterbenz) */
  ws->ln_one_minus = log(ws->one_minus_target);
  ws->tol = tol;
  ws->max_iter = max_iter;
}

/* Non-monotone e_out(u) among the recorded simulations (beyond rounding)? */
static int non_monotone(const impactfit_inverse_workspace *ws, double *u1, double *u2) {
  for (int i = 0; i < ws->n_evals; i++)
    for (int j = 0; j < ws->n_evals; j++) {
      const evaluation *a = &ws->evals[i], *b = &ws->evals[j];
      if (a->u < b->u && a->separated && b->separated && b->e_out > a->e_out * (1.0 + 1e-9)) {
        *u1 = a->u;
        *u2 = b->u;
        return 1;
      }
    }
  return 0;
}

/* ---- bracketing ----------------------------------------------------------------------------- */

/* Steps from u0 (value g0) in the direction that changes the sign of g, by `step` growing ×1.5,
 * until a sign change: returns 1 with the bracket [lo, hi] (g(lo) > 0 > g(hi)), 0 when converged
 * meanwhile, −1 on failure. */
static int expand_bracket(impactfit_inverse_workspace *ws, double u0, double g0, double step, double *lo, double *hi) {
  double u = u0, g = g0;
  double dir = (g0 > 0.0) ? 1.0 : -1.0; /* e_out too large → more damping */
  for (int i = 0; i < 200; i++) {
    double un = u + dir * step;
    const evaluation *ev = evaluate(ws, un);
    if (!ev)
      return -1;
    if (ws->converged)
      return 0;
    if ((ev->g > 0.0) != (g > 0.0)) {
      *lo = (dir > 0.0) ? u : un;
      *hi = (dir > 0.0) ? un : u;
      return 1;
    }
    if (dir < 0.0 && un < log(1e-300)) /* e_out stays below e however small the damping */
      return -1;
    u = un;
    g = ev->g;
    step *= 1.5;
  }
  return -1;
}

static double brent_fn(double u, void *vws) {
  impactfit_inverse_workspace *ws = vws;
  const evaluation *ev = evaluate(ws, u);
  return ev ? ev->g : 0.0;
}

/* Brent's method (GSL) inside [lo, hi] until a simulation is within tol. */
static int brent(impactfit_inverse_workspace *ws, double lo, double hi) {
  gsl_function F = {brent_fn, ws};
  if (gsl_root_fsolver_set(ws->brent, &F, lo, hi) != GSL_SUCCESS)
    return -1;
  while (!ws->converged && !ws->status) {
    if (gsl_root_fsolver_iterate(ws->brent) != GSL_SUCCESS)
      return -1;
    if (ws->converged || ws->status)
      break;
    double a = gsl_root_fsolver_x_lower(ws->brent), b = gsl_root_fsolver_x_upper(ws->brent);
    if (b - a <= 4.0 * DBL_EPSILON * fmax(1.0, fabs(a)))
      return -1; /* bracket exhausted: a jump of e_out across the target */
    if (ws->n_evals >= ws->max_iter)
      return -1;
  }
  return ws->converged ? 0 : -1;
}

/* ---- the three methods ---------------------------------------------------------------------- */

/* Bisection, the reference: it ignores every guess (the surrogate, the closed forms, a caller's or a
 * continuation's) and brackets from ζ = 1 (or c = 1) by doubling steps of ln ζ, so that its
 * answer depends on the simulations only. */
static int solve_bisect(impactfit_inverse_workspace *ws, double u0, double slope) {
  (void)slope;
  u0 = ws->u_unit;
  const evaluation *ev = evaluate(ws, u0);
  if (!ev || ws->converged)
    return ws->converged ? 0 : -1;
  double lo, hi;
  int b = expand_bracket(ws, u0, ev->g, log(2.0), &lo, &hi);
  if (b <= 0)
    return b;
  while (!ws->converged) {
    double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi))
      return -1;
    ev = evaluate(ws, mid);
    if (!ev)
      return -1;
    if (ev->g > 0.0)
      lo = mid;
    else
      hi = mid;
  }
  return 0;
}

static int solve_fast(impactfit_inverse_workspace *ws, double u0, double slope) {
  const evaluation *e0 = evaluate(ws, u0);
  if (!e0 || ws->converged)
    return ws->converged ? 0 : -1;
  double ua = u0, ga = e0->g;
  if (!(slope < 0.0))
    slope = -1.0;
  /* Newton step with the estimated slope dg/du */
  double step = -ga / slope;
  if (step > 3.0)
    step = 3.0;
  if (step < -3.0)
    step = -3.0;
  double ub = ua + step;
  const evaluation *e1 = evaluate(ws, ub);
  if (!e1 || ws->converged)
    return ws->converged ? 0 : -1;
  double gb = e1->g;
  /* secant steps until the root is bracketed */
  for (int i = 0; i < 60 && (ga > 0.0) == (gb > 0.0); i++) {
    double un;
    if (gb != ga && ga > NOSEP_G && gb > NOSEP_G)
      un = ub - gb * (ub - ua) / (gb - ga);
    else
      un = ub + ((gb > 0.0) ? 1.0 : -1.0) * 2.0 * fmax(fabs(ub - ua), 0.25);
    /* move at least a little past the predicted root, at most a factor e^3 */
    double d = un - ub;
    d *= 1.02;
    if (fabs(d) < 1e-6 * fmax(1.0, fabs(ub)))
      d = ((gb > 0.0) ? 1.0 : -1.0) * 1e-6 * fmax(1.0, fabs(ub));
    if (d > 3.0)
      d = 3.0;
    if (d < -3.0)
      d = -3.0;
    /* the secant must head towards the root: towards more damping when e_out is too large */
    if ((gb > 0.0) != (d > 0.0))
      d = ((gb > 0.0) ? 1.0 : -1.0) * fmax(fabs(ub - ua), 0.25);
    ua = ub;
    ga = gb;
    ub = ub + d;
    const evaluation *en = evaluate(ws, ub);
    if (!en || ws->converged)
      return ws->converged ? 0 : -1;
    gb = en->g;
  }
  if ((ga > 0.0) == (gb > 0.0))
    return -1;
  return brent(ws, fmin(ua, ub), fmax(ua, ub));
}

static double nlopt_fn(unsigned n, const double *x, double *grad, void *vws) {
  (void)n;
  (void)grad;
  impactfit_inverse_workspace *ws = vws;
  const evaluation *ev = evaluate(ws, x[0]);
  if (!ev) {
    nlopt_force_stop(ws->opt);
    return 1.0;
  }
  if (ws->converged)
    nlopt_force_stop(ws->opt);
  double r = ws->upper ? (ev->one_minus - ws->one_minus_target) / ws->one_minus_target
                       : (ev->e_out - ws->target) / ws->target;
  return r * r;
}

/* Bisection of the tightest bracket among the recorded simulations (the largest u with g > 0 below
 * the smallest u with g ≤ 0), until a simulation is within tol or the bracket is exhausted: how nlopt
 * finishes when BOBYQA stops short of the tolerance (a stop on its step size, or rounding in its
 * model), so that it returns the root the other methods find or their diagnosis, never a "none" of
 * its own. */
static int bisect_recorded(impactfit_inverse_workspace *ws) {
  double lo = -INFINITY, hi = INFINITY;
  for (int i = 0; i < ws->n_evals; i++) {
    const evaluation *ev = &ws->evals[i];
    if (ev->g > 0.0 && ev->u > lo)
      lo = ev->u;
  }
  for (int i = 0; i < ws->n_evals; i++) {
    const evaluation *ev = &ws->evals[i];
    if (ev->g <= 0.0 && ev->u > lo && ev->u < hi)
      hi = ev->u;
  }
  if (!isfinite(lo) || !isfinite(hi))
    return -1;
  while (!ws->converged) {
    double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi) || hi - lo <= 4.0 * DBL_EPSILON * fmax(1.0, fabs(lo)))
      return -1;
    const evaluation *ev = evaluate(ws, mid);
    if (!ev)
      return -1;
    if (ev->g > 0.0)
      lo = mid;
    else
      hi = mid;
  }
  return 0;
}

/* BOBYQA inside the bracket, stopped by the same test as the other methods (a simulation within
 * ACCEPT·tol: nlopt_force_stop from the objective). No NLopt stopval: a stop at
 * ((e_out − e)/e)² ≤ tol² accepted simulations between 0.9 tol and tol, which the search then did
 * not count as converged, and reported "no zeta" where the other methods found the root (issue 39:
 * 11 of 490 grid points of zhang-alpha's box). */
static int solve_nlopt(impactfit_inverse_workspace *ws, double u0, double slope) {
  (void)slope;
  const evaluation *ev = evaluate(ws, u0);
  if (!ev || ws->converged)
    return ws->converged ? 0 : -1;
  double lo, hi;
  int b = expand_bracket(ws, u0, ev->g, log(2.0), &lo, &hi);
  if (b <= 0)
    return b;
  nlopt_opt opt = ws->opt;
  nlopt_set_lower_bounds1(opt, lo);
  nlopt_set_upper_bounds1(opt, hi);
  nlopt_set_min_objective(opt, nlopt_fn, ws);
  nlopt_set_stopval(opt, -HUGE_VAL);
  nlopt_set_xtol_rel(opt, 1e-15);
  nlopt_set_maxeval(opt, ws->max_iter);
  double x = 0.5 * (lo + hi), dx = 0.25 * (hi - lo), f;
  nlopt_set_initial_step(opt, &dx);
  nlopt_optimize(opt, &x, &f);
  if (ws->converged)
    return 0;
  if (ws->status)
    return -1;
  return bisect_recorded(ws);
}

typedef int (*method_fn)(impactfit_inverse_workspace *, double, double);

static method_fn method_of(const impactfit_root_method *m) {
  if (m == impactfit_root_bisect)
    return solve_bisect;
  if (m == impactfit_root_nlopt)
    return solve_nlopt;
  if (m == impactfit_root_fast)
    return solve_fast;
  return NULL;
}

/* ---- initial guesses ------------------------------------------------------------------------ */

/* Starting points; the solvers do the rest. For m = 0 under C (or D) inside n ∈ [1, 2],
 * e ∈ [1e-4, 1]: the generated c_opt surrogate (ζ to ~1e-11, so one simulation usually confirms
 * it); for m = n the Ramaswamy–Humbert ε(e) (0.1 % accurate), ζ = Kε; for m = 0 elsewhere
 * Poursina & Nikravesh's Eq. (49) with their α(n), β(n) (scaled); otherwise Zhang et al.'s primary
 * formula with α = 1: ζ = 3(1−e)(m+1)/4 · e^(−(m+1)/(n+1)). */
/* The surrogate guess is reached through impactfit_committed_copt_zeta (src/generated/committed.c,
 * the one translation unit of the library that compiles committed generated headers, for the
 * bindings' sake), so this solver does not include generated output itself. It stays the default
 * (surrogate_guess = 1): a closed-form default start would move every default solve (sweeps with
 * guess = surrogate, impactfit copt, the bindings) to other doubles within tol, so outputs would
 * no longer be byte-identical; surrogate_guess = 0 gives results that do not depend on the
 * committed header, and impactfit_surrogate_build uses it (the surrogate does not start from
 * itself). */
static double guess_zeta(double n, double m, double e, const impactfit_transition *tr, int surrogate,
                         int *from_surrogate) {
  double K = 0.5 * (n + 1.0);
  if (from_surrogate)
    *from_surrogate = 0;
  if (surrogate && m == 0.0 && (tr == impactfit_transition_C || tr == impactfit_transition_D)) {
    double z;
    if (!impactfit_committed_copt_zeta(n, e, &z, NULL) && z > 0.0) { /* outside its box: EINVAL; e = 1: 0 */
      if (from_surrogate)
        *from_surrogate = 1;
      return z;
    }
  }
  if (m == n) {
    double a = 1.381, b = 0.451, p = a * (exp(-b * e) - exp(-b));
    double eps = (3.0 + 2.0 * p) * (1.0 - e * e) / (2.0 * e) / ((3.0 + 2.0 * p) / (3.0 - 2.0 * p) + e);
    return K * eps;
  }
  if (m == 0.0 && tr != impactfit_transition_A) {
    /* the published α(n), β(n) (formulas.h), in this evaluation order since the guesses were first
     * made: a different order changes α in its last bits, and with it the sweeps' converged roots */
    const double *a = impactfit_copt_formula_poursina2020->alpha_coef,
                 *b = impactfit_copt_formula_poursina2020->beta_coef;
    double al = ((a[4] * n + a[3]) * n + a[2]) * n * n + a[1] * n + a[0];
    double be = b[0] * pow(n, b[1]) + b[2];
    double z = al * (pow(e, be) - 1.0) * pow(K, 1.0 / (n + 1.0));
    if (z > 0.0 && isfinite(z))
      return z;
  }
  return 0.75 * (1.0 - e) * (m + 1.0) * pow(e, -(m + 1.0) / (n + 1.0));
}

/* ---- solving one point ---------------------------------------------------------------------- */

static int check_inverse(const impactfit_inverse_params *p, double e, impactfit_error *err) {
  if (!p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no parameters given");
  if (!(isfinite(p->n) && p->n > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spring exponent n must be a finite number > 0 (got %.17g)", p->n);
  if (!(isfinite(p->m) && p->m >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "damping exponent m must be a finite number >= 0 (got %.17g)", p->m);
  if (!(isfinite(e) && e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "restitution e must be in (0, 1] (got %.17g)", e);
  if (!method_of(p->method))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown root-finding method");
  if (!(isfinite(p->tol) && p->tol >= 1e-13 && p->tol < 0.1))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "tolerance must be between 1e-13 and 0.1 (got %.17g)", p->tol);
  if (p->max_iter < 2 || p->max_iter > MAX_EVALS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "max_iter must be between 2 and %d (got %d)", MAX_EVALS, p->max_iter);
  if (p->transition != impactfit_transition_A && p->transition != impactfit_transition_B &&
      p->transition != impactfit_transition_C && p->transition != impactfit_transition_D)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown transition condition");
  return 0;
}

/* Runs the method on the prepared workspace (base parameters, target) from u0 with slope estimate.
 * On failure, explains it in err. */
static int run_method(impactfit_inverse_workspace *ws, const impactfit_inverse_params *p, double u0, double slope,
                      const char *what, impactfit_error *err) {
  ws->n_evals = 0;
  ws->converged = 0;
  ws->best = -1;
  ws->rhs = 0;
  ws->status = 0;
  ws->err = err;
  ws->beyond_msg[0] = '\0';
  ws->nosep_msg[0] = '\0';
  ws->loose_next = !ws->trusted_start || p->method == impactfit_root_bisect; /* bisection ignores every guess */
  ws->damping_only_try = ws->damping_only;
  ws->loose_used = 0;
  int r = method_of(p->method)(ws, u0, slope);
  if (!ws->status && !(r == 0 && ws->converged) && ws->loose_used) {
    /* A search steered by loose simulations that fails may fail because of them: where e_out is so
     * steep that only a few doubles of ζ meet the tolerance (under A near the critical damping), a
     * loose e_out can put both sides of the final bracket outside it. Before saying that no damping
     * does, the search is repeated from the same start with every simulation at the tight tolerance
     * (its cost counts in the point's work); converged points are not affected. */
    ws->extra_evals += ws->n_evals;
    ws->extra_rhs += ws->rhs;
    ws->n_evals = 0;
    ws->converged = 0;
    ws->best = -1;
    ws->rhs = 0;
    ws->beyond_msg[0] = '\0';
    ws->nosep_msg[0] = '\0';
    double loose = ws->loose_rtol;
    ws->loose_rtol = 0.0; /* evaluate: never loose */
    r = method_of(p->method)(ws, u0, slope);
    ws->loose_rtol = loose;
  }
  if (ws->status)
    return ws->status;
  if (r == 0 && ws->converged)
    return 0;
  double u1, u2;
  if (non_monotone(ws, &u1, &u2))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                           "no %s for e = %.17g: e_out is not monotone in the damping (it rises "
                           "from %s = %.6g to %.6g)",
                           what, ws->target, what, exp(u1), exp(u2));
  /* the closest simulations on both sides of the target */
  int above = -1, below = -1, nosep = 0;
  for (int i = 0; i < ws->n_evals; i++) {
    const evaluation *ev = &ws->evals[i];
    if (!ev->separated)
      nosep = 1;
    if (ev->g > 0.0 && (above < 0 || ev->u > ws->evals[above].u))
      above = i;
    if (ev->g <= 0.0 && (below < 0 || ev->u < ws->evals[below].u))
      below = i;
  }
  if (above >= 0 && below >= 0 && ws->evals[below].beyond)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                           "no %s within the engine's range gives e = %.17g (transition %s): e_out is "
                           "still %.6g at %s = %.6g (%s)",
                           what, ws->target, p->transition->name, ws->evals[above].e_out, what, exp(ws->evals[above].u),
                           ws->beyond_msg);
  if (above >= 0 && below >= 0 && ws->evals[below].separated &&
      ws->evals[below].u - ws->evals[above].u <= 1e-12 * fmax(1.0, fabs(ws->evals[above].u))) {
    /* Both sides separate and bracket the target, a few units of rounding of ln ζ apart: e_out is
     * continuous but so steep (under A near the critical damping) that no representable damping
     * meets the tolerance. Say so with the numbers that prove it and the tolerance that is reachable. */
    const evaluation *a = &ws->evals[above], *b = &ws->evals[below];
    double reach = fmax(fabs(a->e_out - ws->target), fabs(b->e_out - ws->target)) / ws->target;
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                           "no double-precision %s gives e = %.17g to the tolerance %.3g (transition "
                           "%s): e_out is steep here and goes from %.17g at %s = %.17g to %.17g at %s = "
                           "%.17g, %.3g relative apart; a tolerance of %.2g or more is reachable",
                           what, ws->target, ws->tol, p->transition->name, a->e_out, what, exp(a->u), b->e_out, what,
                           exp(b->u), (a->e_out - b->e_out) / ws->target, 2.0 * reach);
  }
  if (above >= 0 && below >= 0 &&
      ws->evals[below].u - ws->evals[above].u <= 1e-12 * fmax(1.0, fabs(ws->evals[above].u)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                           "no damping gives e = %.17g (transition %s): e_out jumps from %.6g to %s "
                           "at %s = %.10g%s%s%s",
                           ws->target, p->transition->name, ws->evals[above].e_out,
                           ws->evals[below].separated ? "a smaller value" : "no separation", what,
                           exp(ws->evals[above].u),
                           (!ws->evals[below].separated && ws->nosep_msg[0]) ? " (the engine: " : "",
                           (!ws->evals[below].separated && ws->nosep_msg[0]) ? ws->nosep_msg : "",
                           (!ws->evals[below].separated && ws->nosep_msg[0]) ? ")" : "");
  if (ws->n_evals >= p->max_iter)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "no convergence to e = %.17g within %d simulations (method %s)",
                           ws->target, p->max_iter, p->method->name);
  return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT, "no %s reproduces e = %.17g (transition %s)%s", what, ws->target,
                         p->transition->name, nosep ? ": the bodies stop separating before e_out reaches it" : "");
}

/* Integrator tolerance of the simulations. The error of a simulated e_out is about K·rtol·min(e, 1−e)
 * (measured against the exact Kelvin–Voigt and Hunt–Crossley restitutions and against simulations at
 * rtol 1e-15, n ∈ [1, 2], m ∈ {0, 1/4, n}, conditions A and C): K ≤ 0.5 for e ≥ 0.05 under C and D,
 * on both sides of e = 1/2 (1 − e_out from the energy balance), and growing as e falls — about 15 at
 * e = 1e-3 and 150 at 1e-4 — and, under A and B with m < n, near the critical damping where e_out
 * falls steeply to 0 (2000 at e = 1.6e-4, n = 1.5, m = 0). So rtol = tol/10 where K is small, tighter
 * below e = 0.05, and a verification (verify_best) where K is large or not known. */
static double loose_rtol(double tol, double e) {
  double r = (e >= 0.05) ? 0.1 * tol : 1e-2 * tol * fmin(1.0, fmax(0.1, e / 1e-3));
  return r < 1e-15 ? 1e-15 : (r > 1e-10 ? 1e-10 : r);
}

static double sim_rtol(double tol, double e) {
  double r = (e >= 0.05) ? 0.1 * tol : 1e-2 * tol * fmin(1.0, fmax(0.1, e / 1e-3));
  /* never looser than the engine's default (impactfit_impact_default_params: 1e-13), so that the
   * simulation the solver returns is the one `simulate` runs for the returned damping (to a few
   * units of rounding of ζ): its e_out is then what `simulate` gives within the engine's accuracy */
  double def = impactfit_impact_default_params().rtol;
  return r < 1e-15 ? 1e-15 : (r > def ? def : r);
}

/* Where the integrator's error may exceed a tenth of the tolerance at sim_rtol (see there). */
static int needs_verification(const impactfit_inverse_workspace *ws) {
  const impactfit_transition *tr = ws->base.transition;
  return ws->target < 0.05 ||
         ((tr == impactfit_transition_A || tr == impactfit_transition_B) && ws->base.m < ws->base.n);
}

/* The root search with its verification: where the integrator's error may matter
 * (needs_verification), the accepted damping is simulated again at a tenth of the integrator
 * tolerance. If the two e_out differ by more than a fifth of the tolerance (or the finer one is
 * outside it), the search is repeated at the finer tolerance from the accepted damping, down to
 * rtol = 1e-15. The finer simulation, being the more accurate, is the one reported. */
static int search(impactfit_inverse_workspace *ws, const impactfit_inverse_params *p, double u0, double slope,
                  const char *what, impactfit_error *err) {
  ws->extra_evals = 0;
  ws->extra_rhs = 0;
  ws->damping_only_asked = p->damping_only;
  /* fast only: its Newton and secant steps from a close guess land within the tolerance as a rule, while
   * bisection's and BOBYQA's first simulations predicted close (G_TIGHT) mostly do not, and a try that
   * misses costs a loose simulation (tried on test_work's points at tol 1e-10: +2 % and +4 % for them). C and D
   * only, where the error model's K ≤ 0.5 was measured on both sides of e = 1/2: under A with m > n near e = 1
   * a loose e_out was off by more (n 1.18, m 1.63, e 0.9998, tol 8.4e-11: another ζ, 1.1e-10 apart, of 3000
   * random points over n, m, e, tol and A-D) */
  ws->damping_only = p->damping_only && !needs_verification(ws) && p->method == impactfit_root_fast &&
                     (p->transition == impactfit_transition_C || p->transition == impactfit_transition_D);
  int st = run_method(ws, p, u0, slope, what, err);
  if (st || !needs_verification(ws))
    return st;
  for (;;) {
    evaluation *best = &ws->evals[ws->best];
    double fine_rtol = fmax(0.1 * ws->base.rtol, 1e-15);
    if (!(fine_rtol < ws->base.rtol))
      return 0; /* at the engine's finest tolerance already */
    evaluation fine;
    long rhs = 0;
    impactfit_error e2;
    int s2 = simulate(ws, best->u, fine_rtol, &fine, &rhs, &e2);
    ws->extra_evals++;
    ws->extra_rhs += rhs;
    if (s2) {
      if (err)
        *err = e2;
      return s2;
    }
    double scale = ws->upper ? ws->one_minus_target : ws->target;
    double diff = ws->upper ? fabs(fine.one_minus - best->one_minus) : fabs(fine.e_out - best->e_out);
    if (fine.separated && diff <= 0.2 * ws->tol * scale && within_tol(ws, &fine, ACCEPT * ws->tol)) {
      *best = fine;
      return 0;
    }
    ws->extra_evals += ws->n_evals;
    ws->extra_rhs += ws->rhs;
    ws->base.rtol = fine_rtol;
    ws->trusted_start = 1; /* from the accepted damping */
    if ((st = run_method(ws, p, best->u, slope, what, err)))
      return st;
  }
}

/* The restitution of an accepted simulation as reported: above e = 1/2 from its 1 − e_out (the
 * energy balance, without cancellation; the tolerance was met on it), below from its final speed.
 * The two agree to the engine's accuracy; the first keeps |e_out − e| ≤ tol·(1 − e) (to the rounding
 * of the double e_out) as e → 1, where the final speed's absolute error (~1e-15) exceeds it. */
static double reported_e_out(const impactfit_inverse_workspace *ws, const evaluation *ev) {
  return ws->upper ? 1.0 - ev->one_minus : ev->e_out;
}

static void fill_result(const impactfit_inverse_workspace *ws, double e, impactfit_inverse_result *res) {
  const evaluation *ev = &ws->evals[ws->best];
  res->e = e;
  res->zeta = exp(ev->u);
  res->e_out = reported_e_out(ws, ev);
  res->x_sep = ev->x_sep;
  res->t_contact = ev->t_contact;
  if (ws->damping_only_asked)
    res->e_out = res->x_sep = res->t_contact = NAN;
  res->iterations = ws->n_evals + ws->extra_evals;
  res->rhs_evals = ws->rhs + ws->extra_rhs;
}

/* Undamped Hertz contact duration in units of δ_m0/v: 2 B(1/(n+1), 1/2)/(n+1). */
static double hertz_time(double n) { return 2.0 * gsl_sf_beta(1.0 / (n + 1.0), 0.5) / (n + 1.0); }

static int solve_point(impactfit_inverse_workspace *ws, const impactfit_inverse_params *p, double e, double zeta_guess,
                       double slope, impactfit_inverse_result *res, impactfit_error *err) {
  int st = check_inverse(p, e, err);
  if (st)
    return st;
  if (e == 1.0) { /* no damping: Hertz, e = 1 exactly */
    memset(res, 0, sizeof *res);
    res->e = res->e_out = 1.0;
    res->t_contact = hertz_time(p->n);
    return 0;
  }
  ws->base = impactfit_impact_scaled_params(p->n, p->m, 1.0);
  ws->base.transition = p->transition;
  ws->base.locate_extrema = 0;
  ws->base.rtol = sim_rtol(p->tol, e);
  ws->base.t_max = SIM_T_MAX;
  ws->u_unit = 0.0;
  set_target(ws, e, p->tol, p->max_iter);
  int sur = 0;
  double z0 = (zeta_guess > 0.0 && isfinite(zeta_guess))
                  ? zeta_guess
                  : guess_zeta(p->n, p->m, e, p->transition, p->surrogate_guess, &sur);
  ws->trusted_start = sur || (zeta_guess > 0.0 && isfinite(zeta_guess));
  ws->loose_rtol = loose_rtol(p->tol, e);
  if (!(z0 > 0.0) || !isfinite(z0))
    z0 = 1.0;
  if (!(slope < 0.0)) /* d ln e_out / d ln ζ: ≈ ln e for light damping, O(−1) for heavy */
    slope = fmin(-0.05, fmax(log(e), -1.5));
  st = search(ws, p, log(z0), slope, "zeta", err);
  if (st)
    return st;
  fill_result(ws, e, res);
  return 0;
}

int impactfit_inverse_solve(impactfit_inverse_workspace *ws, const impactfit_inverse_params *p, double e,
                            double zeta_guess, impactfit_inverse_result *res, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!ws || !res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace or result given");
  return solve_point(ws, p, e, zeta_guess, 0.0, res, err);
}

/* The Lagrange polynomial through (hx[i], hy[i]), i < k, at x: the differences x − hx[j], hx[i] − hx[j]
 * and the basis factors q[i][j] = (x − hx[j])/(hx[i] − hx[j]) computed once, shared by the polynomial
 * through all k points, the one without the oldest (index 0) and the derivative. Each is evaluated as
 * the product of its factors in the order of j, so every value is the same double as one basis
 * evaluation per polynomial gave. */
typedef struct {
  int k;
  double d[HISTORY];            /* x − hx[j] */
  double den[HISTORY][HISTORY]; /* hx[i] − hx[j] */
  double q[HISTORY][HISTORY];   /* d[j] / den[i][j] */
} lagrange_basis;

/* 0 when two nodes coincide */
static int basis_set(lagrange_basis *b, const double *hx, int k, double x) {
  b->k = k;
  for (int j = 0; j < k; j++)
    b->d[j] = x - hx[j];
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++) {
      double den = hx[i] - hx[j];
      if (den == 0.0)
        return 0;
      b->den[i][j] = den;
      b->den[j][i] = -den; /* hx[j] − hx[i], exactly */
    }
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++)
      if (j != i)
        b->q[i][j] = b->d[j] / b->den[i][j];
  return 1;
}

/* the polynomial through the nodes o..k−1 at x */
static double basis_value(const lagrange_basis *b, const double *hy, int o) {
  double y = 0.0;
  for (int i = o; i < b->k; i++) {
    double li = 1.0;
    for (int j = o; j < b->k; j++)
      if (j != i)
        li *= b->q[i][j];
    y += li * hy[i];
  }
  return y;
}

/* the derivative of the polynomial through all k nodes at x */
static double basis_slope(const lagrange_basis *b, const double *hy) {
  double dy = 0.0;
  for (int i = 0; i < b->k; i++) {
    double li = 1.0, dli = 0.0;
    for (int j = 0; j < b->k; j++) {
      if (j == i)
        continue;
      dli = dli * b->d[j] / b->den[i][j] + li / b->den[i][j];
      li *= b->q[i][j];
    }
    dy += dli * hy[i];
  }
  return dy;
}

/* Continuation: y = ln ζ − ln(1 − e) as a polynomial through the last solved points, in t = ln e or
 * in r = ln(1 − e) (ζ ∝ e^(−p) as e → 0, a logarithmic singularity of y(r) at r = 0; as e → 1, y has
 * terms (1 − e)^p with non-integer p, smooth in r but not in t: see surrogate.h). Near e = 1/2 neither
 * is always the better: zhang-alpha's n = 1.5, m = 0.25 on a step of 0.008 in e misses by 1e-8 in r
 * and 1e-13 in t at e = 0.5–0.65, copt's m = 0 near e = 0.99 the other way. So above e = 1/2, with
 * three or more points, the variable is the one whose polynomial moves less when its oldest point is
 * dropped (the estimate of the extrapolation's error); below it is t, as before. The choice depends
 * on the run's own points only. Returns the predicted ζ and the slope dg/du of the solver's function
 * g (u = ln ζ) there. */
static int extrapolate(const double *ht, const double *hr, const double *hy, int k, double e, double *zeta,
                       double *slope) {
  if (k < 2 || !(e < 1.0))
    return 0;
  int upper = (e > 0.5), in_r = upper;
  double t = log(e), r = log1p(-e), y;
  lagrange_basis br, bt, *b = in_r ? &br : &bt;
  if (!basis_set(b, in_r ? hr : ht, k, in_r ? r : t))
    return 0;
  y = basis_value(b, hy, 0);
  if (upper && k >= 3 && basis_set(&bt, ht, k, t)) { /* y: in r so far; the polynomials without the oldest point */
    double yt = basis_value(&bt, hy, 0);
    if (fabs(yt - basis_value(&bt, hy, 1)) < fabs(y - basis_value(&br, hy, 1))) {
      in_r = 0;
      y = yt;
      b = &bt;
    }
  }
  double dy = basis_slope(b, hy); /* of the chosen variable only */
  *zeta = exp(y) * (1.0 - e);
  /* the slope of g: g = r_target − r_out above e = 1/2, t_out − t_target below */
  double dr_du, dt_du;
  if (in_r) { /* r = u − y(r): dr/du = 1/(1 + y') */
    dr_du = (1.0 + dy != 0.0) ? 1.0 / (1.0 + dy) : 0.0;
    dt_du = dr_du * (-(1.0 - e) / e); /* dt/dr = −(1 − e)/e */
  } else {                            /* u = y(t) + ln(1 − e^t): du/dt = y' − e/(1 − e) */
    double du_dt = dy - e / (1.0 - e);
    dt_du = (du_dt != 0.0) ? 1.0 / du_dt : 0.0;
    dr_du = dt_du * (-e / (1.0 - e)); /* dr/dt = −e/(1 − e) */
  }
  *slope = upper ? -dr_du : dt_du;
  return isfinite(*zeta) && *zeta > 0.0;
}

int impactfit_inverse_solve_run(impactfit_inverse_workspace *ws, const impactfit_inverse_params *p, const double *e,
                                size_t count, impactfit_inverse_result *res, int *status, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!ws || (!e && count) || (!res && count))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace, targets or results given");
  double ht[HISTORY], hr[HISTORY], hy[HISTORY];
  int k = 0, first = 0;
  impactfit_inverse_params q;
  if (p) { /* NULL: each point says so */
    q = *p;
    q.damping_only = 0; /* the continuation reads every point's e_out (inverse.h) */
    p = &q;
  }
  for (size_t i = 0; i < count; i++) {
    double zg = 0.0, slope = 0.0;
    int upper = (e[i] > 0.5);
    double x = upper ? log1p(-e[i]) : log(e[i]), xl = k ? (upper ? hr[k - 1] : ht[k - 1]) : 0.0;
    if (k >= 2 && !(fabs(x - xl) > 0.5)) /* only close neighbours */
      extrapolate(ht, hr, hy, k, e[i], &zg, &slope);
    impactfit_error e1;
    impactfit_error_clear(&e1);
    int st = solve_point(ws, p, e[i], zg, slope, &res[i], &e1);
    if (status)
      status[i] = st;
    if (st) {
      memset(&res[i], 0, sizeof res[i]);
      res[i].e = e[i];
      if (!first) {
        first = st;
        if (err)
          *err = e1;
      }
      k = 0; /* restart the continuation after a failure */
      continue;
    }
    /* Record the simulated pair (e_out, ζ), with 1 − e_out free of cancellation: it lies on the
     * curve to the simulation's accuracy, whereas the target is only within tol of it — noise the
     * extrapolation would amplify. */
    double eo = res[i].e_out, om = ws->best >= 0 ? ws->evals[ws->best].one_minus : 1.0 - eo;
    if (e[i] < 1.0 && eo > 0.0 && om > 0.0) {
      if (k == HISTORY) {
        memmove(ht, ht + 1, (HISTORY - 1) * sizeof ht[0]);
        memmove(hr, hr + 1, (HISTORY - 1) * sizeof hr[0]);
        memmove(hy, hy + 1, (HISTORY - 1) * sizeof hy[0]);
        k--;
      }
      ht[k] = log(eo);
      hr[k] = log(om);
      hy[k] = log(res[i].zeta) - log(om);
      k++;
    }
  }
  return first;
}

/* ---- c_opt ---------------------------------------------------------------------------------- */

static int scales(double n, double m, double k, double mass, double v, double *dm, impactfit_error *err) {
  impactfit_impact_params q = impactfit_impact_default_params();
  q.n = n;
  q.m = m;
  q.k = k;
  q.mass = mass;
  q.v = v;
  q.c = 0.0;
  return impactfit_impact_scales(&q, dm, NULL, NULL, NULL, NULL, err);
}

int impactfit_lambda_from_zeta(double n, double m, double zeta, double k, double mass, double v, double *lambda,
                               impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  double dm;
  int st = scales(n, m, k, mass, v, &dm, err);
  return st ? st : impactfit__lambda_from_dm(m, zeta, mass, v, dm, lambda, err);
}

int impactfit__lambda_from_dm(double m, double zeta, double mass, double v, double dm, double *lambda,
                              impactfit_error *err) {
  if (!(isfinite(zeta) && zeta >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "zeta must be a finite number >= 0 (got %.17g)", zeta);
  /* ζ = c δ_m0^(m+1)/(mass v) */
  double c = zeta * mass * v / pow(dm, m + 1.0);
  if (!isfinite(c))
    c = exp(log(zeta) + log(mass) + log(v) - (m + 1.0) * log(dm));
  if (!isfinite(c))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "damping coefficient out of double range");
  *lambda = c;
  return 0;
}

int impactfit_copt_from_zeta(double n, double zeta, double k, double mass, double v, double *c_opt,
                             impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  return impactfit_lambda_from_zeta(n, 0.0, zeta, k, mass, v, c_opt, err);
}

int impactfit_copt_solve(impactfit_inverse_workspace *ws, const impactfit_inverse_params *p, double e, double k,
                         double mass, double v, int dimensional, impactfit_copt_result *res, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!ws || !res || !p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace, parameters or result given");
  impactfit_inverse_params q = *p;
  q.m = 0.0;
  q.transition = impactfit_transition_C;
  int st = check_inverse(&q, e, err);
  double dm;
  if (!st)
    st = scales(q.n, 0.0, k, mass, v, &dm, err);
  if (st)
    return st;
  memset(res, 0, sizeof *res);
  double T = dm / v;
  if (!dimensional || e == 1.0) {
    impactfit_inverse_result r;
    if ((st = solve_point(ws, &q, e, 0.0, 0.0, &r, err)))
      return st;
    if ((st = impactfit_copt_from_zeta(q.n, r.zeta, k, mass, v, &res->c_opt, err)))
      return st;
    res->zeta = r.zeta;
    res->e_out = r.e_out;
    res->delta_sep = r.x_sep * dm;
    res->t_contact = r.t_contact * T;
    res->iterations = r.iterations;
    res->rhs_evals = r.rhs_evals;
    return 0;
  }
  /* In the user's units: the same root search on ln c, each simulation with k, mass, v, c. */
  ws->base = impactfit_impact_default_params();
  ws->base.n = q.n;
  ws->base.m = 0.0;
  ws->base.k = k;
  ws->base.mass = mass;
  ws->base.v = v;
  ws->base.locate_extrema = 0;
  ws->base.rtol = sim_rtol(q.tol, e);
  ws->base.t_max = SIM_T_MAX;
  set_target(ws, e, q.tol, q.max_iter);
  double c0, c1;
  int sur = 0;
  double z0 = guess_zeta(q.n, 0.0, e, q.transition, q.surrogate_guess, &sur);
  ws->trusted_start = sur;
  ws->loose_rtol = loose_rtol(q.tol, e);
  if ((st = impactfit_copt_from_zeta(q.n, z0, k, mass, v, &c0, err)) ||
      (st = impactfit_copt_from_zeta(q.n, 1.0, k, mass, v, &c1, err)))
    return st;
  ws->u_unit = log(c1);
  if ((st = search(ws, &q, log(c0), fmin(-0.05, fmax(log(e), -1.5)), "c", err)))
    return st;
  const evaluation *ev = &ws->evals[ws->best];
  res->c_opt = exp(ev->u);
  res->zeta = res->c_opt * dm / (mass * v);
  res->e_out = reported_e_out(ws, ev);
  res->delta_sep = ev->x_sep * dm;
  res->t_contact = ev->t_contact * T;
  if (ws->damping_only_asked)
    res->e_out = res->delta_sep = res->t_contact = NAN;
  res->iterations = ws->n_evals;
  res->rhs_evals = ws->rhs;
  return 0;
}

/* ---- Zhang et al.'s α ----------------------------------------------------------------------- */

int impactfit_zhang_alpha_from_zeta(double n, double m, double e, double zeta, double *alpha, double *lambda_star,
                                    impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!(isfinite(n) && n > 0.0 && isfinite(m) && m >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "exponents must satisfy n > 0, m >= 0 (got n = %.17g, m = %.17g)", n,
                           m);
  if (!(isfinite(e) && e > 0.0 && e < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "alpha is defined for 0 < e < 1 (got %.17g)", e);
  if (!(isfinite(zeta) && zeta > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "zeta must be a finite number > 0 (got %.17g)", zeta);
  double f = exp((m + 1.0) / (n + 1.0) * log(e)); /* e^((m+1)/(n+1)) */
  double ls = zeta * f, a = 0.75 * (1.0 - e) * (m + 1.0) / ls;
  if (!(ls > 0.0 && isfinite(ls) && isfinite(a)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "alpha and lambda* are not representable in double precision for zeta = %g, "
                           "e = %g",
                           zeta, e);
  if (lambda_star)
    *lambda_star = ls;
  if (alpha)
    *alpha = a;
  return 0;
}

/* ---- the scale-invariant family m = (n − 1)/2 (derivation in inverse.h) ------------------------ */

/* ln e of the Kelvin–Voigt oscillator under C as a function of ξ, written with θ/sin θ and
 * φ/sinh φ so that it stays accurate through ξ = 1 (where acos ξ/√(1 − ξ²) is 0/0). */
static double kv_ln_e_force(double xi) {
  if (xi < 1.0) {
    double s = sqrt((1.0 - xi) * (1.0 + xi)), th = atan2(s, xi);
    return -2.0 * xi * (s > 0.0 ? th / s : 1.0);
  }
  if (xi > 1e150) /* ξ² overflows; there √(ξ² − 1) = ξ and acosh ξ = ln 2ξ to double precision */
    return -2.0 * (log(2.0) + log(xi));
  double s = sqrt((xi - 1.0) * (xi + 1.0)), ph = log1p((xi - 1.0) + s);
  return -2.0 * xi * (s > 0.0 ? ph / s : 1.0);
}

static int check_family(double n, const impactfit_transition *tr, impactfit_error *err) {
  if (!(isfinite(n) && n >= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the family m = (n - 1)/2 needs n >= 1 so that m >= 0 (got n = %g)",
                           n);
  if (tr != impactfit_transition_A && tr != impactfit_transition_B && tr != impactfit_transition_C &&
      tr != impactfit_transition_D)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown transition condition");
  return 0;
}

int impactfit_scale_invariant_e(double n, double zeta, const impactfit_transition *tr, double *e,
                                impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  int st = check_family(n, tr, err);
  if (st)
    return st;
  if (!(isfinite(zeta) && zeta >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "zeta must be a finite number >= 0 (got %.17g)", zeta);
  return impactfit_kv_e(zeta / (n + 1.0), tr, e, err);
}

double impactfit_kv_damping_ratio(double e) {
  double L = log(e);
  return -L / sqrt(IMPACTFIT__PI * IMPACTFIT__PI + L * L);
}

int impactfit_kv_e(double xi, const impactfit_transition *tr, double *e, impactfit_error *err) {
  if (!(isfinite(xi) && xi >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the damping ratio xi must be a finite number >= 0 (got %.17g)", xi);
  if (tr == impactfit_transition_A || tr == impactfit_transition_B) {
    if (xi >= 1.0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP, "no separation: damping ratio xi = %g >= 1 under condition %s", xi,
                             tr->name);
    *e = exp(-IMPACTFIT__PI * xi / sqrt((1.0 - xi) * (1.0 + xi)));
  } else if (tr == impactfit_transition_C || tr == impactfit_transition_D) {
    *e = exp(kv_ln_e_force(xi));
  } else {
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown transition condition");
  }
  return 0;
}

int impactfit_scale_invariant_zeta(double n, double e, const impactfit_transition *tr, double *zeta,
                                   impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  int st = check_family(n, tr, err);
  if (st)
    return st;
  if (!(isfinite(e) && e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "restitution e must be in (0, 1] (got %.17g)", e);
  double L = log(e), xi;
  if (tr == impactfit_transition_A || tr == impactfit_transition_B) {
    xi = impactfit_kv_damping_ratio(e); /* closed form */
  } else {
    /* ln e(ξ) decreases monotonically from 0: bisection to the last bit (about 60 steps of a
     * closed form; an allocation-free routine, usable in sweep loops) */
    double lo = 0.0, hi = 1.0;
    while (kv_ln_e_force(hi) > L)
      hi *= 2.0;
    for (int i = 0; i < 200; i++) {
      double mid = 0.5 * (lo + hi);
      if (!(mid > lo && mid < hi))
        break;
      if (kv_ln_e_force(mid) > L)
        lo = mid;
      else
        hi = mid;
    }
    xi = 0.5 * (lo + hi);
  }
  *zeta = (n + 1.0) * xi;
  return 0;
}
