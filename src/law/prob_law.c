/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problems of the force laws of include/impactfit/law.h, any law by name (option law):
 *   "law-impact"   one impact through the law per point (impactfit_law_impact_solve);
 *   "law-damping"  the value of one parameter of the law (option solve; default: the law's damping
 *                  parameter) that gives a target e (impactfit_law_solve_param). The damping is searched
 *                  over [1e-9, 1e6] times the law's scale of it (the power laws' c: ζ = c δ_m0^(m+1)/(mass v)
 *                  of impact.h in [1e-9, 1e6]; the impedance law's B: the damping ratio B/(2√K)); any
 *                  other parameter over [lo, hi], two more parameters of the problem (default: 1e-3 and
 *                  1e3 times the parameter's default, when it has one).
 * Their parameters are the law's, from its type (param_names, param_help, param_default, in the
 * order param_order), then mass and v; law-damping puts the target e where the solved parameter
 * would be. Both problems are specialised to the law once the options are known (the sweep's
 * specialize hook), so a new law needs no change here. Option transition: A or C. The commands
 * simulate --law and zhang-alpha --law run them (docs/cli, docs/LAWS.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../sweep/problems.h"
#include "impactfit/law.h"

enum { O_LAW, O_TRANSITION, O_SOLVE };

static const impactfit_sweep_option options[3] = {
    {"law", "approach-damper", NULL,
     "a force law of law.h by name: power, impedance, approach-damper, ... (docs/LAWS.md)"},
    {"transition", "C", "A|C", "end of contact: A (delta = 0) or C (force falls to zero)"},
    {"solve", "damping", NULL, "law-damping: the parameter solved for, by name (damping: the law's damping parameter)"},
};

static const impactfit_sweep_param mass_v[2] = {IMPACTFIT__PARAM_MASS(0, ""), IMPACTFIT__PARAM_V(0, "")};
static const impactfit_sweep_param target_e = IMPACTFIT__PARAM_E(IMPACTFIT_SWEEP_MAX_EXCLUSIVE,
                                                                 "target coefficient of restitution, 0 < e < 1");

/* ---- the columns of a law ---- */

typedef struct layout {
  const impactfit_law_type *type;
  int solve;                                /* law-damping: the law parameter solved for; -1: law-impact */
  int n_in;                                 /* sweep parameters: the law's (but solve), e, mass, v */
  int law_of[IMPACTFIT_LAW_MAX_PARAMS + 5]; /* sweep parameter j -> the law's index; -1 e, -2 mass, -3 v,
                                               -4 lo, -5 hi */
  int i_e, i_mass, i_v, i_lo, i_hi;         /* their sweep indices (-1: not a parameter) */
  int zeta; /* the law's damping parameter, whose value over the law's scale of it is zeta (law-damping:
               when it is the one solved for); -1: no zeta */
} layout;

/* The layout of problem law-impact (damping 0) or law-damping (1) for the options. */
static int layout_of(const char *const *opt, int damping, layout *L, impactfit_error *err) {
  memset(L, 0, sizeof *L);
  int st = impactfit_law_type_find(opt[O_LAW], NULL, 0, &L->type, err);
  if (st)
    return st;
  const impactfit_law_type *t = L->type;
  if (!t->param_names || t->n_params < 1 || t->n_params > IMPACTFIT_LAW_MAX_PARAMS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law %s: its parameters have no names", t->name);
  L->solve = -1;
  L->i_e = -1;
  L->zeta = t->damping && t->param_scale ? impactfit_law_param_index(t, t->damping) : -1;
  if (damping) {
    const char *name = strcmp(opt[O_SOLVE], "damping") == 0 ? t->damping : opt[O_SOLVE];
    if (!name)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law %s has no damping parameter: name one with solve", t->name);
    if ((L->solve = impactfit_law_param_index(t, name)) < 0) {
      impactfit_law law = {.type = t};
      return impactfit_law_set(&law, name, 0.0, err); /* the message listing the law's parameters */
    }
    if (L->zeta != L->solve)
      L->zeta = -1;
  }
  int j = 0;
  for (int k = 0; k < t->n_params; k++) {
    int i = impactfit_law_param_at(t, k);
    if (i < 0 || i >= t->n_params)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law %s: its param_order is not a permutation", t->name);
    if (i == L->solve)
      L->i_e = j, L->law_of[j++] = -1;
    else
      L->law_of[j++] = i;
  }
  L->i_mass = j, L->law_of[j++] = -2;
  L->i_v = j, L->law_of[j++] = -3;
  L->i_lo = L->i_hi = -1;
  if (L->solve >= 0 && L->zeta < 0) { /* a parameter other than the scaled damping: its interval */
    L->i_lo = j, L->law_of[j++] = -4;
    L->i_hi = j, L->law_of[j++] = -5;
  }
  L->n_in = j;
  return IMPACTFIT_OK;
}

/* The law of point in[] (the solved parameter, if any, at its default). */
static impactfit_law law_at(const layout *L, const double *in) {
  impactfit_law law = impactfit_law_make(L->type);
  for (int j = 0; j < L->n_in; j++)
    if (L->law_of[j] >= 0)
      law.p[L->law_of[j]] = in[j];
  return law;
}

/* law-damping: the search interval of the solved parameter at point in[] and a value inside it:
 * [1e-9, 1e6] times the law's scale of its damping, else [lo, hi]. */
static int search_range(const layout *L, const impactfit_law *law, const double *in, double *lo, double *hi,
                        double *scale, impactfit_error *err) {
  if (L->i_lo >= 0) {
    *lo = in[L->i_lo], *hi = in[L->i_hi], *scale = sqrt(*lo * *hi);
    if (!(*hi > *lo))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the search interval of %s needs lo < hi (got %.17g, %.17g)",
                             L->type->param_names[L->solve], *lo, *hi);
    return IMPACTFIT_OK;
  }
  double s = impactfit_law_param_scale(law, L->solve, in[L->i_mass], in[L->i_v]);
  if (!isfinite(s))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law %s gives no scale of %s at these values", L->type->name,
                           L->type->param_names[L->solve]);
  *lo = 1e-9 * s, *hi = 1e6 * s, *scale = s;
  return IMPACTFIT_OK;
}

/* ---- the specialised problems ---- */

enum { MAX_OUT = 8 };

typedef struct law_problem {
  impactfit_sweep_problem pr;
  impactfit_sweep_param params[IMPACTFIT_LAW_MAX_PARAMS + 5];
  const char *outputs[MAX_OUT], *units[MAX_OUT];
  char help[IMPACTFIT_LAW_MAX_PARAMS + 5][200]; /* each parameter's help with its unit */
} law_problem;

static void release(impactfit_sweep_problem *p) { free(p); }

/* law-impact's outputs (zeta: with a damping parameter the law scales) and law-damping's */
static const char *const impact_outputs[] = {"e_out", "t_contact", "delta_max", "f_max", "delta_sep", "zeta"};
static const char *const impact_units[] = {"-", "s", "m", "N", "m", "-"};
enum { IO_E, IO_T, IO_DMAX, IO_FMAX, IO_DSEP, IO_ZETA };
enum { DO_VALUE, DO_ZETA, DO_E, DO_T, DO_DMAX };

static int specialize(const impactfit_sweep_problem *self, const char *const *opt, int damping,
                      impactfit_sweep_problem **out, impactfit_error *err) {
  layout L;
  int st = layout_of(opt, damping, &L, err);
  if (st)
    return st;
  law_problem *lp = calloc(1, sizeof *lp);
  if (!lp)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  lp->pr = *self;
  const impactfit_law_type *t = L.type;
  for (int j = 0; j < L.n_in; j++) {
    int i = L.law_of[j];
    if (i == -1) {
      lp->params[j] = target_e;
    } else if (i == -2 || i == -3) {
      lp->params[j] = mass_v[-2 - i];
    } else if (i < 0) { /* lo, hi: the search interval, in the solved parameter's unit */
      double d = impactfit_law_param_default(t, L.solve);
      int has = isfinite(d) && d > 0.0;
      const char *unit = t->param_units ? t->param_units[L.solve] : "-";
      snprintf(lp->help[j], sizeof lp->help[j], "%s end of the interval %s is searched in (> 0)%s%s",
               i == -4 ? "lower" : "upper", t->param_names[L.solve], strcmp(unit, "-") ? ", " : "",
               strcmp(unit, "-") ? unit : "");
      lp->params[j] = (impactfit_sweep_param){.name = i == -4 ? "lo" : "hi",
                                              .def = has ? (i == -4 ? 1e-3 : 1e3) * d : 0.0,
                                              .min = 0.0,
                                              .max = HUGE_VAL,
                                              .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE | IMPACTFIT_SWEEP_TOLERANCE |
                                                       (has ? 0u : IMPACTFIT_SWEEP_REQUIRED),
                                              .help = lp->help[j]};
    } else {
      double d = impactfit_law_param_default(t, i);
      const char *unit = t->param_units ? t->param_units[i] : "-";
      int dimless = strcmp(unit, "-") == 0;
      snprintf(lp->help[j], sizeof lp->help[j], "%s%s%s", t->param_help ? t->param_help[i] : "",
               dimless || !t->param_help ? "" : ", ", dimless ? "" : unit);
      lp->params[j] = (impactfit_sweep_param){.name = t->param_names[i],
                                              .def = isnan(d) ? 0.0 : d,
                                              .min = -HUGE_VAL,
                                              .max = HUGE_VAL,
                                              .flags = isnan(d) ? IMPACTFIT_SWEEP_REQUIRED : 0u,
                                              .help = lp->help[j]};
    }
  }
  size_t no = 0;
  if (damping) {
    lp->outputs[no] = t->param_names[L.solve];
    lp->units[no++] = t->param_units ? t->param_units[L.solve] : "?";
    if (L.zeta >= 0)
      lp->outputs[no] = "zeta", lp->units[no++] = "-";
    for (int k = IO_E; k <= IO_DMAX; k++)
      lp->outputs[no] = impact_outputs[k], lp->units[no++] = impact_units[k];
  } else {
    for (int k = IO_E; k <= (L.zeta >= 0 ? IO_ZETA : IO_DSEP); k++)
      lp->outputs[no] = impact_outputs[k], lp->units[no++] = impact_units[k];
  }
  lp->pr.params = lp->params;
  lp->pr.n_params = (size_t)L.n_in;
  lp->pr.outputs = lp->outputs;
  lp->pr.output_units = lp->units;
  lp->pr.n_outputs = no;
  *out = &lp->pr;
  return IMPACTFIT_OK;
}

static int impact_specialize(const impactfit_sweep_problem *self, const char *const *opt, impactfit_sweep_problem **out,
                             impactfit_error *err) {
  return specialize(self, opt, 0, out, err);
}

static int damping_specialize(const impactfit_sweep_problem *self, const char *const *opt,
                              impactfit_sweep_problem **out, impactfit_error *err) {
  return specialize(self, opt, 1, out, err);
}

/* ---- state, checks ---- */

typedef struct law_state {
  impactfit_law_workspace *ws;
  layout L;
  const impactfit_transition *tr;
  int want_zeta;
} law_state;

static int state_alloc(void **state, const char *const *opt, const unsigned char *wanted, int damping,
                       impactfit_error *err) {
  layout L;
  int st = layout_of(opt, damping, &L, err);
  if (st)
    return st;
  law_state *s = calloc(1, sizeof *s);
  if (!s || !(s->ws = impactfit_law_alloc())) {
    free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  s->L = L;
  s->tr = impactfit_transition_from_name(opt[O_TRANSITION]);
  s->want_zeta = L.zeta >= 0 && wanted[damping ? DO_ZETA : IO_ZETA];
  *state = s;
  return IMPACTFIT_OK;
}

static int impact_alloc(void **state, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  return state_alloc(state, opt, wanted, 0, err);
}

static int damping_alloc(void **state, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  return state_alloc(state, opt, wanted, 1, err);
}

static void state_free(void *state) {
  law_state *s = state;
  if (s)
    impactfit_law_free(s->ws);
  free(s);
}

/* every point: a valid law (its own check; the solved parameter at its scale) */
static int point_check(const char *const *opt, const double *in, int damping, impactfit_error *err) {
  layout L;
  int st = layout_of(opt, damping, &L, err);
  if (st)
    return st;
  impactfit_law law = law_at(&L, in);
  if (damping) {
    double lo, hi, scale;
    if ((st = search_range(&L, &law, in, &lo, &hi, &scale, err)))
      return st;
    law.p[L.solve] = scale;
  }
  return impactfit_law_check(&law, err);
}

static int impact_check(const char *const *opt, const double *in, impactfit_error *err) {
  return point_check(opt, in, 0, err);
}

static int damping_check(const char *const *opt, const double *in, impactfit_error *err) {
  return point_check(opt, in, 1, err);
}

/* zeta of the law at this point: its damping parameter over its scale */
static int zeta_of(const law_state *s, const impactfit_law *law, double mass, double v, double *zeta,
                   impactfit_error *err) {
  double sc = impactfit_law_param_scale(law, s->L.zeta, mass, v);
  if (!isfinite(sc))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "zeta: law %s gives no scale of %s at these values (leave zeta out of the outputs)",
                           s->L.type->name, s->L.type->param_names[s->L.zeta]);
  *zeta = law->p[s->L.zeta] / sc;
  return IMPACTFIT_OK;
}

/* ---- law-impact ---- */

static int impact_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  law_state *s = state;
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  p.law = law_at(&s->L, in);
  p.mass = in[s->L.i_mass];
  p.v = in[s->L.i_v];
  p.transition = s->tr;
  impactfit_law_impact_result r;
  int st = impactfit_law_impact_solve(s->ws, &p, &r, err);
  *rhs_evals = r.rhs_evals;
  if (st)
    return st;
  double zeta = 0.0;
  if (s->want_zeta && (st = zeta_of(s, &p.law, p.mass, p.v, &zeta, err)))
    return st;
  const double v[] = {r.e_out, r.t_contact, r.delta_max, r.f_max, r.delta_sep, zeta};
  memcpy(out, v, (s->L.zeta >= 0 ? 6 : 5) * sizeof *v);
  return IMPACTFIT_OK;
}

/* The problem before its law is known: no parameters of its own (the specialisation has the law's). */
const impactfit_sweep_problem impactfit__problem_law_impact = {
    .name = "law-impact",
    .summary = "one impact through a force law of law.h (option law: its parameters are the sweep's) per point",
    .params = NULL,
    .n_params = 0,
    .options = options,
    .n_options = 2,
    .outputs = impact_outputs,
    .n_outputs = 6,
    .check = impact_check,
    .alloc = impact_alloc,
    .free = state_free,
    .solve = impact_solve,
    .output_units = impact_units,
    .specialize = impact_specialize,
    .release = release,
};

/* ---- law-damping ---- */

static int damping_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  law_state *s = state;
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  p.law = law_at(&s->L, in);
  p.mass = in[s->L.i_mass];
  p.v = in[s->L.i_v];
  p.transition = s->tr;
  double lo, hi, scale;
  *rhs_evals = 0;
  int st = search_range(&s->L, &p.law, in, &lo, &hi, &scale, err);
  if (st)
    return st;
  p.law.p[s->L.solve] = scale;
  impactfit_law_impact_result r;
  memset(&r, 0, sizeof r);
  double x = 0.0;
  st = impactfit_law_solve_param(s->ws, &p, s->L.solve, in[s->L.i_e], lo, hi, 0.0, &x, &r, err);
  *rhs_evals = r.rhs_evals;
  if (st)
    return st;
  size_t k = 0;
  out[k++] = x;
  if (s->L.zeta >= 0)
    out[k++] = x / scale;
  out[k++] = r.e_out;
  out[k++] = r.t_contact;
  out[k++] = r.delta_max;
  return IMPACTFIT_OK;
}

static const char *const damping_outputs[] = {"value", "zeta", "e_out", "t_contact", "delta_max"};
static const char *const damping_units[] = {"?", "-", "-", "s", "m"};

const impactfit_sweep_problem impactfit__problem_law_damping = {
    .name = "law-damping",
    .summary = "the value of a parameter of a force law of law.h (option solve; default its damping) that gives e",
    .params = NULL,
    .n_params = 0,
    .options = options,
    .n_options = 3,
    .outputs = damping_outputs,
    .n_outputs = 5,
    .check = damping_check,
    .alloc = damping_alloc,
    .free = state_free,
    .solve = damping_solve,
    .output_units = damping_units,
    .specialize = damping_specialize,
    .release = release,
};
