/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The impact engine (include/impactfit/impact.h).
 *
 * Method, in the scaled variables of impact.h (x = δ/δ_m0, τ = t v/δ_m0):
 *   x'' = γ − K s(x) − ζ a(x) x',  K = (n+1)/2,  s(x) = sgn(x)|x|^n,  a(x) = |x|^m,
 * with a third state W' = ζ a(x) x'^2 (damping work) for the energy balance.
 * The odd extension s(x) and even a(x) make the element force continuous through x = 0, so a step
 * that crosses δ = 0 sees the sign change instead of a masked δ^n; for condition B the same
 * extension is the element's force before the bodies touch.
 *
 * A contact is a chain of segments: a power-series start at x = 0 (series.h), steps of GSL's rk8pd,
 * and a power-series arrival at x = 0 (reversed time), each able to return the state at any point
 * inside it. Events are sign changes of event functions between the sample points of a segment
 * (its ends for an integrator step, nine points for a series piece); each is located by Brent's
 * method (gsl_root_fsolver_brent) on the segment's own solution: for an integrator step, a single
 * rk8pd step of length s from the step's start, so the located state lies on the integrator's
 * solution rather than on an interpolant. A pair of roots hidden inside one step is caught through
 * the sign change of the derivative of the event function (a local extremum between the ends).
 *
 * The end phase: where the contact may end on the force (B, C, D with m < n), the force's sign
 * function h = f/|x|^m = K sgn(x)|x|^(n−m) + ζ x' crosses zero at the end with slope
 * h' = K (n−m) |x|^(n−m−1) x' + ζ (γ − f), and f = 0 there, so the slope is ∝ n − m. Computed from
 * the state, h cancels (K|x|^(n−m) ≈ ζ|x'|): its error ζ·(error of x') moves the end by that error
 * over a slope that vanishes as m → n (n = 1.8, m = 1.799999, ζ = 30: 4e-7 in t_contact with the
 * state accurate to 1e-13). So for n − m < END_PHASE_P, once h has fallen below ζ|x'| after the
 * maximum penetration, h is integrated as a fourth state, scaled by the size it has where it crosses
 * zero (hscale, so that the tolerance is relative to that size), from
 *     h' = K (n−m) |x|^(n−m−1) x' + ζ (γ − |x|^m h),
 * a linear equation whose solution relaxes at the rate ζ|x|^m, so the error made when it is
 * started decays with h itself; the events of that phase (the force, its sign, its extrema) use
 * it. (x, x', W) are integrated as before.
 *
 * Stepper choice: rk8pd, an explicit embedded 8(7) pair, because the contact is not stiff in the
 * scaled variables for the seeds' range (ζ up to a few hundred) and tight tolerances (1e-13) are
 * reached with far fewer right-hand-side evaluations than with rkf45, rkck or msadams (plain GSL
 * loops at 1e-13 on exact problems, bench/bench_impact.c: 807 / 1184 evaluations per impact with
 * rk8pd against 1465–2611 with rkf45 and rkck, and 10–100x larger errors with those); implicit
 * methods would cost Jacobians for no stability gain.
 */
#include "impact_impl.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "../common/common_impl.h"

/* ---- transition conditions ---------------------------------------------------------------- */

static const impactfit_transition tr_A = {.name = "A",
                                          .summary = "contact while delta > 0 (a tensile force may act at the end)",
                                          .start_on_force = 0,
                                          .end_on_force = 0,
                                          .relax_element = 0};
static const impactfit_transition tr_B = {.name = "B",
                                          .summary = "contact while the element force is positive (starts before "
                                                     "touching)",
                                          .start_on_force = 1,
                                          .end_on_force = 1,
                                          .relax_element = 0};
static const impactfit_transition tr_C = {.name = "C",
                                          .summary = "starts at delta = 0, ends when the element force falls to zero",
                                          .start_on_force = 0,
                                          .end_on_force = 1,
                                          .relax_element = 0};
static const impactfit_transition tr_D = {.name = "D",
                                          .summary = "as C; the element relaxes by itself after separation",
                                          .start_on_force = 0,
                                          .end_on_force = 1,
                                          .relax_element = 1};
const impactfit_transition *const impactfit_transition_A = &tr_A;
const impactfit_transition *const impactfit_transition_B = &tr_B;
const impactfit_transition *const impactfit_transition_C = &tr_C;
const impactfit_transition *const impactfit_transition_D = &tr_D;

const impactfit_transition *impactfit_transition_from_name(const char *name) {
  static const impactfit_transition *const all[] = {&tr_A, &tr_B, &tr_C, &tr_D};
  if (!name || !name[0] || name[1])
    return NULL;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (toupper((unsigned char)name[0]) == all[i]->name[0])
      return all[i];
  return NULL;
}

/* ---- parameters and scales ----------------------------------------------------------------- */

impactfit_impact_params impactfit_impact_default_params(void) {
  impactfit_impact_params p;
  memset(&p, 0, sizeof p);
  p.n = 1.5;
  p.m = 0.0;
  p.k = 1.0;
  p.c = 0.0;
  p.mass = 1.0;
  p.v = 1.0;
  p.accel = 0.0;
  p.transition = impactfit_transition_C;
  p.max_contacts = 1;
  p.t_max = 0.0; /* automatic: 1e4 max(1, ζ) */
  p.rtol = 1e-13;
  p.series = 1;
  p.locate_extrema = 1;
  return p;
}

impactfit_impact_params impactfit_impact_scaled_params(double n, double m, double zeta) {
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = n;
  p.m = m;
  p.k = 0.5 * (n + 1.0); /* then (n+1) mass v^2 / (2k) = 1 exactly */
  p.c = zeta;
  return p;
}

static int check_params(const impactfit_impact_params *p, impactfit_error *err) {
#define REQUIRE(cond, ...)                                        \
  do {                                                            \
    if (!(cond))                                                  \
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, __VA_ARGS__); \
  } while (0)
  REQUIRE(p != NULL, "no parameters given");
  REQUIRE(isfinite(p->n) && p->n > 0.0, "spring exponent n must be a finite number > 0 (got %.17g)", p->n);
  REQUIRE(isfinite(p->m) && p->m >= 0.0, "damping exponent m must be a finite number >= 0 (got %.17g)", p->m);
  REQUIRE(isfinite(p->k) && p->k > 0.0, "stiffness k must be a finite number > 0 (got %.17g)", p->k);
  REQUIRE(isfinite(p->c) && p->c >= 0.0, "damping coefficient c must be a finite number >= 0 (got %.17g)", p->c);
  REQUIRE(isfinite(p->mass) && p->mass > 0.0, "mass must be a finite number > 0 (got %.17g)", p->mass);
  REQUIRE(isfinite(p->v) && p->v > 0.0, "approach velocity v must be a finite number > 0 (got %.17g)", p->v);
  REQUIRE(isfinite(p->accel) && p->accel >= 0.0, "accel must be a finite number >= 0 (got %.17g)", p->accel);
  REQUIRE(p->transition == impactfit_transition_A || p->transition == impactfit_transition_B ||
              p->transition == impactfit_transition_C || p->transition == impactfit_transition_D,
          "unknown transition condition");
  REQUIRE(p->max_contacts >= 1 && p->max_contacts <= IMPACTFIT_MAX_CONTACTS,
          "max_contacts must be between 1 and %d (got %d)", IMPACTFIT_MAX_CONTACTS, p->max_contacts);
  REQUIRE(p->max_contacts == 1 || p->accel > 0.0, "further contacts need accel > 0: in a free impact the bodies never "
                                                  "meet again");
  REQUIRE(isfinite(p->t_max) && p->t_max >= 0.0, "t_max must be a finite number >= 0 (got %.17g)", p->t_max);
  REQUIRE(isfinite(p->rtol) && p->rtol >= 1e-15 && p->rtol <= 1e-3, "rtol must be between 1e-15 and 1e-3 (got %.17g)",
          p->rtol);
#undef REQUIRE
  return IMPACTFIT_OK;
}

int impactfit_impact_scales(const impactfit_impact_params *p, double *delta_m0, double *time_scale, double *force_scale,
                            double *zeta, double *gamma, impactfit_error *err) {
  int st = check_params(p, err);
  if (st)
    return st;
  double n = p->n, m = p->m;
  /* δ_m0^(n+1) = (n+1) mass v^2 / (2k): direct products where they are representable (exact for
   * the scaled parameters), logarithms at the edges of the double range. */
  double r = (n + 1.0) * p->mass * p->v * p->v / (2.0 * p->k);
  double ld;
  if (isnormal(r))
    ld = log(r) / (n + 1.0);
  else
    ld = (log(n + 1.0) + log(p->mass) + 2.0 * log(p->v) - log(2.0) - log(p->k)) / (n + 1.0);
  double d = isnormal(r) ? pow(r, 1.0 / (n + 1.0)) : exp(ld);
  double lz = (p->c > 0.0) ? log(p->c) + (m + 1.0) * ld - log(p->mass) - log(p->v) : -INFINITY;
  double z = p->c * pow(d, m + 1.0) / (p->mass * p->v);
  if (p->c > 0.0 && !isnormal(z))
    z = exp(lz);
  double T = d / p->v, F = p->mass * p->v * p->v / d, g = p->accel * d / (p->v * p->v);
  if (!isnormal(d) || !isnormal(T) || !isnormal(F) || !isfinite(z) || !isfinite(g) || (p->accel > 0.0 && !isnormal(g)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "parameters out of range: the scaled problem (delta_m0 = %g m, zeta = %g) "
                           "is not representable in double precision",
                           d, z);
  if (z > 1e12)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "damping out of range: scaled damping zeta = %g exceeds 1e12", z);
  if (delta_m0)
    *delta_m0 = d;
  if (time_scale)
    *time_scale = T;
  if (force_scale)
    *force_scale = F;
  if (zeta)
    *zeta = z;
  if (gamma)
    *gamma = g;
  return IMPACTFIT_OK;
}

/* ---- right-hand side and event functions ---------------------------------------------------- */

/* The state: x, x', the damping work W and, in the end phase only, h/hscale (NaN otherwise). */
#define NY 4
/* the end phase is used where n − m is below this (see the file comment): where the force's slope at
 * the end is small; above it, h computed from the state is as accurate as the other outputs */
#define END_PHASE_P 0.5

/* How powers() computes |x|^n and |x|^m: the exponents of the papers and of DEM codes without pow()
 * (1, 1.5, 2 and 0, 0.25, 0.5, 1), m = n from |x|^n, else exp(p ln|x|) (within 2e-15 of pow(), 25 %
 * cheaper). Decided once per solve (set_kinds) instead of by comparisons at every right-hand side. */
enum { POW_EXP, POW_ONE, POW_THREE_HALVES, POW_TWO, POW_ZERO, POW_AS_N, POW_HALF, POW_QUARTER };

static void set_kinds(impactfit__sys *s) {
  s->n_kind = (s->n == 1.5) ? POW_THREE_HALVES : (s->n == 1.0) ? POW_ONE : (s->n == 2.0) ? POW_TWO : POW_EXP;
  s->m_kind = (s->m == 0.0)    ? POW_ZERO
              : (s->m == s->n) ? POW_AS_N
              : (s->m == 1.0)  ? POW_ONE
              : (s->m == 0.5)  ? POW_HALF
              : (s->m == 0.25) ? POW_QUARTER
                               : POW_EXP;
  s->memo_x = NAN;
}

/* |x|^n and |x|^m of ax = |x| > 0 */
static inline void abs_powers(const impactfit__sys *s, double ax, double *pn_out, double *pm_out) {
  double pn, pm;
  switch (s->n_kind) {
  case POW_THREE_HALVES:
    pn = ax * sqrt(ax);
    break;
  case POW_ONE:
    pn = ax;
    break;
  case POW_TWO:
    pn = ax * ax;
    break;
  default:
    pn = exp(s->n * log(ax));
  }
  switch (s->m_kind) {
  case POW_ZERO:
    pm = 1.0;
    break;
  case POW_AS_N:
    pm = pn;
    break;
  case POW_ONE:
    pm = ax;
    break;
  case POW_HALF:
    pm = sqrt(ax);
    break;
  case POW_QUARTER:
    pm = sqrt(sqrt(ax));
    break;
  default:
    pm = exp(s->m * log(ax));
  }
  *pn_out = pn;
  *pm_out = pm;
}

/* s(x) = sgn(x)|x|^n and a(x) = |x|^m; the last right-hand side's values when x is its x (the state at
 * the end of an integrator step, whose derivative the step evaluated last: the same doubles). */
static inline void powers(const impactfit__sys *s, double x, double *sn, double *am) {
  double ax = fabs(x), pn, pm;
  if (ax == 0.0) {
    pn = 0.0;
    pm = (s->m == 0.0) ? 1.0 : 0.0;
  } else if (x == s->memo_x) {
    pn = s->memo_pn;
    pm = s->memo_pm;
  } else
    abs_powers(s, ax, &pn, &pm);
  *sn = (x < 0.0) ? -pn : pn;
  *am = pm;
}

/* |x|^m for the right-hand side at x = 0 with m > 0: the value at the smallest positive double, not
 * 0. The two agree for m ≳ 0.1, but for m → 0⁺ |x|^m is ≈ 1 at every representable x ≠ 0 (1e-9 ln
 * 5e-324 ≈ −7e-7), so the exact 0 is a jump of the damping force to nothing at one point. An
 * integrator stage that lands on x = 0 exactly (the step replayed to B's touch, whose end is located
 * at x = 0) then saw the force ζ x' vanish: under B with n = 1, m = 1e-9, ζ = 1e-5 the speed after
 * the touch was ζ²/4 too large and e_out 2.5e-11 off. The events keep the exact 0 (force()). */
static double am_at_zero(const impactfit__sys *s) { return (s->m > 0.0) ? exp(s->m * log(DBL_TRUE_MIN)) : 1.0; }

static int rhs(double t, const double y[], double dydt[], void *params) {
  (void)t;
  impactfit__sys *s = params;
  s->nevals++;
  double sn, am, x = y[0], ax = fabs(x);
  if (ax == 0.0) {
    sn = 0.0;
    am = am_at_zero(s);
  } else {
    double pn;
    abs_powers(s, ax, &pn, &am);
    s->memo_x = x;
    s->memo_pn = pn;
    s->memo_pm = am;
    sn = (x < 0.0) ? -pn : pn;
  }
  double f = s->K * sn + s->zeta * am * y[1];
  dydt[0] = y[1];
  dydt[1] = s->gamma - f;
  dydt[2] = s->zeta * am * y[1] * y[1];
  if (!isfinite(dydt[1]) || !isfinite(dydt[2]))
    return GSL_EBADFUNC;
  return GSL_SUCCESS;
}

/* The end phase's system: (x, x', W) as rhs, and u = h/hscale with
 * h' = K (n−m)|x|^(n−m−1) x' + ζ (γ − |x|^m h) (the file comment). */
static int rhs4(double t, const double y[], double dydt[], void *params) {
  int st = rhs(t, y, dydt, params);
  if (st)
    return st;
  impactfit__sys *s = params;
  double sn, am, ax = fabs(y[0]);
  powers(s, y[0], &sn, &am);
  if (ax == 0.0)
    am = am_at_zero(s);
  double h = y[3] * s->hscale;
  /* |x|^(n−m−1) = |x|^n / (|x|^m |x|); x stays > 0 in the end phase (0 only at a point) */
  double slope = (ax > 0.0) ? s->K * (s->n - s->m) * (fabs(sn) / (am * ax)) * y[1] : 0.0;
  dydt[3] = (slope + s->zeta * (s->gamma - am * h)) / s->hscale;
  if (!isfinite(dydt[3]))
    return GSL_EBADFUNC;
  return GSL_SUCCESS;
}

enum { EV_X, EV_XD, EV_F, EV_FD, EV_H };

/* h = f/|x|^m of a state: the integrated one in the end phase, else from x and x' */
static inline int has_h(const double y[]) { return !isnan(y[3]); }

static double force(const impactfit__sys *s, const double y[]) {
  double sn, am;
  powers(s, y[0], &sn, &am);
  if (has_h(y))
    return am * (y[3] * s->hscale);
  return s->K * sn + s->zeta * am * y[1];
}

static double event_value(const impactfit__sys *s, int ev, const double y[]) {
  double x = y[0], xd = y[1];
  switch (ev) {
  case EV_X:
    return x;
  case EV_XD:
    return xd;
  case EV_F:
    return force(s, y);
  case EV_FD: { /* df/dt = K n |x|^(n-1) x' + ζ m sgn(x)|x|^(m-1) x'^2 + ζ |x|^m x'' */
    double ax = fabs(x);
    if (ax == 0.0)
      return 0.0;
    double sn, am;
    powers(s, x, &sn, &am);
    double f = force(s, y);
    double xdd = s->gamma - f;
    double d = s->K * s->n * pow(ax, s->n - 1.0) * xd + s->zeta * am * xdd;
    if (s->m != 0.0)
      d += s->zeta * s->m * ((x < 0.0) ? -1.0 : 1.0) * pow(ax, s->m - 1.0) * xd * xd;
    return d;
  }
  case EV_H: /* f / |x|^m: the sign of the force, well defined as x → 0 */
  default: {
    if (has_h(y))
      return y[3] * s->hscale;
    double ax = fabs(x);
    double p = (ax == 0.0) ? ((s->n > s->m) ? 0.0 : (s->n == s->m ? 1.0 : INFINITY)) : pow(ax, s->n - s->m);
    return ((x < 0.0) ? -s->K : s->K) * p + s->zeta * xd;
  }
  }
}

/* The event values of one state, computed once and reused by neighbouring intervals. */
typedef struct evstate {
  double f, fd, h;
} evstate;

static void ev_state(const impactfit__sys *S, const double y[NY], evstate *v) {
  double x = y[0], xd = y[1], ax = fabs(x);
  if (ax == 0.0) {
    v->f = force(S, y);
    v->fd = event_value(S, EV_FD, y);
    v->h = event_value(S, EV_H, y);
    return;
  }
  /* the same quantities as force(), EV_FD and EV_H, from the two powers |x|^n and |x|^m */
  double sn, am;
  powers(S, x, &sn, &am);
  double pn = fabs(sn), sg = (x < 0.0) ? -1.0 : 1.0;
  double h = has_h(y) ? y[3] * S->hscale : sg * S->K * (pn / am) + S->zeta * xd;
  double f = has_h(y) ? am * h : S->K * sn + S->zeta * am * xd, xdd = S->gamma - f;
  double fd = S->K * S->n * (pn / ax) * xd + S->zeta * am * xdd;
  if (S->m != 0.0)
    fd += S->zeta * S->m * sg * (am / ax) * xd * xd;
  v->f = f;
  v->fd = fd;
  v->h = h;
}

/* Time derivative of the event functions EV_X, EV_XD and EV_H along the solution (NaN for others). */
static double event_deriv(const impactfit__sys *S, int ev, const double y[NY]) {
  double xdd = S->gamma - force(S, y);
  switch (ev) {
  case EV_X:
    return y[1];
  case EV_XD:
    return xdd;
  case EV_H: { /* d/dt [±K|x|^(n−m) + ζ x'] = K (n−m) |x|^(n−m−1) x' + ζ x'' (both signs of x) */
    double ax = fabs(y[0]);
    if (ax == 0.0)
      return NAN;
    return S->K * (S->n - S->m) * pow(ax, S->n - S->m - 1.0) * y[1] + S->zeta * xdd;
  }
  default:
    return NAN;
  }
}

static double spring_energy(const impactfit__sys *s, double x) {
  return s->K * pow(fabs(x), s->n + 1.0) / (s->n + 1.0);
}

/* ---- workspace ------------------------------------------------------------------------------ */

#define SERIES_ORDER_2D 12
#define SERIES_ORDER_3D 8
#define SERIES_TOL 1e-17 /* highest-degree terms of a series piece are below this (relative) */
#define SERIES_SAMPLES 8
#define ZERO_SPEED_FLOOR 1e-9 /* scaled speed below which reaching δ = 0 is not a separation */
/* Integrator steps per contact before giving up with ENOSEP (about 10 s). A heavily damped contact
 * is stiff for the explicit rk8pd (steps of order 1/ζ) and may creep for a time of order ζ: the time
 * bound alone let a single impact run for hours (A, m = 1, n = 1.5, ζ = 1e7). The most any supported
 * use needs is 1.9e6 (Hunt–Crossley Δτ at its limit ε = 1e7, hc.h). */
#define MAX_CONTACT_STEPS 4000000L

impactfit_impact_workspace *impactfit_impact_alloc(void) {
  impactfit_impact_workspace *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  IMPACTFIT__GSL_SCOPE;
  ws->step = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 3);
  ws->step4 = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 4);
  ws->control = gsl_odeiv2_control_standard_new(1e-13, 1e-13, 1.0, 0.0);
  ws->evolve = gsl_odeiv2_evolve_alloc(3);
  ws->evolve4 = gsl_odeiv2_evolve_alloc(4);
  ws->ser2 = impactfit__series_alloc(SERIES_ORDER_2D, 0);
  ws->ser3 = impactfit__series_alloc(SERIES_ORDER_3D, 1);
  ws->brent = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  ws->ctrl_tol = 1e-13;
  if (!ws->brent || !ws->step || !ws->step4 || !ws->control || !ws->evolve || !ws->evolve4 || !ws->ser2 || !ws->ser3) {
    impactfit_impact_free(ws);
    return NULL;
  }
  ws->gsys.function = rhs;
  ws->gsys.jacobian = NULL;
  ws->gsys.dimension = 3;
  ws->gsys.params = &ws->sys;
  ws->gsys4 = ws->gsys;
  ws->gsys4.function = rhs4;
  ws->gsys4.dimension = 4;
  return ws;
}

void impactfit_impact_free(impactfit_impact_workspace *ws) {
  if (!ws)
    return;
  if (ws->step)
    gsl_odeiv2_step_free(ws->step);
  if (ws->step4)
    gsl_odeiv2_step_free(ws->step4);
  if (ws->control)
    gsl_odeiv2_control_free(ws->control);
  if (ws->evolve)
    gsl_odeiv2_evolve_free(ws->evolve);
  if (ws->evolve4)
    gsl_odeiv2_evolve_free(ws->evolve4);
  if (ws->brent)
    gsl_root_fsolver_free(ws->brent);
  impactfit__series_free(ws->ser2);
  impactfit__series_free(ws->ser3);
  free(ws);
}

int impactfit_impact_contact(const impactfit_impact_workspace *ws, int i, impactfit_contact *out) {
  if (!ws || !out || i < 0 || i >= ws->n_contacts)
    return IMPACTFIT_EINVAL;
  *out = ws->contacts[i];
  return IMPACTFIT_OK;
}

/* ---- segments ------------------------------------------------------------------------------- */

enum { SEG_STEP, SEG_START, SEG_END, SEG_PRE };

typedef struct seg {
  int kind;
  int dim;                  /* SEG_STEP: 3, or 4 in the end phase (the step and system it replays) */
  double t0, len;           /* forward time at the segment's start; its length */
  double y0[NY], dydt0[NY]; /* SEG_STEP: state and derivative at t0 */
  int have_dydt0;
  impactfit__series_point pt; /* series pieces */
  double sigma1;              /* SEG_END/PRE: reversed time at the segment's start */
  double w_acc;               /* damping work accumulated before the segment */
  double wser1;               /* SEG_END/PRE: series damping work at sigma1 */
} seg;

/* Contact-level bookkeeping (scaled). */
typedef struct contact_state {
  const impactfit_transition *tr;
  int locate_extrema;
  int phase; /* PH_PRE, PH_COMP, PH_REST */
  double xmax, t_xmax;
  double fmax, t_fmax, fmin;
  int ended;      /* 1: contact over (end state in y_end/t_end) */
  int touched;    /* 1: B's pre-touch phase reached x = 0 */
  int asymptotic; /* 1: x reached 0 with a speed below the resolution: no separation */
  int end_phase;  /* 1: h is integrated as the fourth state (the file comment) */
  int force_end;  /* 1: the contact ended where the force fell to zero */
  int have_cache; /* event values of the last interval's end state */
  double cache_y[NY];
  evstate cache_v;
  double t_end, y_end[NY];
} contact_state;

enum { PH_PRE, PH_COMP, PH_REST };

/* The state at s inside a segment; with_work = 0: y[2] (the damping work, which no event function
 * reads) is not computed in a series piece (NAN), as the event location needs it. */
static int seg_state_w(impactfit_impact_workspace *ws, seg *sg, double s, double y[NY], int with_work) {
  impactfit__series *ser = ws->ser;
  switch (sg->kind) {
  case SEG_STEP: {
    memcpy(y, sg->y0, sizeof sg->y0);
    if (s == 0.0)
      return GSL_SUCCESS;
    int four = sg->dim == 4;
    if (!sg->have_dydt0) {
      int st = (four ? rhs4 : rhs)(sg->t0, sg->y0, sg->dydt0, &ws->sys);
      if (st)
        return st;
      sg->have_dydt0 = 1;
    }
    double yerr[NY];
    return gsl_odeiv2_step_apply(four ? ws->step4 : ws->step, sg->t0, s, y, yerr, sg->dydt0, NULL,
                                 four ? &ws->gsys4 : &ws->gsys);
  }
  case SEG_START: {
    double x, xd, w;
    impactfit__series_eval(ser, &sg->pt, s, &x, &xd, with_work ? &w : NULL, NULL, NULL);
    y[0] = x;
    y[1] = xd;
    y[2] = with_work ? sg->w_acc + w : NAN;
    y[3] = NAN;
    return GSL_SUCCESS;
  }
  case SEG_END:
  case SEG_PRE:
  default: {
    double sigma = sg->sigma1 - s;
    if (sigma < 0.0)
      sigma = 0.0;
    double X, Xs, W;
    impactfit__series_eval(ser, &sg->pt, sigma, &X, &Xs, with_work ? &W : NULL, NULL, NULL);
    if (sg->kind == SEG_END) {
      y[0] = X;
      y[1] = -Xs;
    } else {
      y[0] = -X;
      y[1] = Xs;
    }
    y[2] = with_work ? sg->w_acc + (sg->wser1 - W) : NAN;
    y[3] = NAN;
    return GSL_SUCCESS;
  }
  }
}

static int seg_state(impactfit_impact_workspace *ws, seg *sg, double s, double y[NY]) {
  return seg_state_w(ws, sg, s, y, 1);
}

typedef struct root_ctx {
  impactfit_impact_workspace *ws;
  seg *sg;
  int ev;
  int status;
  double a, b, ga, gb; /* the bracket and the caller's values at its ends */
} root_ctx;

static double root_fn(double s, void *params) {
  root_ctx *rc = params;
  double y[NY];
  int st = seg_state_w(rc->ws, rc->sg, s, y, 0);
  if (st) {
    rc->status = st;
    return 0.0;
  }
  /* f' at δ = 0 is a one-sided limit that only the caller knows the side of (fd_at_zero) */
  if (rc->ev == EV_FD && y[0] == 0.0)
    return (s - rc->a <= rc->b - s) ? rc->ga : rc->gb;
  return event_value(&rc->ws->sys, rc->ev, y);
}

/* Safeguarded Newton iteration on s for the events whose time derivative is known (δ, δ', and the
 * force's sign h): each evaluation is a full Runge–Kutta step from the segment's start, so the
 * quadratic convergence (3–4 steps from a secant guess) beats Brent's 8–12. Why our own loop: GSL's
 * derivative-based root solvers keep no bracket, and the bracket is what makes this safe. */
static int locate_newton(impactfit_impact_workspace *ws, seg *sg, int ev, double a, double b, double ga, double gb,
                         double *s_out) {
  const impactfit__sys *S = &ws->sys;
  double lo = a, hi = b, glo = ga;
  double s = a - ga * (b - a) / (gb - ga);
  if (!(s > a && s < b))
    s = 0.5 * (a + b);
  double eps = 4.0 * DBL_EPSILON * (fabs(sg->t0) + fabs(b));
  for (int it = 0; it < 100; it++) {
    double y[NY];
    if (seg_state_w(ws, sg, s, y, 0))
      return IMPACTFIT_ENONFINITE;
    double g = event_value(S, ev, y);
    if (g == 0.0)
      break;
    if ((g > 0.0) == (glo > 0.0))
      lo = s;
    else
      hi = s;
    double dg = event_deriv(S, ev, y), sn = s - g / dg;
    if (!(sn > lo && sn < hi))
      sn = 0.5 * (lo + hi);
    double step = fabs(sn - s);
    s = sn;
    if (step <= eps || hi - lo <= eps)
      break;
  }
  *s_out = s;
  return 0;
}

/* Locates a root of event ev inside [a, b] where its sign changes; returns its position in *s. */
static int locate(impactfit_impact_workspace *ws, seg *sg, int ev, double a, double b, double ga, double gb,
                  double *s) {
  if (ev != EV_FD && ga * gb < 0.0)
    return locate_newton(ws, sg, ev, a, b, ga, gb, s);
  root_ctx rc = {.ws = ws, .sg = sg, .ev = ev, .status = 0, .a = a, .b = b, .ga = ga, .gb = gb};
  gsl_function F = {root_fn, &rc};
  /* The bracket's values on the segment itself (a series piece's first point and the integrator
   * state it starts from can differ in the last bit): if they no longer straddle zero, the event is
   * at the level of rounding and sits at the end closer to zero. */
  ga = root_fn(a, &rc);
  gb = root_fn(b, &rc);
  if (rc.status)
    return IMPACTFIT_ENONFINITE;
  if (gb == 0.0 || (ga * gb > 0.0 && fabs(gb) <= fabs(ga))) {
    *s = b;
    return 0;
  }
  if (ga == 0.0 || ga * gb > 0.0) {
    *s = a;
    return 0;
  }
  /* Brent's method (GSL). Converged when the bracket is a few units of rounding of the time. */
  gsl_root_fsolver *solver = ws->brent;
  int st = gsl_root_fsolver_set(solver, &F, a, b);
  double lo = a, hi = b, r = 0.5 * (a + b);
  for (int it = 0; st == GSL_SUCCESS && it < 200; it++) {
    st = gsl_root_fsolver_iterate(solver);
    if (rc.status)
      break;
    r = gsl_root_fsolver_root(solver);
    lo = gsl_root_fsolver_x_lower(solver);
    hi = gsl_root_fsolver_x_upper(solver);
    if (hi - lo <= 4.0 * DBL_EPSILON * (fabs(sg->t0) + fabs(hi)))
      break;
  }
  if (rc.status)
    return IMPACTFIT_ENONFINITE;
  if (st != GSL_SUCCESS)
    return IMPACTFIT_ENOCONV;
  *s = r;
  return 0;
}

/* ---- trajectory samples (impactfit_impact_trace) -------------------------------------------- */

static void emit_point(impactfit_impact_workspace *ws, double t, const double y[NY], int in_contact, double element) {
  impactfit__sample_hook *hk = ws->hook;
  impactfit_trace_point pt;
  pt.t = t * hk->time_scale;
  pt.delta = y[0] * hk->delta_m0;
  pt.delta_dot = y[1] * hk->delta_m0 / hk->time_scale;
  pt.force = in_contact ? force(&ws->sys, y) * hk->force_scale : 0.0;
  pt.element = element * hk->delta_m0;
  pt.in_contact = in_contact;
  if (!hk->status)
    hk->status = hk->fn(hk->ctx, &pt);
}

/* Emits the samples whose times fall in [t0 + 0, t0 + s_hi] of a contact segment. */
static int emit_segment(impactfit_impact_workspace *ws, seg *sg, double s_hi) {
  impactfit__sample_hook *hk = ws->hook;
  if (!hk)
    return 0;
  while (!hk->status && hk->next < hk->count && hk->times[hk->next] <= sg->t0 + s_hi) {
    double s = hk->times[hk->next] - sg->t0, y[NY];
    if (s < 0.0)
      s = 0.0;
    int st = seg_state(ws, sg, s, y);
    if (st)
      return IMPACTFIT_ENONFINITE;
    emit_point(ws, hk->times[hk->next], y, 1, y[0] > 0.0 ? y[0] : 0.0);
    hk->next++;
  }
  return 0;
}

/* ---- events inside a segment ---------------------------------------------------------------- */

enum { E_MAXPEN, E_MINPEN, E_FMAX, E_FMIN, E_SEP, E_ZERO, E_TOUCH };

typedef struct cand {
  double s;
  int type;
} cand;

static void end_contact(contact_state *cs, double t, const double y[NY]) {
  cs->ended = 1;
  cs->t_end = t;
  memcpy(cs->y_end, y, NY * sizeof y[0]);
}

/* Extremal value of the cubic Hermite interpolant of f on an interval of length h with end values
 * fa, fb and derivatives da, db of opposite sign (so an interior extremum exists). */
static double hermite_extremum(double fa, double fb, double da, double db, double h) {
  /* p(u) = fa + da h u + c2 u^2 + c3 u^3, u in [0, 1] */
  double c2 = 3.0 * (fb - fa) - h * (2.0 * da + db), c3 = 2.0 * (fa - fb) + h * (da + db);
  double A = 3.0 * c3, B = 2.0 * c2, C = da * h, u;
  if (fabs(A) < 1e-300) {
    u = (B != 0.0) ? -C / B : 0.5;
  } else {
    double disc = B * B - 4.0 * A * C;
    disc = disc > 0.0 ? sqrt(disc) : 0.0;
    double q = -0.5 * (B + (B >= 0.0 ? disc : -disc));
    double u1 = (q != 0.0) ? q / A : 0.5, u2 = (q != 0.0) ? C / q : 0.5;
    u = (u1 >= 0.0 && u1 <= 1.0) ? u1 : u2;
  }
  if (!(u >= 0.0 && u <= 1.0))
    u = 0.5;
  return fa + u * (da * h + u * (c2 + u * c3));
}

/* The force's time derivative f' = K n |x|^(n−1) x' + ζ m sgn(x) |x|^(m−1) x'^2 + ζ |x|^m x'' in the
 * limit x → 0 on the side `side` (+1: x > 0, −1: x < 0), at speed x'. For 0 < m < 1 (or n < 1) a term
 * grows without bound like |x|^(m−1): the force rises from 0 like τ^m and has a sharp maximum at
 * τ ≈ m/ζ, inside the first sample interval of the start series, which a zero at δ = 0 (the value
 * of the two-sided formula) would hide. An unbounded limit is returned as ±1e150, a finite value of
 * the right sign that Brent's method can bracket with. */
static double fd_at_zero(const impactfit__sys *S, const double y[NY], double side) {
  double xd = y[1], big = 1e150;
  /* the two possibly unbounded terms, as (order of |x|, coefficient) */
  double o1 = S->n - 1.0, c1 = S->K * S->n * xd;
  double o2 = S->m - 1.0, c2 = (S->m > 0.0) ? S->zeta * S->m * side * xd * xd : 0.0;
  double inf = 0.0, fin = 0.0, omin = 0.0;
  if (c1 != 0.0 && o1 < 0.0)
    omin = o1;
  if (c2 != 0.0 && o2 < omin)
    omin = o2;
  if (omin < 0.0) {
    if (c1 != 0.0 && o1 == omin)
      inf += c1;
    if (c2 != 0.0 && o2 == omin)
      inf += c2;
    if (inf != 0.0)
      return inf > 0.0 ? big : -big;
  }
  if (o1 == 0.0)
    fin += c1;
  if (o2 == 0.0)
    fin += c2;
  if (S->m == 0.0) /* ζ x'' with x'' = γ − ζ x' (the spring force vanishes at x = 0) */
    fin += S->zeta * (S->gamma - S->zeta * xd);
  if (fin != 0.0)
    return fin;
  /* every term vanishes (n > 1, m > 1): the sign of f' is that of the leading term of
   * f = |x|^m (K side |x|^(n−m) + ζ x') as |x| → 0. The damper leads for m < n: f ≈ ζ|x|^m x', whose
   * magnitude grows leaving 0 and shrinks arriving, so f' has the sign of `side` either way (under
   * A the tensile force before the end rises back to 0: a minimum the end interval must show). The
   * spring leads for m > n (or ζ = 0): f ≈ K sgn(x)|x|^n, f' has the sign of x'. For m = n both. */
  double lead;
  if (S->zeta > 0.0 && S->m < S->n)
    lead = side;
  else if (S->zeta > 0.0 && S->m == S->n)
    lead = side * xd * (S->K * side + S->zeta * xd);
  else
    lead = xd;
  return (lead > 0.0) ? 1.0 : (lead < 0.0 ? -1.0 : 0.0);
}

/* Can the contact end where the force falls to zero (B, C, D) before δ = 0? Only for m < n. With
 * h = f/|x|^m = K x^(n−m) + ζ x', at a zero of h (x > 0): x' = −(K/ζ) x^(n−m) and x'' = γ − f = γ,
 * so dh/dt = −(K²/ζ)(n−m) x^(2(n−m)−1) + ζγ ≥ 0 when m ≥ n: h can touch zero but never cross it
 * downwards, and the contact ends at δ = 0 (for Hunt–Crossley, m = n, this is εe < 1). Watching
 * the force there would only catch rounding: at ε ≳ 1e4 the body creeps at δ' = −v/ε for a long
 * time with 1 + εδ'/v below rounding. */
static int force_can_end(const contact_state *cs, const impactfit__sys *S) {
  return cs->tr->end_on_force && S->m < S->n;
}

/* Whether [sa, sb] holds a force extremum worth locating (*is_max: a maximum). Force extrema are
 * located only where they matter: a maximum that may exceed the largest force so far, a minimum that
 * may fall below the smallest or (hidden-root guard) come near zero. The cubic Hermite interpolant of
 * f through both ends estimates the extremum's value; this keeps a resting contact, where f' hovers
 * around zero at rounding level, from locating noise. *fda, *fdb: f' at the ends, replaced at δ = 0
 * (the start or end of a contact) by its one-sided limit from inside the interval. */
static int want_force_extremum(const contact_state *cs, const impactfit__sys *S, double sa, double sb,
                               const double ya[NY], const double yb[NY], const evstate *va, const evstate *vb,
                               double *fda_io, double *fdb_io, int *is_max_out) {
  double xa = ya[0], xb = yb[0], da = ya[1], db = yb[1];
  double fda = *fda_io, fdb = *fdb_io;
  int want = 0, is_max = 0;
  int at_zero = (xa == 0.0 && da != 0.0) || (xb == 0.0 && db != 0.0);
  if (xa == 0.0 && da != 0.0)
    fda = fd_at_zero(S, ya, da > 0.0 ? 1.0 : -1.0);
  if (xb == 0.0 && db != 0.0)
    fdb = fd_at_zero(S, yb, db < 0.0 ? 1.0 : -1.0);
  if ((xa != 0.0 || da != 0.0) && (xb != 0.0 || db != 0.0) &&
      ((fda > 0.0 && fdb <= 0.0) || (fda < 0.0 && fdb >= 0.0))) {
    double fa = va->f, fb = vb->f, fh = hermite_extremum(fa, fb, fda, fdb, sb - sa);
    double tolf = 1e-6 * (fabs(fa) + fabs(fb));
    is_max = fda > 0.0;
    /* next to δ = 0 the cubic estimate means nothing (f' may be unbounded there): always locate */
    want = is_max ? (cs->locate_extrema && (at_zero || fh >= cs->fmax - tolf))
                  : ((cs->locate_extrema && (at_zero || fh <= cs->fmin + tolf)) ||
                     (force_can_end(cs, S) && fh <= 0.1 * fmin(fabs(fa), fabs(fb))));
  }
  *fda_io = fda;
  *fdb_io = fdb;
  *is_max_out = is_max;
  return want;
}

/* The events whose sign changes over [sa, sb] of a segment (states ya, yb, event values va, vb),
 * each located on its event function, into c[0..*nc) in the order found. */
static int find_candidates(impactfit_impact_workspace *ws, contact_state *cs, seg *sg, double sa, double sb,
                           const double ya[NY], const double yb[NY], const evstate *va, const evstate *vb, cand c[8],
                           int *nc_out) {
  const impactfit__sys *S = &ws->sys;
  double xa = ya[0], xb = yb[0], da = ya[1], db = yb[1];
  double fda = va->fd, fdb = vb->fd, ha = va->h, hb = vb->h;
  int nc = 0, st;
  double s;
#define ADD(cond, ev, type_, ga, gb)                   \
  if (cond) {                                          \
    if ((st = locate(ws, sg, ev, sa, sb, ga, gb, &s))) \
      return st;                                       \
    c[nc].s = s;                                       \
    c[nc++].type = type_;                              \
  }
  int pre = (cs->phase == PH_PRE);
  /* The maximum penetration is located only when asked for; otherwise the phase changes at the
   * end of the interval where δ' turned negative. */
  if (!pre && !cs->locate_extrema && da > 0.0 && db <= 0.0 && cs->phase == PH_COMP)
    cs->phase = PH_REST;
  ADD(!pre && cs->locate_extrema && da > 0.0 && db <= 0.0, EV_XD, E_MAXPEN, da, db);
  ADD(!pre && da < 0.0 && db >= 0.0, EV_XD, E_MINPEN, da, db);
  int is_max;
  ADD(want_force_extremum(cs, S, sa, sb, ya, yb, va, vb, &fda, &fdb, &is_max), EV_FD, is_max ? E_FMAX : E_FMIN, fda,
      fdb);
  if (!pre) {
    ADD(force_can_end(cs, S) && xa > 0.0 && ha > 0.0 && hb <= 0.0, EV_H, E_SEP, ha, hb);
    ADD(xa > 0.0 && xb <= 0.0, EV_X, E_ZERO, xa, xb);
  } else {
    ADD(xa < 0.0 && xb >= 0.0, EV_X, E_TOUCH, xa, xb);
    ADD(cs->tr->end_on_force && ha > 0.0 && hb <= 0.0, EV_H, E_SEP, ha, hb);
  }
#undef ADD
  *nc_out = nc;
  return 0;
}

/* A minimum of the penetration at s (state y; the previous event at s_last, state y_last): in
 * restitution with δ ≤ 0 the body dipped through δ = 0 and back inside the step, and the contact
 * ended there (*ended); otherwise compression starts again. */
static int minpen_event(impactfit_impact_workspace *ws, contact_state *cs, seg *sg, double s_last,
                        const double y_last[NY], double s, const double y[NY], int *ended) {
  int st;
  if (cs->phase == PH_REST && y[0] <= 0.0) { /* x dipped through 0 and back inside the step */
    double se, ye[NY];
    if ((st = locate(ws, sg, EV_X, s_last, s, y_last[0], y[0], &se)))
      return st;
    if ((st = seg_state(ws, sg, se, ye)))
      return IMPACTFIT_ENONFINITE;
    end_contact(cs, sg->t0 + se, ye);
    *ended = 1;
    return 0;
  }
  cs->phase = PH_COMP;
  return 0;
}

/* A force extremum of the given type at s (time t, state y; the previous event at s_last, state
 * y_last): records the extreme force; a minimum where the force may end the contact and has dipped
 * to zero and back inside the step ends the contact at that zero (*ended). */
static int force_event(impactfit_impact_workspace *ws, contact_state *cs, seg *sg, int type, double s_last,
                       const double y_last[NY], double s, double t, const double y[NY], int *ended) {
  const impactfit__sys *S = &ws->sys;
  int st;
  double f = force(S, y);
  if (cs->locate_extrema) {
    if (f > cs->fmax) {
      cs->fmax = f;
      cs->t_fmax = t;
    }
    if (f < cs->fmin)
      cs->fmin = f;
  }
  if (type == E_FMIN && force_can_end(cs, S) && cs->phase != PH_PRE && y[0] > 0.0 &&
      event_value(S, EV_H, y) <= 0.0) { /* the force dipped to zero and back inside the step */
    double se, ye[NY];
    double hl = event_value(S, EV_H, y_last);
    if (hl > 0.0) {
      if ((st = locate(ws, sg, EV_H, s_last, s, hl, event_value(S, EV_H, y), &se)))
        return st;
    } else {
      se = s_last;
    }
    if ((st = seg_state(ws, sg, se, ye)))
      return IMPACTFIT_ENONFINITE;
    end_contact(cs, sg->t0 + se, ye);
    cs->force_end = 1;
    *ended = 1;
  }
  return 0;
}

/* Scans [sa, sb] of a segment for events, given the states and event values at both ends. */
static int scan_interval(impactfit_impact_workspace *ws, contact_state *cs, seg *sg, double sa, double sb,
                         const double ya[NY], const double yb[NY], const evstate *va, const evstate *vb) {
  cand c[8];
  int nc = 0, st;
  if ((st = find_candidates(ws, cs, sg, sa, sb, ya, yb, va, vb, c, &nc)))
    return st;
  /* Process in order of position (insertion sort: at most a handful). */
  for (int i = 1; i < nc; i++)
    for (int j = i; j > 0 && c[j].s < c[j - 1].s; j--) {
      cand tmp = c[j];
      c[j] = c[j - 1];
      c[j - 1] = tmp;
    }
  double s_last = sa, y_last[NY];
  memcpy(y_last, ya, sizeof y_last);
  for (int i = 0; i < nc; i++) {
    double y[NY];
    int ended = 0;
    if ((st = seg_state(ws, sg, c[i].s, y)))
      return IMPACTFIT_ENONFINITE;
    double t = sg->t0 + c[i].s;
    switch (c[i].type) {
    case E_MAXPEN:
      if (y[0] > cs->xmax) {
        cs->xmax = y[0];
        cs->t_xmax = t;
      }
      if (cs->phase == PH_COMP)
        cs->phase = PH_REST;
      break;
    case E_MINPEN:
      if ((st = minpen_event(ws, cs, sg, s_last, y_last, c[i].s, y, &ended)) || ended)
        return st;
      break;
    case E_FMAX:
    case E_FMIN:
      if ((st = force_event(ws, cs, sg, c[i].type, s_last, y_last, c[i].s, t, y, &ended)) || ended)
        return st;
      break;
    case E_SEP:
    case E_ZERO:
      if (c[i].type == E_ZERO)
        y[0] = 0.0; /* located on the event function itself: δ = 0 up to rounding */
      /* Reaching δ = 0, or zero force, with a speed at the level of the integration error is no
       * separation: the solution approaches the event asymptotically (overdamped linear element
       * under A or B) and rounding made it cross. */
      if (-y[1] < ZERO_SPEED_FLOOR) {
        cs->asymptotic = 1;
        end_contact(cs, t, y);
        cs->ended = 0;
        return 0;
      }
      end_contact(cs, t, y);
      cs->force_end = c[i].type == E_SEP;
      return 0;
    case E_TOUCH:
    default:
      y[0] = 0.0;
      cs->touched = 1;
      cs->t_end = t;
      memcpy(cs->y_end, y, sizeof y);
      return 0;
    }
    s_last = c[i].s;
    memcpy(y_last, y, sizeof y_last);
  }
  return 0;
}

/* Scans a whole segment: its two ends for an integrator step, nsamp + 1 points for a series piece. */
static int process_segment(impactfit_impact_workspace *ws, contact_state *cs, seg *sg, int nsamp, const double *y_start,
                           const double *y_end) {
  const impactfit__sys *S = &ws->sys;
  double ya[NY], yb[NY];
  evstate va, vb;
  int st;
  if (y_start)
    memcpy(ya, y_start, sizeof ya);
  else if ((st = seg_state(ws, sg, 0.0, ya)))
    return IMPACTFIT_ENONFINITE;
  /* the previous interval's end values when this segment starts where it ended */
  if (cs->have_cache && memcmp(ya, cs->cache_y, sizeof ya) == 0)
    va = cs->cache_v;
  else
    ev_state(S, ya, &va);
  double sa = 0.0;
  for (int i = 1; i <= nsamp; i++) {
    double sb = (i == nsamp) ? sg->len : sg->len * i / nsamp;
    if (i == nsamp && y_end)
      memcpy(yb, y_end, sizeof yb);
    else if ((st = seg_state(ws, sg, sb, yb)))
      return IMPACTFIT_ENONFINITE;
    ev_state(S, yb, &vb);
    if ((st = scan_interval(ws, cs, sg, sa, sb, ya, yb, &va, &vb)))
      return st;
    if (cs->ended || cs->touched) {
      cs->have_cache = 0;
      return emit_segment(ws, sg, cs->t_end - sg->t0);
    }
    sa = sb;
    memcpy(ya, yb, sizeof ya);
    va = vb;
  }
  memcpy(cs->cache_y, ya, sizeof ya);
  cs->cache_v = va;
  cs->have_cache = 1;
  return emit_segment(ws, sg, sg->len);
}

/* ---- series pieces -------------------------------------------------------------------------- */

/* Tries to finish the approach to x = 0 with the reversed-time series: from state y at time t with
 * x > 0, x' < 0 (end of a contact), or, mirrored, x < 0, x' > 0 (B's approach before touching).
 * On success fills sg and returns 1; returns 0 when the series is not accurate here yet. */
static int try_arrival(impactfit_impact_workspace *ws, double t, const double y[NY], int mirrored, seg *sg) {
  const impactfit__sys *S = &ws->sys;
  impactfit__series *ser = ws->ser;
  double xi = mirrored ? -y[0] : y[0], s1 = mirrored ? y[1] : -y[1];
  if (!(xi > 0.0) || !(s1 > 0.0))
    return 0;
  double zr = -S->zeta, gr = mirrored ? -S->gamma : S->gamma;
  double sig = xi / s1, w = s1;
  /* Tried after every restitution step, and far from x = 0 it fails: a bound from the term that set
   * the last radius (at least the radius) proves most failures at a fraction of the radius's cost,
   * from ln w and ln σ alone (series.h). The same test as below, so the same outcome; a bound that
   * proves nothing leaves it to the test. */
  if (impactfit__series_beyond_bound(ser, ws->arr_log[0], ws->arr_log[1], ws->arr_log[2], log(w), ws->arr_log[3],
                                     log(sig) - log(0.5), ws->arr_term))
    return 0;
  impactfit__series_point pt;
  impactfit__series_point_set(&pt, ser, S->K, zr, gr, s1);
  double R = impactfit__series_radius_arg(ser, &pt, SERIES_TOL, &ws->arr_term);
  if (!(sig < 0.5 * R))
    return 0;
  /* Newton on (w, σ): X(σ; w) = ξ, X_σ(σ; w) = s1. */
  int ok = 0;
  for (int it = 0; it < 40; it++) {
    impactfit__series_point_set(&pt, ser, S->K, zr, gr, w);
    double X, Xs, dX, dXs;
    impactfit__series_eval(ser, &pt, sig, &X, &Xs, NULL, &dX, &dXs);
    double r1 = X - xi, r2 = Xs - s1;
    double Xn = pow(X, S->n), Xm = (S->m == 0.0) ? 1.0 : pow(X, S->m);
    double Xss = gr - S->K * Xn - zr * Xm * Xs;
    double det = dX * Xss - Xs * dXs;
    if (!isfinite(det) || det == 0.0)
      return 0;
    double dw = (r1 * Xss - Xs * r2) / det, ds = (dX * r2 - dXs * r1) / det;
    w -= dw;
    sig -= ds;
    if (!(w > 0.0) || !(sig > 0.0) || !isfinite(w) || !isfinite(sig))
      return 0;
    if (fabs(dw) <= 4.0 * DBL_EPSILON * w && fabs(ds) <= 4.0 * DBL_EPSILON * sig) {
      ok = 1;
      break;
    }
  }
  if (!ok)
    return 0;
  impactfit__series_point_set(&pt, ser, S->K, zr, gr, w);
  R = impactfit__series_radius(ser, &pt, SERIES_TOL);
  if (!(sig < 0.7 * R))
    return 0;
  sg->kind = mirrored ? SEG_PRE : SEG_END;
  sg->t0 = t;
  sg->len = sig;
  sg->sigma1 = sig;
  sg->pt = pt;
  sg->w_acc = y[2];
  impactfit__series_eval(ser, &pt, sig, NULL, NULL, &sg->wser1, NULL, NULL);
  return 1;
}

/* ---- one contact ---------------------------------------------------------------------------- */

enum { START_ZERO, START_PRE, START_POS };

typedef struct scaled_problem {
  const impactfit_transition *tr;
  double rtol, t_bound;
  int series, locate_extrema;
} scaled_problem;

static int set_tolerance(impactfit_impact_workspace *ws, double tol) {
  if (ws->ctrl_tol == tol)
    return 0;
  /* The same absolute and relative tolerance: the state is O(1) in the scaled variables. Where δ
   * decays towards 0 without reaching it, rounding may still make it cross; such a crossing has a
   * speed below ZERO_SPEED_FLOOR and is not taken as a separation. */
  if (gsl_odeiv2_control_init(ws->control, tol, tol, 1.0, 0.0) != GSL_SUCCESS)
    return IMPACTFIT_EINVAL;
  ws->ctrl_tol = tol;
  return 0;
}

/* Under condition A without a pressing force, for n ≥ 1 and m ≤ (n − 1)/2: 1 when the state of the
 * restitution phase (x > 0, u = −x' > 0) shows that x can no longer reach 0 in finite time. With
 * p = n − m ≥ 1 and q = n − 2m − 1 ≥ 0, that is the case when
 *     D = ζ² − 4Kp x^q ≥ 0  and  u ≤ c₂ x^p,  c₂ = (ζ + √D)/(2p x^q).
 * Why: on the curve u = c x^p, d(u − c x^p)/dt = x^n (K − ζc + p c² x^q), which is ≤ 0 at every
 * x' ≤ x when c₁ ≤ c ≤ c₂ (the roots of p x^q c² − ζc + K at x); so once u ≤ c x^p with such a c it
 * stays so while x decreases, x' ≥ −c x^p, and x only decays (like a power of t, or exponentially
 * for p = 1). For the linear family m = (n − 1)/2, D ≥ 0 is exactly the overdamped case ζ ≥ n + 1.
 * Without this test a heavily damped contact under A creeps to the time bound 1e4 ζ at a cost that
 * grows like ζ² (14 s at ζ = 100, hours at 1e4). The 1e-6 margin keeps rounding on the safe side:
 * a contact that does separate is never cut short. */
static int creeps_forever(const impactfit__sys *s, const impactfit_transition *tr, const double y[]) {
  double x = y[0], u = -y[1];
  if (tr != impactfit_transition_A || s->gamma != 0.0 || !(s->n >= 1.0) || !(s->m <= 0.5 * (s->n - 1.0)) ||
      !(x > 0.0) || !(u > 0.0))
    return 0;
  double p = s->n - s->m, q = s->n - 2.0 * s->m - 1.0, xq = (q > 0.0) ? pow(x, q) : 1.0;
  double D = s->zeta * s->zeta - 4.0 * s->K * p * xq;
  if (!(D >= 0.0) || !(xq > 0.0))
    return 0;
  double c2 = (s->zeta + sqrt(D)) / (2.0 * p * xq);
  return u <= (1.0 - 1e-6) * c2 * pow(x, p);
}

/* Whether the end phase (the file comment) starts at state y, after an integrator step: the contact
 * may end on the force, n − m < END_PHASE_P, in restitution (x > 0, x' < 0) with h below ζ|x'|
 * (it cancels). If so, sets y[3] and the scale of h: the size h has where it crosses zero,
 * |h'|/(ζ|x|^m) with h' from its slope term, at most 1. */
static int enter_end_phase(const contact_state *cs, impactfit__sys *S, double y[NY]) {
  double x = y[0], xd = y[1];
  if (!force_can_end(cs, S) || !(S->n - S->m < END_PHASE_P) || cs->phase != PH_REST || !(x > 0.0) || !(xd < 0.0))
    return 0;
  double sn, am;
  powers(S, x, &sn, &am);
  double h = S->K * (sn / am) + S->zeta * xd;
  if (!(h < -S->zeta * xd) || !(am > 0.0))
    return 0;
  double slope = S->K * (S->n - S->m) * (sn / (am * x)) * -xd;
  double scale = slope / (S->zeta * am);
  S->hscale = (scale < 1.0 && scale > 0.0) ? scale : 1.0;
  y[3] = h / S->hscale;
  return 1;
}

/* Integrates from (t, y) until the contact ends (or B's approach touches), by rk8pd steps and a
 * series arrival at x = 0. */
static int integrate(impactfit_impact_workspace *ws, const scaled_problem *P, contact_state *cs, double t, double y[NY],
                     double h, long *steps, impactfit_error *err) {
  gsl_odeiv2_evolve_reset(ws->evolve);
  gsl_odeiv2_evolve_reset(ws->evolve4);
  long contact_steps = 0;
  while (!cs->ended && !cs->touched) {
    if (cs->asymptotic)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                             "no separation: the bodies approach delta = 0 asymptotically (speed at "
                             "delta = 0 below %g v; transition %s, zeta = %g)",
                             ZERO_SPEED_FLOOR, P->tr->name, ws->sys.zeta);
    if (!(t < P->t_bound)) {
      cs->t_end = t; /* the state at the bound, for a resting contact's record */
      memcpy(cs->y_end, y, NY * sizeof y[0]);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                             "no separation before the time bound (t_max = %g in units of "
                             "delta_m0/v): the bodies stay in contact (transition %s, zeta = %g)",
                             P->t_bound, P->tr->name, ws->sys.zeta);
    }
    seg sg;
    sg.kind = SEG_STEP;
    sg.dim = cs->end_phase ? 4 : 3;
    sg.t0 = t;
    memcpy(sg.y0, y, sizeof sg.y0);
    sg.have_dydt0 = 0;
    int st = cs->end_phase
                 ? gsl_odeiv2_evolve_apply(ws->evolve4, ws->control, ws->step4, &ws->gsys4, &t, P->t_bound, &h, y)
                 : gsl_odeiv2_evolve_apply(ws->evolve, ws->control, ws->step, &ws->gsys, &t, P->t_bound, &h, y);
    if (st == GSL_EBADFUNC || !isfinite(y[0]) || !isfinite(y[1]) || !isfinite(y[2]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE,
                             "non-finite state at t = %g (scaled): the parameters are outside the "
                             "range the integrator can follow",
                             t);
    if (st != GSL_SUCCESS)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ESTEP, "integrator step failed at t = %g (scaled): %s", t,
                             gsl_strerror(st));
    (*steps)++;
    if (++contact_steps > MAX_CONTACT_STEPS) {
      cs->t_end = t;
      memcpy(cs->y_end, y, NY * sizeof y[0]);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                             "no separation within %g integrator steps (t = %g of the time bound %g "
                             "delta_m0/v, delta = %g delta_m0): a creep too slow to follow (transition "
                             "%s, zeta = %g)",
                             (double)MAX_CONTACT_STEPS, t, P->t_bound, y[0], P->tr->name, ws->sys.zeta);
    }
    sg.len = t - sg.t0;
    /* Static equilibrium under a pressing force: the contact can never end. */
    if (ws->sys.gamma > 0.0 && fabs(y[1]) <= 1e-12 &&
        fabs(force(&ws->sys, y) - ws->sys.gamma) <= 1e-10 * ws->sys.gamma) {
      cs->t_end = t;
      memcpy(cs->y_end, y, NY * sizeof y[0]);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                             "no separation: the bodies come to rest in contact (static "
                             "equilibrium at delta = %g delta_m0, transition %s)",
                             y[0], P->tr->name);
    }
    if ((st = process_segment(ws, cs, &sg, 1, sg.y0, y)))
      return IMPACTFIT__FAIL(err, st, "event location failed at t = %g (scaled)", t);
    if (cs->ended || cs->touched || cs->asymptotic)
      continue;
    if (!cs->end_phase && enter_end_phase(cs, &ws->sys, y))
      cs->end_phase = 1;
    if (creeps_forever(&ws->sys, P->tr, y)) {
      cs->t_end = t;
      memcpy(cs->y_end, y, NY * sizeof y[0]);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                             "no separation: the bodies creep towards delta = 0 without reaching it "
                             "(transition A, zeta = %g; shown at t = %g delta_m0/v, delta = %g delta_m0)",
                             ws->sys.zeta, t, y[0]);
    }
    if (P->series &&
        ((cs->phase == PH_REST && y[0] > 0.0 && y[1] < 0.0) || (cs->phase == PH_PRE && y[0] < 0.0 && y[1] > 0.0))) {
      seg as;
      if (try_arrival(ws, t, y, cs->phase == PH_PRE, &as)) {
        if ((st = process_segment(ws, cs, &as, cs->locate_extrema ? SERIES_SAMPLES : 2, y, NULL)))
          return IMPACTFIT__FAIL(err, st, "event location failed in the arrival series");
        if (!cs->ended && !cs->touched && !cs->asymptotic) /* x = 0 at the segment's end */
          return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "arrival series did not reach delta = 0");
      }
    }
  }
  return 0;
}

typedef struct contact_out {
  int ended;
  double t_start, x_start, v_start, f_start;
  double t_end, x_end, v_end, f_end; /* v_end: x' at the end (negative when leaving) */
  double xmax, t_xmax, fmax, t_fmax, fmin;
  double work, energy_error;
} contact_out;

static int do_contact(impactfit_impact_workspace *ws, const scaled_problem *P, int kind, double t0, double x0,
                      double v0, contact_out *out, long *steps, impactfit_error *err) {
  const impactfit__sys *S = &ws->sys;
  contact_state cs;
  memset(&cs, 0, sizeof cs);
  cs.tr = P->tr;
  cs.locate_extrema = P->locate_extrema;
  double y[NY] = {x0, v0, 0.0, NAN};
  double f0 = force(S, y);
  cs.fmax = cs.fmin = f0;
  cs.t_fmax = t0;
  cs.xmax = x0;
  cs.t_xmax = t0;
  out->t_start = t0;
  out->x_start = x0;
  out->v_start = v0;
  out->f_start = f0;
  double t = t0;
  int st = 0;
  if (kind == START_PRE) {
    cs.phase = PH_PRE;
    /* the first step stays short of the touch (at most half the gap): the approach to δ = 0, where
     * |δ|^m is not smooth, is then left to the arrival series instead of an integrator step across it
     * (whose stages see |δ|^m fall from ≈ 1 to 0 for small m: 2.7e-13 in e_out at m = 0.01) */
    double h0 = fmin(1e-3, 0.5 * fabs(x0) / fmax(fabs(v0), 1e-300));
    if ((st = integrate(ws, P, &cs, t, y, h0, steps, err)))
      goto finish;
    if (cs.touched) {
      t = cs.t_end;
      memcpy(y, cs.y_end, sizeof y);
      cs.touched = 0;
      kind = START_ZERO;
    }
  }
  if (!cs.ended && kind == START_ZERO) {
    cs.phase = PH_COMP;
    double w = y[1], h = 1e-6;
    if (P->series) {
      seg sg;
      sg.kind = SEG_START;
      sg.t0 = t;
      sg.w_acc = y[2];
      impactfit__series_point_set(&sg.pt, ws->ser, S->K, S->zeta, S->gamma, w);
      double tau0 = impactfit__series_radius(ws->ser, &sg.pt, SERIES_TOL);
      if (tau0 > 1.0)
        tau0 = 1.0;
      double xd;
      for (int i = 0; i < 60; i++) { /* keep the start piece inside the compression phase */
        impactfit__series_eval(ws->ser, &sg.pt, tau0, NULL, &xd, NULL, NULL, NULL);
        if (xd > 0.25 * w)
          break;
        tau0 *= 0.5;
      }
      sg.len = tau0;
      double ys[NY] = {0.0, w, y[2], NAN};
      /* without extrema to look for, nothing can happen inside the start piece (δ' > w/4) */
      if ((st = process_segment(ws, &cs, &sg, cs.locate_extrema ? SERIES_SAMPLES : 1, ys, NULL)))
        return IMPACTFIT__FAIL(err, st, "event location failed in the start series");
      if (!cs.ended) {
        seg_state(ws, &sg, tau0, y);
        t += tau0;
        h = 0.5 * tau0;
      }
    } else {
      y[0] = 0.0;
    }
    if (!cs.ended && (st = integrate(ws, P, &cs, t, y, h, steps, err)))
      goto finish;
  } else if (!cs.ended && kind == START_POS) {
    cs.phase = (v0 >= 0.0) ? PH_COMP : PH_REST;
    if ((st = integrate(ws, P, &cs, t, y, 1e-3, steps, err)))
      goto finish;
  }
finish:
  if (st && st != IMPACTFIT_ENOSEP)
    return st;
  out->ended = cs.ended;
  out->t_end = cs.t_end;
  out->x_end = cs.y_end[0];
  out->v_end = cs.y_end[1];
  /* where the force ended the contact it is 0 there by definition (computed, a rounding residue) */
  out->f_end = (cs.ended && cs.force_end) ? 0.0 : force(S, cs.y_end);
  if (cs.locate_extrema) {
    if (out->f_end > cs.fmax) {
      cs.fmax = out->f_end;
      cs.t_fmax = cs.t_end;
    }
    if (out->f_end < cs.fmin)
      cs.fmin = out->f_end;
  }
  out->xmax = cs.xmax;
  out->t_xmax = cs.t_xmax;
  out->fmax = cs.fmax;
  out->t_fmax = cs.t_fmax;
  /* B, C, D: the contact lasts while the force is positive, so its minimum is 0 (the end, or B's
   * start); a negative value located next to the end is rounding */
  out->fmin = (P->tr->end_on_force && cs.fmin < 0.0) ? 0.0 : cs.fmin;
  out->work = cs.y_end[2];
  /* ½v_in² − ½v_out² + γ Δx = W + ΔU */
  double lhs = 0.5 * (v0 * v0 - out->v_end * out->v_end) + S->gamma * (out->x_end - x0);
  double rhs_ = out->work + spring_energy(S, out->x_end) - spring_energy(S, x0);
  out->energy_error = fabs(lhs - rhs_);
  return st;
}

/* ---- free flight between contacts (accel > 0) ----------------------------------------------- */

/* Compression of the relaxing element (D) a time d after separation at x_s:
 * ζ x_f^m x_f' = −K x_f^n, i.e. x_f' = −(K/ζ) x_f^p, p = n − m. */
static double element_relax(const impactfit__sys *S, double xs, double d) {
  if (xs <= 0.0)
    return 0.0;
  if (S->zeta == 0.0)
    return 0.0;
  double p = S->n - S->m, r = S->K / S->zeta;
  if (p == 1.0)
    return xs * exp(-r * d);
  double base = pow(xs, 1.0 - p) - (1.0 - p) * r * d;
  if (p < 1.0)
    return base > 0.0 ? pow(base, 1.0 / (1.0 - p)) : 0.0;
  return pow(base, 1.0 / (1.0 - p)); /* p > 1: base grows, x_f decays algebraically */
}

typedef struct flight {
  const impactfit__sys *S;
  double xs, vs; /* state at separation */
  int relax;     /* D */
  int which;     /* 0: body − element (D), 1: force sign (B) */
} flight;

static void flight_state(const flight *F, double d, double y[NY]) {
  y[0] = F->xs + F->vs * d + 0.5 * F->S->gamma * d * d;
  y[1] = F->vs + F->S->gamma * d;
  y[2] = 0.0;
  y[3] = NAN;
}

static double flight_fn(double d, void *params) {
  const flight *F = params;
  double y[NY];
  flight_state(F, d, y);
  if (F->which == 0)
    return y[0] - element_relax(F->S, F->xs, d);
  return event_value(F->S, EV_H, y);
}

/* First d in (0, dhi] where flight_fn becomes ≥ 0 after being negative (scan + Brent). */
static int flight_root(impactfit_impact_workspace *ws, flight *F, double dhi, double *d) {
  gsl_function fn = {flight_fn, F};
  const int M = 256;
  double a = 0.0, ga = -1.0;
  for (int i = 1; i <= M; i++) {
    double b = dhi * (double)i / M, gb = flight_fn(b, F);
    if (i == 1 && gb >= 0.0) { /* refine near 0: the functions start at 0 and dip first */
      b = dhi * 1e-6;
      gb = flight_fn(b, F);
    }
    if (ga < 0.0 && gb >= 0.0 && a > 0.0) {
      if (gb == 0.0) {
        *d = b;
        return 0;
      }
      if (gsl_root_fsolver_set(ws->brent, &fn, a, b) != GSL_SUCCESS)
        return IMPACTFIT_ENOCONV;
      double r = b;
      for (int it = 0; it < 200; it++) {
        if (gsl_root_fsolver_iterate(ws->brent) != GSL_SUCCESS)
          return IMPACTFIT_ENOCONV;
        r = gsl_root_fsolver_root(ws->brent);
        if (gsl_root_fsolver_x_upper(ws->brent) - gsl_root_fsolver_x_lower(ws->brent) <= 4.0 * DBL_EPSILON * b)
          break;
      }
      *d = r;
      return 0;
    }
    a = b;
    ga = gb;
  }
  return IMPACTFIT_ENOROOT;
}

static void emit_flight(impactfit_impact_workspace *ws, double t_sep, const flight *F, double t_hi) {
  impactfit__sample_hook *hk = ws->hook;
  if (!hk)
    return;
  while (!hk->status && hk->next < hk->count && hk->times[hk->next] <= t_hi) {
    double d = hk->times[hk->next] - t_sep, y[NY];
    flight_state(F, d, y);
    double el = F->relax ? element_relax(F->S, F->xs, d) : 0.0;
    emit_point(ws, hk->times[hk->next], y, 0, el);
    hk->next++;
  }
}

/* Finds the start of the next contact after separation at (t_sep, xs, vs). Returns 0 and the start
 * kind and state, or ENOROOT when there is none before the time bound. */
static int next_start(impactfit_impact_workspace *ws, const scaled_problem *P, double t_sep, double xs, double vs,
                      int *kind, double *t_next, double *x_next, double *v_next, double *element) {
  const impactfit__sys *S = &ws->sys;
  double g = S->gamma;
  flight F = {.S = S, .xs = xs, .vs = vs, .relax = P->tr->relax_element, .which = 0};
  double d = 0.0;
  *element = 0.0;
  if (P->tr->start_on_force) {
    F.which = 1;
    double dhi = 2.0 * fabs(vs) / g + 2.0 * sqrt(2.0 * fabs(xs) / g) + 1e-300;
    if (flight_root(ws, &F, dhi, &d))
      return IMPACTFIT_ENOROOT;
    double y[NY];
    flight_state(&F, d, y);
    *x_next = y[0];
    *v_next = y[1];
    *kind = (y[0] < 0.0) ? START_PRE : START_POS;
  } else if (P->tr->relax_element && xs > 0.0 && S->zeta > 0.0) {
    F.which = 0;
    double dhi = 2.0 * fabs(vs) / g + 2.0 * sqrt(2.0 * xs / g);
    if (flight_root(ws, &F, dhi, &d))
      return IMPACTFIT_ENOROOT;
    double y[NY];
    flight_state(&F, d, y);
    double el = element_relax(S, xs, d);
    *element = el;
    *v_next = y[1];
    if (el > 0.0) {
      *x_next = el;
      *kind = START_POS;
    } else {
      *x_next = 0.0;
      *kind = START_ZERO;
    }
  } else {
    /* A, C (and D once relaxed): the next contact starts where x = 0 is crossed inwards. */
    double disc = vs * vs - 2.0 * g * xs;
    if (xs <= 0.0 || disc >= 0.0) {
      double sq = sqrt(disc > 0.0 ? disc : 0.0);
      d = (-vs + sq) / g;
      *x_next = 0.0;
      *v_next = sq;
      *kind = START_ZERO;
    } else {
      /* C: the body turns back before leaving the undeformed surface. The element (compression x,
       * as C assumes) pushes again once its force ζ x^m x' + ((n+1)/2) x^n rises through zero,
       * which happens before the turning point d = −vs/g, where x' = 0 and the force is positive:
       * the contact restarts there (the same rule as the multibody systems, multibody.h). */
      F.which = 1;
      if (flight_root(ws, &F, -vs / g, &d))
        d = -vs / g; /* the force is positive from the start of the flight (rounding): turn point */
      double y[NY];
      flight_state(&F, d, y);
      *x_next = y[0];
      *v_next = y[1];
      *kind = START_POS;
    }
  }
  *t_next = t_sep + d;
  emit_flight(ws, t_sep, &F, *t_next);
  if (!(*t_next < P->t_bound))
    return IMPACTFIT_ENOROOT;
  return 0;
}

/* ---- the solve ------------------------------------------------------------------------------ */

static int solve(impactfit_impact_workspace *ws, const impactfit_impact_params *p, impactfit_impact_result *res,
                 impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!ws)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace given");
  double d0, T, Fs, zeta, gamma;
  int st = impactfit_impact_scales(p, &d0, &T, &Fs, &zeta, &gamma, err);
  if (st)
    return st;
  impactfit__sys *S = &ws->sys;
  S->n = p->n;
  S->m = p->m;
  set_kinds(S);
  S->K = 0.5 * (p->n + 1.0);
  S->zeta = zeta;
  S->gamma = gamma;
  S->nevals = 0;
  if (p->transition == impactfit_transition_B && p->m == p->n && zeta > S->K)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "transition B is undefined for m = n when c v > k: the extended element "
                           "force is positive at every negative penetration");
  ws->ser = (gamma > 0.0) ? ws->ser3 : ws->ser2;
  ws->arr_log[0] = log(S->K); /* try_arrival's logarithms of the point's constants */
  ws->arr_log[1] = log(fabs(zeta));
  ws->arr_log[2] = log(fabs(gamma));
  ws->arr_log[3] = log(SERIES_TOL);
  impactfit__series_set(ws->ser, p->n, p->m);
  if ((st = set_tolerance(ws, p->rtol)))
    return IMPACTFIT__FAIL(err, st, "cannot set the integrator tolerance %g", p->rtol);
  /* the creep towards δ = 0 under heavy damping takes a time ∝ ζ (at δ' ≈ −v/ε for Hunt–Crossley) */
  double t_bound = (p->t_max > 0.0) ? p->t_max : 1e4 * fmax(1.0, zeta);
  scaled_problem P = {.tr = p->transition,
                      .rtol = p->rtol,
                      .t_bound = t_bound,
                      .series = p->series,
                      .locate_extrema = p->locate_extrema};
  long steps = 0;
  ws->n_contacts = 0;

  /* The first contact: B starts where the extended force reaches zero before touching. */
  int kind = START_ZERO;
  double x0 = 0.0;
  if (p->transition == impactfit_transition_B && p->m < p->n && zeta > 0.0) {
    x0 = -pow(zeta / S->K, 1.0 / (p->n - p->m));
    kind = START_PRE;
    if (!(x0 < 0.0)) { /* the gap underflows (m just below n, ζ < K): the contact starts at δ = 0 */
      x0 = 0.0;
      kind = START_ZERO;
    }
  }
  double t0 = 0.0, v0 = 1.0, element = 0.0;
  contact_out first;
  memset(&first, 0, sizeof first);
  for (int i = 0; i < p->max_contacts; i++) {
    contact_out co;
    st = do_contact(ws, &P, kind, t0, x0, v0, &co, &steps, err);
    if (st && (i == 0 || st != IMPACTFIT_ENOSEP)) {
      /* the cost of the failed attempt still counts (sweeps and inverse solvers add it up) */
      memset(res, 0, sizeof *res);
      res->zeta = zeta;
      res->gamma = gamma;
      res->delta_m0 = d0;
      res->rhs_evals = S->nevals;
      res->steps = steps;
      return st;
    }
    if (st) /* a later contact that does not end is a resting contact, not an error */
      impactfit_error_clear(err);
    impactfit_contact *rec = &ws->contacts[ws->n_contacts++];
    rec->t_start = co.t_start * T;
    rec->t_end = co.t_end * T;
    rec->delta_start = co.x_start * d0;
    rec->delta_end = co.x_end * d0;
    rec->v_in = co.v_start * p->v;
    rec->v_out = -co.v_end * p->v;
    rec->f_start = co.f_start * Fs;
    rec->f_end = co.f_end * Fs;
    rec->element_start = element * d0;
    rec->ended = co.ended;
    if (i == 0)
      first = co;
    if (!co.ended || i + 1 == p->max_contacts)
      break;
    double t1, x1, v1;
    if (next_start(ws, &P, co.t_end, co.x_end, co.v_end, &kind, &t1, &x1, &v1, &element))
      break;
    t0 = t1;
    x0 = x1;
    v0 = v1;
  }
  /* Samples after the last contact: free flight (and the relaxing element under D). */
  if (ws->hook && ws->n_contacts > 0 && ws->contacts[ws->n_contacts - 1].ended) {
    impactfit_contact *last = &ws->contacts[ws->n_contacts - 1];
    flight F = {.S = S,
                .xs = last->delta_end / d0,
                .vs = -last->v_out / p->v,
                .relax = p->transition->relax_element,
                .which = 0};
    emit_flight(ws, last->t_end / T, &F, INFINITY);
  }
  memset(res, 0, sizeof *res);
  res->e_out = -first.v_end; /* scaled approach speed is 1 */
  res->t_contact = (first.t_end - first.t_start) * T;
  res->f_max = first.fmax * Fs;
  res->t_fmax = first.t_fmax * T;
  res->f_min = first.fmin * Fs;
  res->delta_max = first.xmax * d0;
  res->t_delta_max = first.t_xmax * T;
  res->delta_start = first.x_start * d0;
  res->delta_sep = first.x_end * d0;
  res->f_start = first.f_start * Fs;
  res->f_end = first.f_end * Fs;
  res->damping_work = first.work * p->mass * p->v * p->v;
  res->energy_error = first.energy_error / 0.5;
  res->zeta = zeta;
  res->gamma = gamma;
  res->delta_m0 = d0;
  res->rhs_evals = S->nevals;
  res->steps = steps;
  res->n_contacts = ws->n_contacts;
  if (!isfinite(res->e_out) || !isfinite(res->t_contact))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "non-finite result");
  return IMPACTFIT_OK;
}

int impactfit_impact_solve(impactfit_impact_workspace *ws, const impactfit_impact_params *p,
                           impactfit_impact_result *res, impactfit_error *err) {
  impactfit_impact_result tmp;
  if (ws)
    ws->hook = NULL;
  return solve(ws, p, res ? res : &tmp, err);
}

int impactfit_impact_trace(impactfit_impact_workspace *ws, const impactfit_impact_params *p, size_t points,
                           impactfit_trace_fn fn, void *ctx, impactfit_impact_result *res, impactfit_error *err) {
  if (!fn || points < 2)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "a trace needs a callback and at least 2 points");
  impactfit_impact_result r1;
  int st = impactfit_impact_solve(ws, p, &r1, err);
  if (st)
    return st;
  double d0, T, Fs;
  impactfit_impact_scales(p, &d0, &T, &Fs, NULL, NULL, NULL);
  double t_last = ws->contacts[ws->n_contacts - 1].t_end / T;
  double span = 1.25 * t_last;
  double *times = malloc(points * sizeof *times);
  if (!times)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for %zu trace points", points);
  for (size_t i = 0; i < points; i++)
    times[i] = span * (double)i / (double)(points - 1);
  impactfit__sample_hook hk = {.times = times,
                               .count = points,
                               .next = 0,
                               .t_end = t_last,
                               .fn = fn,
                               .ctx = ctx,
                               .delta_m0 = d0,
                               .time_scale = T,
                               .force_scale = Fs,
                               .status = 0};
  ws->hook = &hk;
  st = solve(ws, p, res ? res : &r1, err);
  ws->hook = NULL;
  free(times);
  if (st)
    return st;
  if (hk.status)
    return hk.status;
  return IMPACTFIT_OK;
}
