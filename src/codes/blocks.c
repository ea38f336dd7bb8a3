/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The building blocks several codes share (blocks_impl.h). */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "blocks_impl.h"
#include "impactfit/inverse.h"
#include "impactfit/mixing.h"

/* ---------------------------------------------------------------- one constraint row */

void impactfit__row_erp_cfm(double h, double k, double c, double floor, double *erp, double *cfm) {
  double denom = h * k + c;
  if (denom < floor)
    denom = floor;
  *cfm = 1.0 / denom;
  *erp = h * k / denom;
}

void impactfit__row_kv_limit(double k, double c, impactfit_law *law, const impactfit_transition **end) {
  *law = impactfit_law_power_make(k, 1.0, c, 0.0);
  *end = impactfit_transition_C;
}

int impactfit__naive_kd(const impactfit_code_ctx *c, double e, double k, double *value, impactfit_text *what) {
  *value = 2.0 * impactfit_kv_damping_ratio(e) * sqrt(k * c->M);
  impactfit_text_appendf(what, "kd = 2 sqrt(kp M) (-ln e)/sqrt(pi^2 + ln^2 e) (linear spring-damper, contact to delta "
                               "= 0)");
  return 0;
}

void impactfit__range_critical(double k, double M, double lo_ratio, double hi_ratio, double *lo, double *hi) {
  double crit = 2.0 * sqrt(k * M);
  *lo = lo_ratio * crit;
  *hi = hi_ratio * crit;
}

/* ---------------------------------------------------------------- continuous time */

const impactfit_code_integrator impactfit__continuous_only[1] = {
    {.name = "continuous",
     .stepper = NULL,
     .summary = "continuous time: the force law integrated exactly (impact.h); the code's own time step is not "
                "modelled"},
};

void impactfit__continuous_stepper(const impactfit_code_ctx *c, const impactfit_law *law, impactfit_stepper *st) {
  memset(st, 0, sizeof *st);
  st->type = NULL;
  st->law = *law;
  st->end = c->clamp ? impactfit_transition_C : impactfit_transition_A;
  st->mass = c->M;
  st->dt = NAN;
}

/* ---------------------------------------------------------------- the DEM codes' power law */

const impactfit_code_input impactfit__dem_in_material[2] = {IMPACTFIT__IN_E, IMPACTFIT__IN_NU};
const impactfit_code_input impactfit__dem_in_vchar[3] = {IMPACTFIT__IN_E, IMPACTFIT__IN_NU, IMPACTFIT__IN_VCHAR};
const impactfit_code_input impactfit__dem_in_kn_pa[1] = {IMPACTFIT__IN_KN("Pa")};
const impactfit_code_input impactfit__dem_in_kn_nm[1] = {IMPACTFIT__IN_KN("N/m")};
const impactfit_code_input impactfit__dem_in_tc[1] = {IMPACTFIT__IN_TC};

/* both bodies' E and nu checked; *E, *nu body 1's */
static int need_material(const impactfit_code_ctx *c, double *E, double *nu, impactfit_error *err) {
  for (int b = 2; b >= 1; b--) {
    *E = impactfit_code_body_value(c, "E", b)[0];
    *nu = impactfit_code_body_value(c, "nu", b)[0];
    if (!(isfinite(*E) && *E > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs Young's modulus E > 0 (Pa) (got %.17g)", *E);
    if (!(isfinite(*nu) && *nu > -1.0 && *nu < 0.5))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs Poisson's ratio nu in (-1, 0.5) (got %.17g)",
                             *nu);
  }
  return 0;
}

int impactfit__dem_two_materials(const impactfit_code_ctx *c) {
  if (!impactfit_code_input_find(c->model, "E") || !impactfit_code_input_find(c->model, "nu"))
    return 0;
  return impactfit_code_body_value(c, "E", 1)[0] != impactfit_code_body_value(c, "E", 2)[0] ||
         impactfit_code_body_value(c, "nu", 1)[0] != impactfit_code_body_value(c, "nu", 2)[0];
}

double impactfit__dem_estar(const impactfit_code_ctx *c) {
  return impactfit_mix_estar(impactfit_code_body_value(c, "E", 1)[0], impactfit_code_body_value(c, "nu", 1)[0],
                             impactfit_code_body_value(c, "E", 2)[0], impactfit_code_body_value(c, "nu", 2)[0]);
}

void impactfit__dem_optional(const impactfit_code_ctx *c, const char *name, const char *what, impactfit_text *out) {
  const double *x = impactfit_code_value(c, name);
  if (x && impactfit_code_given(c, name))
    impactfit_text_appendf(out, "%.10g", x[0]);
  else
    impactfit_text_appendf(out, "<yours: %s>", what);
}

void impactfit__dem_note_tangential(const impactfit_code_ctx *c, const char *names, impactfit_text *out) {
  const impactfit_code_model *md = c->model;
  const impactfit__dem_law *o = md->ops->data;
  int missing = o && o->tangential && !c->req->tangential, given = o && o->tangential && c->req->tangential;
  for (int i = 0; i < md->n_inputs; i++)
    if (md->inputs[i].optional) {
      if (impactfit_code_given(c, md->inputs[i].name))
        given = 1;
      else
        missing = 1;
    }
  if (missing)
    impactfit_text_appendf(out,
                           "; friction and tangential settings (%s) are yours: the lines carry <yours: ...> where you "
                           "gave none%s; the head-on normal law does not depend on them (the tangential force needs a "
                           "tangential displacement)",
                           names, given ? " and keep the ones you gave" : "");
  else
    impactfit_text_appendf(out,
                           "; your friction and tangential settings (%s) are kept in the lines; the head-on normal law "
                           "does not depend on them",
                           names);
}

/* request.tangential against the model's clause: its first word one the code knows */
static int check_tangential(const impactfit_code_ctx *c, const impactfit__dem_law *o, impactfit_error *err) {
  const char *t = c->req ? c->req->tangential : NULL;
  if (!t)
    return 0;
  const impactfit_code_model *md = c->model;
  if (!o->tangential)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s %s has no tangential clause (its friction settings are inputs: --list shows them)",
                           md->code->name, md->model);
  size_t len = strcspn(t, " \t");
  for (const char *const *w = o->tangential; *w; w++)
    if (strlen(*w) == len && strncmp(*w, t, len) == 0)
      return 0;
  impactfit_text known = IMPACTFIT_TEXT_INIT;
  for (const char *const *w = o->tangential; *w; w++)
    impactfit_text_appendf(&known, "%s%s", w == o->tangential ? "" : ", ", *w);
  int st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s: unknown tangential model '%.*s' (known: %s)", md->code->name,
                           md->model, (int)len, t, impactfit_text_str(&known));
  impactfit_text_free(&known);
  return st;
}

static int need_kn(const impactfit_code_ctx *c, double *kn, impactfit_error *err) {
  *kn = impactfit_code_value(c, "kn")[0];
  if (!(isfinite(*kn) && *kn > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs the code's stiffness kn > 0 (got %.17g)", *kn);
  return 0;
}

/* K of the model's stiffness kind; *Mcode: the mass the code's own formulas use (YADE ViscEl on a wall: M/2) */
static int dem_K(const impactfit_code_ctx *c, const impactfit__dem_law *o, double p, double *K, double *Mcode,
                 impactfit_error *err) {
  double R = c->R, M = c->M, E, nu, kn;
  int wall = c->wall, st = 0;
  *Mcode = M;
  switch (o->stiffness) {
  case IMPACTFIT__ST_HERTZ_MAT_YWALL:
    if (wall)
      R *= 0.5;
    /* fall through */
  case IMPACTFIT__ST_HERTZ_MAT:
  case IMPACTFIT__ST_HERTZ_MAT_LWALL:
    if ((st = need_material(c, &E, &nu, err)))
      break;
    if (o->stiffness == IMPACTFIT__ST_HERTZ_MAT_LWALL && wall && impactfit__dem_two_materials(c))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "LAMMPS fix wall/gran takes one material (its line's E and nu, E* = E/(2(1 - nu))): give "
                             "one E and one nu for the sphere on the wall");
    *K = 4.0 / 3.0 *
         (o->stiffness == IMPACTFIT__ST_HERTZ_MAT_LWALL && wall ? E / (2.0 * (1.0 - nu)) : impactfit__dem_estar(c)) *
         sqrt(R);
    break;
  case IMPACTFIT__ST_HERTZ_KN:
    if (!(st = need_kn(c, &kn, err)))
      *K = kn * sqrt(R);
    break;
  case IMPACTFIT__ST_LINEAR_KN:
    if (!(st = need_kn(c, &kn, err)))
      *K = kn;
    break;
  case IMPACTFIT__ST_HOOKE_VCHAR: {
    if ((st = need_material(c, &E, &nu, err)))
      break;
    double V = impactfit_code_value(c, "vchar")[0];
    if (!(isfinite(V) && V > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "this model needs the characteristic velocity > 0 (m/s) (got %.17g)", V);
    double a = 16.0 / 15.0 * sqrt(R) * impactfit__dem_estar(c);
    *K = a * pow(M * V * V / a, 0.2);
    break;
  }
  case IMPACTFIT__ST_VISCEL_TC: {
    double tc = impactfit_code_value(c, "tc")[0];
    if (!(isfinite(tc) && tc > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "this model needs the contact time tc > 0 (s) (got %.17g)", tc);
    double L = log(p);
    *Mcode = wall ? 0.5 * M : M; /* ViscElPhys: a body of mass 0 (a wall) takes the other's mass */
    *K = (IMPACTFIT__PI * IMPACTFIT__PI + L * L) * *Mcode / (tc * tc);
    break;
  }
  case IMPACTFIT__ST_VISCEL_KN:
    if (!(st = need_kn(c, &kn, err)))
      *K = 0.5 * kn;
    break;
  }
  return st;
}

int impactfit__dem_build(const impactfit_code_ctx *c, double p, impactfit_stepper *st, impactfit_error *err) {
  const impactfit__dem_law *o = c->model->ops->data;
  double K = NAN, C = NAN, Mcode;
  int s = check_tangential(c, o, err);
  if (!s)
    s = dem_K(c, o, p, &K, &Mcode, err);
  if (s)
    return s;
  double M = c->M, R = c->R;
  switch (o->damping) {
  case IMPACTFIT__DA_CONST:
    C = p;
    break;
  case IMPACTFIT__DA_MASS:
    C = p * M;
    break;
  case IMPACTFIT__DA_MASS_SQRTR:
    C = p * M * sqrt(R);
    break;
  case IMPACTFIT__DA_CONV_SQRTMK:
    C = o->conv(p) * sqrt(M * K);
    break;
  case IMPACTFIT__DA_VISCEL_TC:
    C = -2.0 * log(p) * Mcode / impactfit_code_value(c, "tc")[0];
    break;
  case IMPACTFIT__DA_HALF:
    C = 0.5 * p;
    break;
  }
  impactfit_law law = impactfit_law_power_make(K, c->model->n, C, c->model->m);
  impactfit__continuous_stepper(c, &law, st);
  return 0;
}

int impactfit__dem_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                         impactfit_error *err) {
  (void)what, (void)err;
  if (!c->model->takes_e)
    return 1;
  *value = e;
  return 0;
}

int impactfit__dem_pairs(const impactfit_code_ctx *c) {
  if (c->wall || !c->req)
    return 0;
  return impactfit__dem_two_materials(c) || isfinite(c->req->e11) || isfinite(c->req->e22);
}

/* the settings of the contact of two body-b spheres: per-body inputs body b's for both, the rest the contact's */
static size_t pair_settings(const impactfit_code_ctx *c, int b, impactfit_code_setting *set) {
  const impactfit_code_model *md = c->model;
  size_t n = 0;
  for (int i = 0; i < md->n_inputs && i < IMPACTFIT_CODE_MAX_INPUTS; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    const double *x = in->per_body ? impactfit_code_body_value(c, in->name, b) : impactfit_code_value(c, in->name);
    int finite = 1;
    for (int j = 0; j < in->count; j++)
      finite = finite && isfinite(x[j]);
    if (!finite || (in->optional && !impactfit_code_given(c, in->name)))
      continue; /* the free parameter's slot, or the user's own not given */
    set[n] = (impactfit_code_setting){.name = in->name, .body = 0, .count = in->count};
    memcpy(set[n].values, x, (size_t)in->count * sizeof(double));
    n++;
  }
  return n;
}

int impactfit__dem_pair_value(const impactfit_code_ctx *c, int b, double value, double *out, impactfit_error *err) {
  const impactfit_code_request *r = c->req;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS];
  impactfit_code_request q = *r;
  double e = b == 1 ? r->e11 : r->e22;
  q.settings = set;
  q.n_settings = pair_settings(c, b, set);
  q.bodies = impactfit_code_bodies_default();
  q.bodies.pair = 1;
  if (isnan(c->r1)) { /* meff and reff: the same for every pair */
    q.bodies.meff = c->M;
    q.bodies.reff = c->R;
  } else {
    q.bodies.r1 = q.bodies.r2 = b == 1 ? c->r1 : c->r2;
    q.bodies.m1 = q.bodies.m2 = b == 1 ? c->m1 : c->m2;
  }
  q.e11 = q.e22 = NAN;
  q.v_min = q.v_max = NAN;
  q.suggest = 0;
  q.v = c->v;
  if (isnan(r->e)) { /* forward: the typed value for every pair */
    *out = value;
    return 0;
  }
  q.e = isfinite(e) ? e : r->e;
  q.value = NAN;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  int st = impactfit_code_solve(&q, &a, err);
  *out = st ? NAN : a.reachable ? a.value : NAN;
  impactfit_code_answer_free(&a);
  return st;
}
