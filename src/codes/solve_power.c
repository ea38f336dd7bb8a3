/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The continuous-time answer of a power-law model (include/impactfit/codes.h): F = K δ^n + C δ^m δ' with K
 * and C from the model's build, solved by impact.h and inverse.h. Every DEM model, and Chrono's integrator
 * "continuous".
 *
 * With the law known, the real restitution of an input is exact: ζ = C δ_m0^(m+1)/(M v), δ_m0 = [(n+1) M
 * v²/(2K)]^(1/(n+1)), e = e_out(n, m, ζ, end condition). For m = (n − 1)/2 e does not depend on v, K or M
 * (inverse.h's scale-invariant family). The inverse: a damper proportional to the free parameter
 * (IMPACTFIT_CODE_SOLVE_DAMPER) takes ζ of inverse.h and the value in closed form; a restitution the code
 * converts (IMPACTFIT_CODE_SOLVE_CONVERSION) is found by bisection on (lo, 1]: every conversion registered is
 * strictly increasing in e there (tests/codes/ check it), and bisection to the last bit is exact and needs no
 * library. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "blocks_impl.h"
#include "impactfit/inverse.h"

typedef struct power_law {
  double K, C, R, M, n, m;
  const impactfit_transition *tr;
  int invariant; /* m = (n − 1)/2 */
} power_law;

static int suggest(const impactfit_code_ctx *c, impactfit_code_answer *ans, int over_ranges);

static int scale_invariant(double n, double m) { return fabs(m - 0.5 * (n - 1.0)) < 1e-12; }

/* the law of the model for the parameter p */
static int law_at(const impactfit_code_ctx *c, double p, power_law *L, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  impactfit_stepper st;
  int s = impactfit__build(c, p, &st, err);
  if (s)
    return s;
  L->K = st.law.p[0];
  L->n = st.law.p[1];
  L->C = st.law.p[2];
  L->m = st.law.p[3];
  L->R = c->R;
  L->M = st.mass;
  L->tr = st.end ? st.end : impactfit_transition_C;
  if (!(isfinite(L->K) && L->K > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the contact stiffness is not finite and positive (K = %.17g)", L->K);
  if (!(isfinite(L->C) && L->C >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s = %.17g gives the damping C = %.17g in %s %s (the code's conversion is negative or not "
                           "finite there)",
                           md->param, p, L->C, md->code->name, md->model);
  L->invariant = scale_invariant(L->n, L->m);
  return 0;
}

/* δ_m0 and ζ of the law's damping at speed v */
static double delta_m0(const power_law *L, double v) {
  return pow((L->n + 1.0) * L->M * v * v / (2.0 * L->K), 1.0 / (L->n + 1.0));
}
static double zeta_of(const power_law *L, double v) { return L->C * pow(delta_m0(L, v), L->m + 1.0) / (L->M * v); }

static int e_of_zeta(const power_law *L, double zeta, double *e, impactfit_error *err) {
  if (L->invariant) {
    int st = impactfit_scale_invariant_e(L->n, zeta, L->tr, e, err);
    if (st == IMPACTFIT_ENOSEP) {
      *e = 0.0; /* the bodies stay together */
      return 0;
    }
    return st;
  }
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  if (!ws)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  impactfit_impact_params p = impactfit_impact_scaled_params(L->n, L->m, zeta);
  p.transition = L->tr;
  p.locate_extrema = 0;
  impactfit_impact_result r;
  int st = impactfit_impact_solve(ws, &p, &r, err);
  impactfit_impact_free(ws);
  if (st == IMPACTFIT_ENOSEP) {
    *e = 0.0;
    return 0;
  }
  if (st)
    return st;
  *e = r.e_out;
  return 0;
}

static int check_value(const impactfit_code_model *md, double value, impactfit_error *err) {
  if (md->param_floor > 0.0 && !(value > md->param_floor))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s refuses %s <= %g (got %.17g)", md->code->name, md->model,
                           md->param, md->param_floor, value);
  if (md->takes_e) {
    if (!(isfinite(value) && value > 0.0 && value <= 1.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s of %s %s must be in (0, 1] (got %.17g)", md->param,
                             md->code->name, md->model, value);
  } else if (!(isfinite(value) && value >= 0.0)) {
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s of %s %s must be >= 0 (%s) (got %.17g)", md->param,
                           md->code->name, md->model, md->param_unit, value);
  }
  return 0;
}

int impactfit__power_forward(const impactfit_code_ctx *c, double value, double v, double *e, impactfit_error *err) {
  int st;
  if ((st = check_value(c->model, value, err)))
    return st;
  if (!(isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impact speed v must be > 0 (m/s) (got %.17g)", v);
  power_law L;
  if ((st = law_at(c, value, &L, err)))
    return st;
  if (c->model->takes_e && value == 1.0 && L.C == 0.0) {
    *e = 1.0;
    return 0;
  }
  return e_of_zeta(&L, zeta_of(&L, v), e, err);
}

/* speeds sampled log-uniformly over [v_min, v_max] */
static double speed_at(double v_min, double v_max, size_t i, size_t n) {
  if (n < 2 || v_min == v_max)
    return v_min;
  return v_min * pow(v_max / v_min, (double)i / (double)(n - 1));
}

/* min and max of the real e of value over the answer's speeds */
static int e_over_range(const impactfit_code_ctx *c, const impactfit_code_answer *a, double value, int invariant,
                        size_t npts, double *lo, double *hi, impactfit_error *err) {
  for (size_t i = 0; i < npts; i++) {
    double e1;
    int st = impactfit__power_forward(c, value, speed_at(a->v_min, a->v_max, i, npts), &e1, err);
    if (st)
      return st;
    if (i == 0 || e1 < *lo)
      *lo = e1;
    if (i == 0 || e1 > *hi)
      *hi = e1;
    if (invariant)
      break;
  }
  return 0;
}

/* The request's checks: the speed range (v alone when none), the tolerance (1e-10), the speeds in the range
 * (9 by default). */
static int check_request(const impactfit_code_request *q, impactfit_code_answer *a, double *tol, size_t *npts,
                         impactfit_error *err) {
  if (!a->forward && !(isfinite(q->e) && q->e > 0.0 && q->e < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "asked restitution e must be in (0, 1) (got %.17g)", q->e);
  if (!a->forward && !isnan(q->value))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "give the asked e or the value of %s, not both", q->model->param);
  if (!(isnan(q->v_min) && isnan(q->v_max))) {
    a->v_min = q->v_min;
    a->v_max = q->v_max;
  }
  if (!(isfinite(a->v_min) && isfinite(a->v_max) && a->v_min > 0.0 && a->v_min <= a->v_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "speed range [%.17g, %.17g] m/s must satisfy 0 < v_min <= v_max",
                           a->v_min, a->v_max);
  if (!(q->tol == 0.0 || (q->tol >= 1e-13 && q->tol < 1e-2)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "tolerance must be in [1e-13, 1e-2) (got %.17g)", q->tol);
  *tol = q->tol == 0.0 ? 1e-10 : q->tol;
  *npts = q->points ? q->points : 9;
  if (*npts > 10000)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "at most 10000 speeds in the range (got %zu)", *npts);
  return 0;
}

/* The value p ∈ (lo, 1] of a restitution-taking model whose real e at speed v is the asked e, by bisection:
 * the real e increases with p for every model registered. 0 when no p reaches e (why says which end falls
 * short), 1 when found, < 0 on a failure. lo: just above the code's floor, or the model's search bound (the
 * code's own clamp: Chrono's ε). */
static int invert_e(const impactfit_code_ctx *c, double e, double v, double *p, impactfit_text *why,
                    impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  double lo = md->param_floor > 0.0 ? nextafter(md->param_floor, 1.0) : md->ops->lo, hi = 1.0, elo, ehi;
  int st;
  if ((st = impactfit__power_forward(c, lo, v, &elo, err)))
    return st;
  if ((st = impactfit__power_forward(c, hi, v, &ehi, err)))
    return st;
  if (elo > e) {
    if (md->param_floor > 0.0)
      impactfit_text_appendf(why, "the smallest e it can give is just above %.6g (the code refuses %s <= %g)", elo,
                             md->param, md->param_floor);
    else
      impactfit_text_appendf(why, "the smallest e it can give is %.6g (typing %s -> 0)", elo, md->param);
    return 0;
  }
  if (ehi < e) {
    impactfit_text_appendf(why, "the largest e it can give is %.6g (typing %s = 1)", ehi, md->param);
    return 0;
  }
  for (int i = 0; i < 200; i++) {
    double mid = 0.5 * (lo + hi), em;
    if (!(mid > lo && mid < hi))
      break;
    if ((st = impactfit__power_forward(c, mid, v, &em, err)))
      return st;
    if (em < e)
      lo = mid, elo = em;
    else
      hi = mid, ehi = em;
  }
  *p = (e - elo < ehi - e) ? lo : hi;
  double eb = (e - elo < ehi - e) ? elo : ehi;
  if (fabs(eb - e) > 1e-9 * e) { /* a jump of the code's conversion (YADE's B6 at e = 1) */
    impactfit_text_appendf(why, "the code's conversion jumps at %s = %.17g (e from %.6g to %.6g), no %s gives it",
                           md->param, hi, elo, ehi, md->param);
    return 0;
  }
  return 1;
}

/* ζ with e_out = e for the law's exponents and end condition */
static int exact_zeta(impactfit_inverse_workspace *ws, const power_law *L, double e, double tol, double *zeta,
                      impactfit_error *err) {
  if (L->invariant)
    return impactfit_scale_invariant_zeta(L->n, e, L->tr, zeta, err);
  impactfit_inverse_params p = impactfit_inverse_default_params();
  p.n = L->n;
  p.m = L->m;
  p.transition = L->tr;
  p.tol = tol;
  impactfit_inverse_result r;
  int st = impactfit_inverse_solve(ws, &p, e, 0.0, &r, err);
  if (st)
    return st;
  *zeta = r.zeta;
  return 0;
}

/* The code's parameter for the request (ans->value, ans->zeta, ans->reachable; for a code that takes e, also
 * what e typed as it is gives), with the law L at that value. why: the reason when unreachable. */
static int solve_value(impactfit_inverse_workspace *ws, const impactfit_code_ctx *c, double e, double tol, size_t npts,
                       power_law *L, impactfit_code_answer *ans, impactfit_text *why, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  int st = 0;
  double v = c->v;
  if (md->solver == IMPACTFIT_CODE_SOLVE_CONVERSION) {
    /* the naive input: e typed as it is */
    if (md->param_floor > 0.0 && !(e > md->param_floor)) {
      ans->e_naive = ans->e_naive_min = ans->e_naive_max = NAN; /* the code refuses it */
    } else {
      st = impactfit__power_forward(c, e, v, &ans->e_naive, err);
      if (!st) {
        ans->naive_value = e;
        st = e_over_range(c, ans, e, L->invariant, npts, &ans->e_naive_min, &ans->e_naive_max, err);
      }
    }
    if (!st) {
      st = invert_e(c, e, v, &ans->value, why, err);
      ans->reachable = st == 1;
      st = st < 0 ? st : 0;
    }
    if (!st && ans->reachable)
      st = law_at(c, ans->value, L, err);
    if (!st && ans->reachable)
      ans->zeta = zeta_of(L, v);
    else if (!st)
      st = exact_zeta(ws, L, e, tol, &ans->zeta, err);
  } else {
    /* C is proportional to the parameter: C(p) = p C(1), K independent of p */
    st = exact_zeta(ws, L, e, tol, &ans->zeta, err);
    if (!st) {
      ans->value = ans->zeta * L->M * v / pow(delta_m0(L, v), L->m + 1.0) / L->C;
      ans->reachable = 1;
      st = law_at(c, ans->value, L, err);
    }
  }
  return st;
}

/* The answer's note on where the value is exact (at every speed, or at v only with the spread of e), then the
 * model's own sentences. */
static void exact_note(const impactfit_code_ctx *c, const power_law *L, const impactfit_code_answer *ans,
                       impactfit_text *note) {
  const impactfit_code_model *md = c->model;
  if (ans->has_spread && isfinite(ans->r_min)) {
    impactfit__spread_sentence(c, ans, note); /* the ranges' answer, measured */
    if (L->invariant && ans->spread_exact)
      impactfit_text_appendf(note, " (m = (n - 1)/2: this model's damping is scale-invariant)");
  } else if (ans->has_spread && !L->invariant) {
    impactfit_text_appendf(note,
                           "exact at v = %.6g m/s only: with this model (n = %g, m = %g) one %s gives e from %.6g to "
                           "%.6g over v in [%.6g, %.6g] m/s",
                           c->v, md->n, md->m, md->param, ans->e_speed_min, ans->e_speed_max, ans->v_min, ans->v_max);
    if (ans->exact_model)
      impactfit_text_appendf(note, "; exact over them: %s %s%s%s with %s = %.12g", ans->exact_model->model->code->name,
                             ans->exact_model->model->model, *ans->exact_model->model->option ? " damping " : "",
                             ans->exact_model->model->option, ans->exact_model->model->param, ans->exact_model->value);
  } else if (L->invariant)
    impactfit_text_appendf(note, "exact at every speed (m = (n - 1)/2): this model's damping is scale-invariant, so e "
                                 "does not depend on v, K or M");
  else if (ans->v_min == ans->v_max)
    impactfit_text_appendf(note,
                           "exact at v = %.6g m/s only: with this model (n = %g, m = %g) e depends on the impact speed "
                           "(give a speed range to see the spread)",
                           c->v, md->n, md->m);
  else
    impactfit_text_appendf(note,
                           "exact at v = %.6g m/s only: with this model (n = %g, m = %g) one %s gives e from %.6g to "
                           "%.6g over v in [%.6g, %.6g] m/s",
                           c->v, md->n, md->m, md->param, ans->e_speed_min, ans->e_speed_max, ans->v_min, ans->v_max);
}

/* the model's note after the answer's first sentence: a text starting with ';' continues it, another is a
 * sentence of its own */
static void model_note(const impactfit_code_ctx *c, double value, impactfit_text *note) {
  if (!c->model->ops->note)
    return;
  impactfit_text t = IMPACTFIT_TEXT_INIT;
  c->model->ops->note(c, value, &t);
  const char *s = impactfit_text_str(&t);
  size_t n = strlen(s);
  while (n && s[n - 1] == ' ')
    n--;
  if (n)
    impactfit_text_appendf(note, "%s%.*s", s[0] == ';' || !note->len ? "" : ". ", (int)n, s);
  impactfit_text_free(&t);
}

static int forward_answer(const impactfit_code_ctx *c, impactfit_code_answer *ans, size_t npts, impactfit_text *input,
                          impactfit_error *err) {
  const impactfit_code_request *req = c->req;
  double value = req->value;
  if (isnan(value) && c->model->param_input) {
    const double *pv = impactfit_code_value(c, c->model->param_input);
    double scale = c->model->param_scale != 0.0 ? c->model->param_scale : 1.0;
    if (pv && impactfit_code_given(c, c->model->param_input))
      value = pv[c->model->param_index] / scale;
  }
  if (isnan(value))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "give the asked e or the value of %s", c->model->param);
  power_law L;
  int st = impactfit__power_forward(c, value, c->v, &ans->e, err);
  if (!st)
    st = law_at(c, value, &L, err);
  if (!st)
    st = e_over_range(c, ans, value, L.invariant, npts, &ans->e_speed_min, &ans->e_speed_max, err);
  if (st)
    return st;
  ans->value = value;
  ans->reachable = 1;
  if (impactfit__has_range(c->req, 1) && (st = impactfit__spread_of(c, ans, value, err)))
    return st;
  ans->e_min = ans->e_max = ans->e_continuous = ans->e;
  ans->speed_dependent = !L.invariant;
  ans->K = L.K;
  ans->C = L.C;
  ans->zeta = zeta_of(&L, c->v);
  ans->mass = L.M;
  c->model->ops->input(c, value, input);
  return 0;
}

static int inverse_answer(const impactfit_code_ctx *c, impactfit_code_answer *ans, double tol, size_t npts,
                          impactfit_text *input, impactfit_text *note, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  double e = c->req->e;
  /* the law at a typical value of the parameter (K does not depend on it but for YADE ViscElMat(tc, en)) */
  power_law L;
  int st = law_at(c, md->takes_e ? e : 1.0, &L, err);
  if (st)
    return st;
  impactfit_inverse_workspace *ws = NULL;
  if (!L.invariant && !(ws = impactfit_inverse_alloc()))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  ans->mass = L.M;
  ans->end = L.tr;
  ans->speed_dependent = !L.invariant;
  impactfit_text why = IMPACTFIT_TEXT_INIT;
  if ((st = solve_value(ws, c, e, tol, npts, &L, ans, &why, err)))
    goto done;
  ans->K = L.K;
  ans->C = ans->zeta * L.M * c->v / pow(delta_m0(&L, c->v), L.m + 1.0);
  if (!ans->reachable) {
    ans->value = NAN;
    impactfit_text_appendf(note, "%s %s%s%s cannot give e = %.6g%s: %s", md->code->name, md->model,
                           *md->option ? " damping " : "", md->option, e,
                           L.tr == impactfit_transition_C ? " (force clamped)" : "", impactfit_text_str(&why));
    goto done;
  }
  if ((st = e_over_range(c, ans, ans->value, L.invariant, npts, &ans->e_speed_min, &ans->e_speed_max, err)) ||
      (st = impactfit__power_forward(c, ans->value, c->v, &ans->e, err)))
    goto done;
  ans->e_min = ans->e_max = ans->e_continuous = ans->e;
  if (impactfit__has_range(c->req, 1)) {
    if ((st = impactfit__spread_of(c, ans, ans->value, err)))
      goto done;
    if (!ans->spread_exact && c->req->suggest && (st = suggest(c, ans, 1)))
      goto done;
  }
  md->ops->input(c, ans->value, input);
  exact_note(c, &L, ans, note);
  model_note(c, ans->value, note);
done:
  impactfit_text_free(&why);
  impactfit_inverse_free(ws);
  return st;
}

int impactfit__solve_power(const impactfit_code_ctx *c, impactfit_code_answer *ans, impactfit_error *err) {
  double tol = 1e-10;
  size_t npts = 9;
  int st = check_request(c->req, ans, &tol, &npts, err);
  if (st)
    return st;
  impactfit_text naive = IMPACTFIT_TEXT_INIT, input = IMPACTFIT_TEXT_INIT, note = IMPACTFIT_TEXT_INIT;
  st = ans->forward ? forward_answer(c, ans, npts, &input, err) : inverse_answer(c, ans, tol, npts, &input, &note, err);
  if (!st && !ans->forward && !ans->reachable && c->req->suggest)
    st = suggest(c, ans, 0);
  int s2 = impactfit__answer_texts(ans, &naive, &input, &note, err);
  return st ? st : s2;
}

/* ---------------------------------------------------------------- another model that reaches e */

/* The request's settings that model o takes, into set (at most IMPACTFIT_CODE_MAX_INPUTS); their number. */
static int settings_for(const impactfit_code_model *o, const impactfit_code_request *req, impactfit_code_setting *set) {
  int n = 0;
  for (size_t s = 0; s < req->n_settings && n < IMPACTFIT_CODE_MAX_INPUTS; s++)
    if (impactfit_code_input_find(o, req->settings[s].name))
      set[n++] = req->settings[s];
  return n;
}

/* 1 when an input of o without a default is not among set[0..n): o cannot be asked with what the user gave */
static int missing(const impactfit_code_model *o, const impactfit_code_setting *set, int n) {
  for (int i = 0; i < o->n_inputs; i++) {
    if (!isnan(o->inputs[i].def[0]) || o->inputs[i].default_v || o->inputs[i].optional)
      continue;
    int have = 0;
    for (int k = 0; k < n && !have; k++)
      have = impactfit_code_input_find(o, set[k].name) == &o->inputs[i];
    if (!have)
      return 1;
  }
  return 0;
}

/* the same spring through another model's stiffness parameter (a DEM model whose K comes from kn) */
static double kn_for(const impactfit_code_model *o, double K0, double R0) {
  if (o->ops->build != impactfit__dem_build)
    return NAN;
  switch (((const impactfit__dem_law *)o->ops->data)->stiffness) {
  case IMPACTFIT__ST_LINEAR_KN:
    return K0;
  case IMPACTFIT__ST_VISCEL_KN:
    return 2.0 * K0;
  case IMPACTFIT__ST_HERTZ_KN:
    return K0 / sqrt(R0);
  default:
    return NAN;
  }
}

/* No model with the request's inputs is exact over the ranges: the first restitution-taking, scale-invariant
 * model of the code for the answer's version that is, measured over the request's box with that model's own
 * reference settings (impactfit_code_audit_request: its material or stiffness; e of these models does not
 * depend on them), in ans->exact_other. */
static void exact_other(const impactfit_code_ctx *c, impactfit_code_answer *ans, long key) {
  const impactfit_code *code = c->model->code;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS];
  for (size_t k = 0; k < 2 * code->n_models; k++) { /* the same law's exponent n first */
    const impactfit_code_model *o = &code->models[k % code->n_models];
    if ((k < code->n_models) != (o->n == c->model->n))
      continue;
    if (o == c->model || !o->takes_e || !scale_invariant(o->n, o->m) ||
        !impactfit_version_in_range(key, o->version_min, o->version_max))
      continue;
    impactfit_code_request ref = impactfit_code_audit_request(o, set);
    impactfit_code_request q = *c->req;
    q.model = o;
    q.settings = ref.settings;
    q.n_settings = ref.n_settings;
    q.suggest = 0;
    q.integrator = NULL;
    q.clamp = -1;
    q.tangential = NULL;
    impactfit_code_answer alt;
    impactfit_error e2;
    int ok = impactfit_code_solve(&q, &alt, &e2) == 0 && alt.reachable && alt.has_spread && alt.spread_exact;
    impactfit_code_answer_free(&alt);
    if (ok) {
      ans->exact_other = o;
      return;
    }
  }
}

/* Another model of the same code and version range that reaches the asked e with the inputs the request
 * carries: models exact at every speed first. Four passes: invariant models with the clamp as asked, then
 * with the code's switch turned the other way (the same model included), then the speed-dependent ones
 * alike. Sets ans->alternative (NULL when none). over_ranges: the model is for the request's ranges (sizes,
 * speeds): the two invariant passes only, the first whose own spread over the box is exact, in
 * ans->exact_model. */
static int suggest(const impactfit_code_ctx *c, impactfit_code_answer *ans, int over_ranges) {
  const impactfit_code_model *md = c->model;
  const impactfit_code *code = md->code;
  int asked = c->clamp;
  power_law L0; /* the requested model's stiffness, so that a model taking kn can be offered the same spring */
  double K0 = law_at(c, md->takes_e ? c->req->e : 1.0, &L0, NULL) == 0 ? L0.K : NAN;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS + 1];
  long key = code->version_key(ans->version);
  for (int pass = 0; pass < (over_ranges ? 2 : 4); pass++)
    for (size_t i = 0; i < code->n_models; i++) {
      const impactfit_code_model *o = &code->models[i];
      int flipped = pass & 1, want_invariant = pass < 2;
      /* another model of the code that holds for every version md holds for */
      int covers = (o->version_min == 0 || (md->version_min && o->version_min <= md->version_min)) &&
                   (o->version_max == 0 || (md->version_max && o->version_max >= md->version_max));
      if (over_ranges) /* for the user's version (the answer's): the model to type instead in the same run */
        covers = impactfit_version_in_range(key, o->version_min, o->version_max);
      if ((o == md && !flipped) || !covers || scale_invariant(o->n, o->m) != want_invariant ||
          (over_ranges && o->n != md->n))
        continue;
      impactfit_code_setting *q_set = set + 1;
      int n = settings_for(o, c->req, q_set);
      /* the user's kn in o's own kn: the same spring where the law's exponent is the same; else the same number
       * in o's unit (said in the alternative's note: kn_moved) */
      int kn_moved = 0;
      for (int k = 0; isfinite(K0) && k < n; k++)
        if (strcmp(q_set[k].name, "kn") == 0 && q_set[k].body == 0 && q_set[k].count == 1 &&
            isfinite(kn_for(o, K0, L0.R)) && isfinite(kn_for(md, K0, L0.R))) {
          if (over_ranges || o->n == md->n)
            q_set[k].values[0] = kn_for(o, K0, L0.R);
          else
            kn_moved = k + 1;
        }
      if (missing(o, q_set, n) && o->n == md->n && isfinite(K0) && !impactfit_code_given(c, "kn")) {
        double kn = kn_for(o, K0, L0.R);
        if (isfinite(kn)) {
          q_set = set;
          q_set[0] = (impactfit_code_setting){.name = "kn", .body = 0, .count = 1, .values = {kn}};
          n++;
        }
      }
      if (missing(o, q_set, n))
        continue;
      impactfit_code_request q = *c->req;
      q.model = o;
      q.settings = q_set;
      q.n_settings = (size_t)n;
      q.suggest = 0;
      q.integrator = NULL;
      q.clamp = flipped ? !asked : asked;
      if (!o->clamp_switch && q.clamp != o->clamp_default)
        continue;
      impactfit_code_answer *alt = malloc(sizeof *alt);
      if (!alt)
        return 0;
      impactfit_error e2;
      if (impactfit_code_solve(&q, alt, &e2) == 0 && alt->reachable && !alt->stepped &&
          (!over_ranges || (alt->has_spread && alt->spread_exact))) {
        const impactfit_code_input *ko = impactfit_code_input_find(o, "kn"), *km = impactfit_code_input_find(md, "kn");
        if (kn_moved && ko && km) {
          impactfit_text t = IMPACTFIT_TEXT_INIT;
          impactfit_text_appendf(&t,
                                 "kn = %.12g is your number in this model's unit (%s): not the same spring as your "
                                 "kn in %s (a force law of another power); %s goes with it. %s",
                                 q_set[kn_moved - 1].values[0], ko->unit, km->unit, o->param, alt->note);
          free(alt->note);
          alt->note = impactfit_text_take(&t);
        }
        *(over_ranges ? &ans->exact_model : &ans->alternative) = alt;
        return 0;
      }
      impactfit_code_answer_free(alt);
      free(alt);
    }
  if (over_ranges)
    exact_other(c, ans, key);
  return 0;
}

/* ---------------------------------------------------------------- the audit */

int impactfit_code_clamps(const impactfit_code_model *md, int clamps[2]) {
  if (!md || !clamps)
    return 0;
  if (md->clamp_switch) {
    clamps[0] = 0;
    clamps[1] = 1;
    return 2;
  }
  clamps[0] = md->clamp_default;
  return 1;
}

impactfit_code_request impactfit_code_audit_request(const impactfit_code_model *md, impactfit_code_setting *settings) {
  impactfit_code_request q = impactfit_code_request_default();
  q.model = md;
  q.bodies.pair = 1;
  q.bodies.r1 = 0.005;
  q.bodies.m1 = impactfit_code_sphere_mass(0.005, 2500.0);
  q.v = 1.0;
  static const struct {
    const char *name;
    double value;
  } ref[] = {{"E", 1e8}, {"nu", 0.3}, {"kn", 2e4}, {"tc", 5e-4}, {"vchar", 1.0}};
  size_t n = 0;
  for (size_t i = 0; md && settings && i < sizeof ref / sizeof ref[0]; i++)
    if (impactfit_code_input_find(md, ref[i].name))
      settings[n++] = (impactfit_code_setting){.name = ref[i].name, .body = 0, .count = 1, .values = {ref[i].value}};
  q.settings = settings;
  q.n_settings = n;
  return q;
}

int impactfit_code_audit(const impactfit_code_model *md, int clamp, double e_min, double e_max, size_t points,
                         impactfit_code_audit_result *res, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  if (!md || !res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model or result given");
  if (!md->takes_e)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s takes %s, not a restitution: nothing to audit", md->code->name,
                           md->model, md->param);
  if (!(e_min > 0.0 && e_max <= 1.0 && e_min <= e_max) || points < 1 || points > 1000000 ||
      (points == 1 && e_min != e_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "invalid grid [%.17g, %.17g] with %zu points", e_min, e_max, points);
  memset(res, 0, sizeof *res);
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS];
  impactfit_code_request q = impactfit_code_audit_request(md, set);
  q.clamp = clamp;
  q.integrator = "continuous";
  impactfit_code_ctx *c = malloc(sizeof *c);
  if (!c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  int st = impactfit_code_resolve(&q, c, err);
  if (!st && !impactfit__is_power(c))
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s has no continuous-time power law to audit", md->code->name,
                         md->model);
  double sum = 0.0;
  for (size_t i = 0; !st && i < points; i++) {
    double e = points == 1 ? e_min : e_min + (e_max - e_min) * (double)i / (double)(points - 1), er;
    if (md->param_floor > 0.0 && !(e > md->param_floor)) {
      res->refused++;
      continue;
    }
    if ((st = impactfit__power_forward(c, e, 1.0, &er, err)))
      break;
    double d = fabs(er - e);
    sum += d;
    res->points++;
    if (d > res->e_max_error || res->points == 1) {
      res->e_max_error = d;
      res->e_at_max = e;
    }
  }
  free(c);
  res->e_mean_error = res->points ? sum / (double)res->points : 0.0;
  return st;
}
