/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Two impacting pendulums (Poursina & Nikravesh 2020, §6): include/impactfit/multibody.h.
 *
 * State y = (θ1, θ2, θ1', θ2'). Free flight and contact (continuous models) are integrated with the
 * event-locating rk8pd of hybrid.h; a contact starts where δ rises through 0 (with 0 ≤ ℓ ≤ L1) and,
 * under condition C, ends where the force falls to 0: for f = k δ^n + c δ^m δ' with m < n the sign
 * of f is that of H = k δ^(n−m) + c δ', for m = n that of H = k + c δ' (and the contact ends at
 * δ = 0 at the latest).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h> /* M_PI */

#include "../common/common_impl.h"
#include "hybrid.h"
#include "impactfit/impact.h"
#include "impactfit/inverse.h"
#include "impactfit/multibody.h"

/* ---- models ------------------------------------------------------------------------------------ */

static const impactfit_pendulum_model md_impulse = {"impulse", "piecewise impulse-momentum method with restitution e"};
static const impactfit_pendulum_model md_copt = {"copt", "Hertz spring + linear damper c_opt (condition C), exact for "
                                                         "each impact"};
static const impactfit_pendulum_model md_flores = {"flores", "Hunt-Crossley with Flores et al.'s lambda = 8(1-e)k/(5 e "
                                                             "v)"};
const impactfit_pendulum_model *const impactfit_pendulum_impulse = &md_impulse;
const impactfit_pendulum_model *const impactfit_pendulum_copt = &md_copt;
const impactfit_pendulum_model *const impactfit_pendulum_flores = &md_flores;

const impactfit_pendulum_model *impactfit_pendulum_model_from_name(const char *name) {
  static const impactfit_pendulum_model *const all[] = {&md_impulse, &md_copt, &md_flores};
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (strcmp(name, all[i]->name) == 0)
      return all[i];
  return NULL;
}

impactfit_pendulum_params impactfit_pendulum_default_params(void) {
  impactfit_pendulum_params p;
  memset(&p, 0, sizeof p);
  p.m1 = 1.0;
  p.m2 = 0.2;
  p.L1 = 6.0;
  p.L2 = 4.0;
  p.a = 2.0;
  p.g = 9.81;
  p.theta1 = M_PI / 12.0;
  p.theta2 = -M_PI / 2.0;
  p.e = 0.3;
  p.n = 1.5;
  p.k = 1e8;
  p.model = impactfit_pendulum_impulse;
  p.t_end = 8.0;
  p.rtol = 1e-12;
  return p;
}

/* ---- the system -------------------------------------------------------------------------------- */

typedef struct pend {
  double m1, m2, L1, L2, a, g, I1, I2;
  double k, n, c, mexp; /* contact force k δ^n + c δ^mexp δ' */
  int in_contact;
  long nevals;
} pend;

typedef struct geo {
  double delta, ddelta, lever, cphi, sphi;
} geo;

static void geometry(const pend *P, const double *y, geo *G) {
  double phi = y[1] - y[0];
  G->cphi = cos(phi);
  G->sphi = sin(phi);
  G->delta = P->L2 * G->sphi - P->a * cos(y[0]);
  G->lever = P->L2 * G->cphi - P->a * sin(y[0]);
  G->ddelta = -G->lever * y[2] + P->L2 * G->cphi * y[3];
}

static double contact_force(const pend *P, double d, double dd) {
  if (!P->in_contact)
    return 0.0;
  double ad = fabs(d);
  double sn = (P->n == 1.0) ? ad : pow(ad, P->n);
  double am = (P->mexp == 0.0) ? 1.0 : pow(ad, P->mexp);
  return P->k * (d < 0.0 ? -sn : sn) + P->c * am * dd;
}

/* Angular accelerations; returns the contact force. */
static double accel(const pend *P, const double *y, const geo *G, double *al1, double *al2) {
  double f = contact_force(P, G->delta, G->ddelta);
  *al1 = (-P->m1 * P->g * 0.5 * P->L1 * sin(y[0]) + f * G->lever) / P->I1;
  *al2 = (-P->m2 * P->g * 0.5 * P->L2 * sin(y[1]) - f * P->L2 * G->cphi) / P->I2;
  return f;
}

static int rhs(double t, const double y[], double dydt[], void *params) {
  (void)t;
  pend *P = params;
  P->nevals++;
  geo G;
  geometry(P, y, &G);
  double a1, a2;
  accel(P, y, &G, &a1, &a2);
  dydt[0] = y[2];
  dydt[1] = y[3];
  dydt[2] = a1;
  dydt[3] = a2;
  return (isfinite(a1) && isfinite(a2)) ? GSL_SUCCESS : GSL_EBADFUNC;
}

/* δ'' along the motion. */
static double delta_dd(const pend *P, const double *y, const geo *G) {
  double a1, a2;
  accel(P, y, G, &a1, &a2);
  double w1 = y[2], w2 = y[3], phid = w2 - w1;
  double lever_d = -P->L2 * G->sphi * phid - P->a * cos(y[0]) * w1;
  return -lever_d * w1 - G->lever * a1 - P->L2 * G->sphi * phid * w2 + P->L2 * G->cphi * a2;
}

static double energy(const pend *P, const double *y) {
  double E = 0.5 * P->I1 * y[2] * y[2] + 0.5 * P->I2 * y[3] * y[3] - P->m1 * P->g * 0.5 * P->L1 * cos(y[0]) -
             P->m2 * P->g * 0.5 * P->L2 * cos(y[1]);
  if (P->in_contact) {
    geo G;
    geometry(P, y, &G);
    if (G.delta > 0.0)
      E += P->k * pow(G.delta, P->n + 1.0) / (P->n + 1.0);
  }
  return E;
}

/* event functions */
static double f_delta(double t, const double *y, void *ctx) {
  geo G;
  geometry(ctx, y, &G);
  return G.delta;
}
static double fd_delta(double t, const double *y, void *ctx) {
  geo G;
  geometry(ctx, y, &G);
  return G.ddelta;
}
/* H: the sign of the force while δ > 0 (see the top of the file). */
static double f_sep(double t, const double *y, void *ctx) {
  const pend *P = ctx;
  geo G;
  geometry(P, y, &G);
  double p = P->n - P->mexp, ad = fabs(G.delta);
  double s = (p == 0.0) ? 1.0 : (ad == 0.0 ? 0.0 : pow(ad, p));
  return P->k * (G.delta < 0.0 && p != 0.0 ? -s : s) + P->c * G.ddelta;
}
static double fd_sep(double t, const double *y, void *ctx) {
  const pend *P = ctx;
  geo G;
  geometry(P, y, &G);
  double p = P->n - P->mexp, ad = fabs(G.delta);
  double d = (p == 0.0 || ad == 0.0) ? 0.0 : P->k * p * pow(ad, p - 1.0) * G.ddelta;
  return d + P->c * delta_dd(P, y, &G);
}
static double f_force(double t, const double *y, void *ctx) {
  geo G;
  geometry(ctx, y, &G);
  return contact_force(ctx, G.delta, G.ddelta);
}
static double fd_force(double t, const double *y, void *ctx) {
  const pend *P = ctx;
  geo G;
  geometry(P, y, &G);
  double d = G.delta, dd = G.ddelta, ad = fabs(d), ddd = delta_dd(P, y, &G);
  if (ad == 0.0)
    return P->c * (P->mexp == 0.0 ? ddd : 0.0);
  double r = P->k * P->n * pow(ad, P->n - 1.0) * dd;
  double am = (P->mexp == 0.0) ? 1.0 : pow(ad, P->mexp);
  r += P->c * am * ddd;
  if (P->mexp != 0.0)
    r += P->c * P->mexp * pow(ad, P->mexp - 1.0) * dd * dd;
  return r;
}

/* ---- c_opt ------------------------------------------------------------------------------------- */

/* c_opt for the impact: the inverse solver of inverse.h (m = 0, condition C, |e_out − e| ≤ 1e-10 min(e, 1 − e))
 * with the effective mass and approach velocity at the contact point. */
static int copt_damping(impactfit_inverse_workspace *inv, double n, double k, double mass, double v, double e,
                        double *c, impactfit_error *err) {
  impactfit_inverse_params ip = impactfit_inverse_default_params();
  ip.n = n;
  impactfit_copt_result r;
  int st = impactfit_copt_solve(inv, &ip, e, k, mass, v, 0, &r, err);
  if (!st)
    *c = r.c_opt;
  return st;
}

struct impactfit_pendulum_workspace {
  impactfit__hyb H;
  impactfit_inverse_workspace *inv;
  int n_impacts;
  impactfit_pendulum_impact impacts[IMPACTFIT_PENDULUM_MAX_IMPACTS];
};

impactfit_pendulum_workspace *impactfit_pendulum_alloc(void) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_pendulum_workspace *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  ws->inv = impactfit_inverse_alloc();
  if (!ws->inv) {
    free(ws);
    return NULL;
  }
  return ws;
}

void impactfit_pendulum_free(impactfit_pendulum_workspace *ws) {
  if (!ws)
    return;
  impactfit__hyb_release(&ws->H);
  impactfit_inverse_free(ws->inv);
  free(ws);
}

int impactfit_pendulum_impact_get(const impactfit_pendulum_workspace *ws, int i, impactfit_pendulum_impact *out) {
  if (!ws || !out || i < 0 || i >= ws->n_impacts)
    return IMPACTFIT_EINVAL;
  *out = ws->impacts[i];
  return 0;
}

#define REQUIRE(cond, ...)                                        \
  do {                                                            \
    if (!(cond))                                                  \
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, __VA_ARGS__); \
  } while (0)
#define POS(x) (isfinite(x) && (x) > 0.0)

static int check(const impactfit_pendulum_params *p, impactfit_error *err) {
  REQUIRE(p != NULL, "no parameters given");
  REQUIRE(POS(p->m1) && POS(p->m2), "masses must be finite and > 0 (got %.17g, %.17g)", p->m1, p->m2);
  REQUIRE(POS(p->L1) && POS(p->L2), "lengths must be finite and > 0 (got %.17g, %.17g)", p->L1, p->L2);
  REQUIRE(isfinite(p->a) && p->a >= 0.0, "pivot distance a must be finite and >= 0 (got %.17g)", p->a);
  REQUIRE(p->L1 >= p->a + p->L2,
          "the model needs L1 >= a + L2 (only the tip of rod 2 can then touch rod 1; got L1 = %g, "
          "a + L2 = %g)",
          p->L1, p->a + p->L2);
  REQUIRE(isfinite(p->g) && p->g >= 0.0, "gravity g must be finite and >= 0 (got %.17g)", p->g);
  REQUIRE(isfinite(p->theta1) && isfinite(p->theta2) && isfinite(p->omega1) && isfinite(p->omega2), "the initial state "
                                                                                                    "must be finite");
  REQUIRE(isfinite(p->e) && p->e > 0.0 && p->e <= 1.0, "restitution e must be in (0, 1] (got %.17g)", p->e);
  REQUIRE(isfinite(p->n) && p->n >= 1.0 && p->n <= 3.0, "Hertz exponent n must be in [1, 3] (got %.17g)", p->n);
  REQUIRE(POS(p->k), "stiffness k must be finite and > 0 (got %.17g)", p->k);
  REQUIRE(p->model == impactfit_pendulum_impulse || p->model == impactfit_pendulum_copt ||
              p->model == impactfit_pendulum_flores,
          "unknown impact model");
  REQUIRE(POS(p->t_end) && p->t_end <= 1e6, "t_end must be in (0, 1e6] s (got %.17g)", p->t_end);
  REQUIRE(isfinite(p->rtol) && p->rtol >= 1e-14 && p->rtol <= 1e-3, "rtol must be in [1e-14, 1e-3] (got %.17g)",
          p->rtol);
  REQUIRE(isfinite(p->sample_dt) && p->sample_dt >= 0.0, "sample_dt must be finite and >= 0 (got %.17g)", p->sample_dt);
  REQUIRE(p->sample_dt == 0.0 || p->t_end / p->sample_dt <= 1e8, "sample_dt gives more than 1e8 samples");
  return 0;
}
#undef POS
#undef REQUIRE

/* ---- the run ------------------------------------------------------------------------------------ */

typedef struct prun {
  impactfit_pendulum_workspace *ws;
  const impactfit_pendulum_params *p;
  pend P;
  impactfit__hyb_sampler smp;
  double E_ref, E_scale, drift;
} prun;

static int emit(prun *R, int kind, double t, const double *y) {
  if (!R->p->fn)
    return 0;
  impactfit_pendulum_point pt;
  geo G;
  geometry(&R->P, y, &G);
  pt.kind = kind;
  pt.t = t;
  pt.theta1 = y[0];
  pt.theta2 = y[1];
  pt.omega1 = y[2];
  pt.omega2 = y[3];
  pt.delta = G.delta;
  pt.delta_dot = G.ddelta;
  pt.force = contact_force(&R->P, G.delta, G.ddelta);
  pt.energy = energy(&R->P, y);
  pt.in_contact = R->P.in_contact;
  return R->p->fn(R->p->ctx, &pt);
}

static int emit_samples(prun *R, double s_hi) {
  if (!(R->p->sample_dt > 0.0) || !R->p->fn)
    return 0;
  double ts, y[4];
  int st;
  while ((st = impactfit__hyb_sample(&R->ws->H, &R->smp, s_hi, &ts, y)) > 0)
    if ((st = emit(R, 0, ts, y)))
      return st;
  return st;
}

/* Fills the "after" fields of an impact from the state (t, y) where it ended. */
static void finish_impact(impactfit_pendulum_impact *I, const pend *P, double t, const double *y, int ended) {
  geo G;
  geometry(P, y, &G);
  I->t_end = t;
  I->v_out = -G.ddelta;
  I->e_eff = I->v_out / I->v_in;
  I->omega1_after = y[2];
  I->omega2_after = y[3];
  I->energy_after = energy(P, y);
  I->ended = ended;
}

/* A contact starts only where the tip meets rod 1 itself (0 ≤ ℓ ≤ L1) while approaching. */
static int valid_start(const double *y, void *ctx) {
  const pend *P = ctx;
  geo G;
  geometry(P, y, &G);
  return G.lever >= 0.0 && G.lever <= P->L1 && G.ddelta > 0.0;
}

static void set_reference(prun *R, const double *y) { R->E_ref = energy(&R->P, y); }

/* The rods' constants from the parameters. */
static void pend_setup(pend *P, const impactfit_pendulum_params *p) {
  P->m1 = p->m1;
  P->m2 = p->m2;
  P->L1 = p->L1;
  P->L2 = p->L2;
  P->a = p->a;
  P->g = p->g;
  P->I1 = p->m1 * p->L1 * p->L1 / 3.0;
  P->I2 = p->m2 * p->L2 * p->L2 / 3.0;
  P->k = p->k;
  P->n = p->n;
  P->mexp = (p->model == impactfit_pendulum_flores) ? p->n : 0.0;
}

/* The first event in the step just taken (from ya to y): *ev = 1 when a contact starts on rod 1, 2 when
 * it ends (separation or δ back to 0, whichever is first), 0 for none; *s_ev its position in the step
 * (the step's length for none). */
static int next_event(impactfit__hyb *H, pend *P, const double *ya, const double *y, int *ev_out, double *s_ev_out,
                      impactfit_error *err) {
  impactfit__hyb_fn fdl = {f_delta, fd_delta, P}, fsep = {f_sep, fd_sep, P};
  int st;
  double s_ev = H->len;
  int ev = 0, found; /* 1: contact starts, 2: contact ends */
  double s;
  if (!P->in_contact) {
    double ys[4];
    if ((st = impactfit__hyb_crossing_valid(H, &fdl, 1, 0.0, H->len, ya, y, valid_start, P, &found, &s, ys)))
      return IMPACTFIT__FAIL(err, st, "event location failed at t = %.17g s", H->t0);
    if (found) { /* (a crossing beyond rod 1's ends is no contact) */
      ev = 1;
      s_ev = s;
    }
  } else {
    double best = H->len;
    if ((st = impactfit__hyb_crossing(H, &fsep, -1, 0.0, H->len, ya, y, &found, &s)))
      return IMPACTFIT__FAIL(err, st, "event location failed at t = %.17g s", H->t0);
    if (found) {
      ev = 2;
      best = s;
    }
    if ((st = impactfit__hyb_crossing(H, &fdl, -1, 0.0, H->len, ya, y, &found, &s)))
      return IMPACTFIT__FAIL(err, st, "event location failed at t = %.17g s", H->t0);
    if (found && (!ev || s < best)) {
      ev = 2;
      best = s;
    }
    s_ev = best;
  }
  *ev_out = ev;
  *s_ev_out = s_ev;
  return 0;
}

/* Bookkeeping over [0, s_ev] of the step (from ya to y): the energy drift in free flight, the largest
 * penetration and force of the open contact cur. */
static int bookkeeping(prun *R, impactfit_pendulum_impact *cur, const double *ya, const double *y, double s_ev,
                       impactfit_error *err) {
  pend *P = &R->P;
  impactfit__hyb *H = &R->ws->H;
  int st;
  if (!P->in_contact) {
    double d = fabs(energy(P, y) - R->E_ref) / R->E_scale;
    if (d > R->drift)
      R->drift = d;
  } else if (cur) {
    impactfit__hyb_fn fdl = {f_delta, fd_delta, P}, ffo = {f_force, fd_force, P};
    double v, se;
    int fnd;
    if ((st = impactfit__hyb_extremum(H, &fdl, 0.0, s_ev, ya, y, &fnd, &se, &v)))
      return IMPACTFIT__FAIL(err, st, "extremum location failed");
    if (fnd && v > cur->delta_max)
      cur->delta_max = v;
    double fa = f_force(0, ya, P), fb = f_force(0, y, P);
    if (fa > cur->f_max)
      cur->f_max = fa;
    if (fb > cur->f_max)
      cur->f_max = fb;
    if ((st = impactfit__hyb_extremum(H, &ffo, 0.0, s_ev, ya, y, &fnd, &se, &v)))
      return IMPACTFIT__FAIL(err, st, "extremum location failed");
    if (fnd && v > cur->f_max)
      cur->f_max = v;
    geo G;
    geometry(P, y, &G);
    if (G.delta > cur->delta_max)
      cur->delta_max = G.delta;
  }
  return 0;
}

/* A contact starts at t in state y (geometry G): a new impact record in *cur; the impulse model applies
 * the impulse at once (and closes the record), the others switch the contact element on with its
 * damping constant. */
static int contact_start(prun *R, impactfit_pendulum_impact **curp, const geo *G, double t, double *y,
                         impactfit_error *err) {
  impactfit_pendulum_workspace *ws = R->ws;
  const impactfit_pendulum_params *p = R->p;
  pend *P = &R->P;
  int st;
  if (ws->n_impacts >= IMPACTFIT_PENDULUM_MAX_IMPACTS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV, "more than %d impacts", IMPACTFIT_PENDULUM_MAX_IMPACTS);
  impactfit_pendulum_impact *cur = *curp = &ws->impacts[ws->n_impacts++];
  memset(cur, 0, sizeof *cur);
  double mass = 1.0 / (G->lever * G->lever / P->I1 + p->L2 * p->L2 * G->cphi * G->cphi / P->I2);
  double v = G->ddelta;
  cur->t_start = t;
  cur->v_in = v;
  cur->mass = mass;
  cur->lever = G->lever;
  cur->omega1_before = y[2];
  cur->omega2_before = y[3];
  cur->energy_before = energy(P, y);
  if ((st = emit(R, 1, t, y)))
    return st;
  if (p->model == impactfit_pendulum_impulse) {
    double Pimp = (1.0 + p->e) * mass * v;
    y[2] += G->lever * Pimp / P->I1;
    y[3] -= p->L2 * G->cphi * Pimp / P->I2;
    finish_impact(cur, P, t, y, 1);
    *curp = NULL;
    if ((st = emit(R, 2, t, y)))
      return st;
  } else {
    if (p->model == impactfit_pendulum_copt) {
      if ((st = copt_damping(ws->inv, p->n, p->k, mass, v, p->e, &P->c, err)))
        return st;
    } else {
      P->c = 8.0 * (1.0 - p->e) * p->k / (5.0 * p->e * v);
    }
    cur->c = P->c;
    P->in_contact = 1;
    if ((st = emit(R, 1, t, y)))
      return st;
  }
  return 0;
}

int impactfit_pendulum_simulate(impactfit_pendulum_workspace *ws, const impactfit_pendulum_params *p,
                                impactfit_pendulum_result *res, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  int st;
  if (!ws || !res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace or result given");
  if ((st = check(p, err)))
    return st;
  memset(res, 0, sizeof *res);
  ws->n_impacts = 0;
  prun R;
  memset(&R, 0, sizeof R);
  R.ws = ws;
  R.p = p;
  pend *P = &R.P;
  pend_setup(P, p);
  impactfit__hyb_release(&ws->H);
  if ((st = impactfit__hyb_init(&ws->H, 4, rhs, P, p->rtol, NULL)))
    return IMPACTFIT__FAIL(err, st, "cannot set up the integrator");
  impactfit__hyb *H = &ws->H;
  impactfit__hyb_restart(H, 1e-4);
  double y[4] = {p->theta1, p->theta2, p->omega1, p->omega2}, t = 0.0;
  R.E_scale = p->m1 * p->g * 0.5 * p->L1 + p->m2 * p->g * 0.5 * p->L2 + 0.5 * P->I1 * y[2] * y[2] +
              0.5 * P->I2 * y[3] * y[3];
  if (!(R.E_scale > 0.0))
    R.E_scale = 1.0;
  set_reference(&R, y);
  res->energy_start = R.E_ref;
  {
    geo G;
    geometry(P, y, &G);
    if (G.delta >= 0.0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "the initial state has the tip of rod 2 at or past rod 1's line (delta = %g m)", G.delta);
  }
  if (p->sample_dt > 0.0) {
    R.smp = (impactfit__hyb_sampler){0.0, p->sample_dt, 1, (long)floor(p->t_end / p->sample_dt * (1.0 + 1e-15))};
    if ((st = emit(&R, 0, 0.0, y)))
      return st;
  }
  impactfit_pendulum_impact *cur = NULL;
  while (t < p->t_end) {
    if ((st = impactfit__hyb_step(H, &t, y, p->t_end)))
      return IMPACTFIT__FAIL(err, st, "integration failed at t = %.17g s", H->t0);
    double ya[4], s_ev = H->len;
    memcpy(ya, H->y0, sizeof ya);
    int ev = 0;
    if ((st = next_event(H, P, ya, y, &ev, &s_ev, err)))
      return st;
    if (ev) {
      if ((st = impactfit__hyb_state(H, s_ev, y)))
        return IMPACTFIT__FAIL(err, st, "non-finite state at t = %.17g s", H->t0 + s_ev);
      t = H->t0 + s_ev;
    }
    if ((st = bookkeeping(&R, cur, ya, y, s_ev, err)))
      return st;
    if ((st = emit_samples(&R, s_ev)))
      return (st < 0) ? IMPACTFIT__FAIL(err, st, "sampling failed") : st;
    if (!ev)
      continue;
    geo G;
    geometry(P, y, &G);
    if (ev == 1) {
      if ((st = contact_start(&R, &cur, &G, t, y, err)))
        return st;
    } else {
      if ((st = emit(&R, 2, t, y)))
        return st;
      P->in_contact = 0; /* first: the energy the element still holds at separation is not the rods' */
      finish_impact(cur, P, t, y, 1);
      cur = NULL;
      if ((st = emit(&R, 2, t, y)))
        return st;
    }
    set_reference(&R, y);
    impactfit__hyb_restart(H, H->h);
  }
  if (cur) /* a contact still open at t_end */
    finish_impact(cur, P, t, y, 0);
  res->n_impacts = ws->n_impacts;
  res->energy_end = energy(P, y);
  res->theta1 = y[0];
  res->theta2 = y[1];
  res->omega1 = y[2];
  res->omega2 = y[3];
  res->max_energy_drift = R.drift;
  res->steps = H->steps;
  res->rhs_evals = P->nevals;
  return 0;
}
