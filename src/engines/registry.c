/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry of multibody and robotics engines (include/impactfit/engines.h): lookup, the user's
 * settings, and the solve (inverse on the mean e over the phase, or forward). The engines themselves
 * are in src/engines/<code>.c. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/common_impl.h"
#include "engines_impl.h"
#include "impactfit/demcodes.h"

void impactfit__engine_appendf(char *buf, size_t size, const char *fmt, ...) {
  size_t len = strlen(buf);
  if (len + 1 >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + len, size - len, fmt, ap);
  va_end(ap);
}

/* ---------------------------------------------------------------- the list */

typedef struct {
  const impactfit_engine_model *arr;
  const size_t *count;
} model_list;

static const model_list lists[] = {
#define X(arr, cnt) {arr, &cnt},
    IMPACTFIT__ENGINE_MODELS(X)
#undef X
};

size_t impactfit_engine_model_count(void) {
  size_t n = 0;
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
    n += *lists[i].count;
  return n;
}

const impactfit_engine_model *impactfit_engine_model_at(size_t i) {
  for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
    if (i < *lists[l].count)
      return &lists[l].arr[i];
    i -= *lists[l].count;
  }
  return NULL;
}

long impactfit_engine_version_key(const char *version) {
  if (!version)
    return 0;
  long part[3] = {0, 0, 0};
  int n = 0;
  const char *s = version;
  while (*s && !isdigit((unsigned char)*s))
    s++;
  if (!*s)
    return 0;
  while (n < 3 && isdigit((unsigned char)*s)) {
    char *end;
    long x = strtol(s, &end, 10);
    if (x < 0 || x > 999)
      return 0;
    part[n++] = x;
    s = end;
    if (*s != '.')
      break;
    s++;
  }
  return part[0] * 1000000L + part[1] * 1000L + part[2];
}

static const struct {
  const char *code, *version;
} defaults[] = {{"mujoco", "2.2.2"}, {"simbody", "3.7"}, {"ode", "0.16.2"}, {"bullet", "3.24"}, {"chrono", "10.0.0"}};

const char *impactfit_engine_default_version(const char *code) {
  if (!code)
    return NULL;
  for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
    if (strcasecmp(defaults[i].code, code) == 0)
      return defaults[i].version;
  return NULL;
}

int impactfit_engine_model_find(const char *code, const char *version, const char *model,
                                const impactfit_engine_model **out, impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: NULL result");
  *out = NULL;
  size_t n = impactfit_engine_model_count();
  const char *canon = NULL;
  for (size_t i = 0; i < n && code; i++)
    if (strcasecmp(impactfit_engine_model_at(i)->code, code) == 0)
      canon = impactfit_engine_model_at(i)->code;
  if (!canon) {
    char list[512] = "";
    for (size_t i = 0; i < n; i++) {
      const char *c = impactfit_engine_model_at(i)->code;
      int seen = 0;
      for (size_t j = 0; j < i; j++)
        seen |= strcmp(impactfit_engine_model_at(j)->code, c) == 0;
      if (!seen)
        impactfit__engine_appendf(list, sizeof list, "%s%s", list[0] ? ", " : "", c);
    }
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown engine '%s' (known engines: %s)", code ? code : "(none)",
                           list);
  }
  if (!version)
    version = impactfit_engine_default_version(canon);
  long key = impactfit_engine_version_key(version);
  if (!key)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: cannot read the version '%s' (a dotted version, e.g. %s)", canon,
                           version, impactfit_engine_default_version(canon));
  /* the model, by name (case-insensitive) or the engine's first */
  const char *mname = NULL;
  for (size_t i = 0; i < n; i++) {
    const impactfit_engine_model *md = impactfit_engine_model_at(i);
    if (strcmp(md->code, canon) != 0)
      continue;
    if (!model || !*model || strcasecmp(md->model, model) == 0) {
      mname = md->model;
      break;
    }
  }
  if (!mname) {
    char list[768] = "";
    for (size_t i = 0; i < n; i++) {
      const impactfit_engine_model *md = impactfit_engine_model_at(i);
      if (strcmp(md->code, canon) != 0 || strstr(list, md->model))
        continue;
      impactfit__engine_appendf(list, sizeof list, "%s'%s'", list[0] ? ", " : "", md->model);
    }
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s has no model '%s' (known models: %s)", canon, model, list);
  }
  char vers[768] = "";
  for (size_t i = 0; i < n; i++) {
    const impactfit_engine_model *md = impactfit_engine_model_at(i);
    if (strcmp(md->code, canon) != 0 || strcmp(md->model, mname) != 0)
      continue;
    if ((md->version_min == 0 || key >= md->version_min) && (md->version_max == 0 || key <= md->version_max)) {
      *out = md;
      return 0;
    }
    impactfit__engine_appendf(vers, sizeof vers, "%s%s", vers[0] ? "; " : "", md->versions);
  }
  return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                         "%s model '%s' was not read for version %s (versions read: %s); give one of those with "
                         "--version to use its law at your own risk",
                         canon, mname, version, vers);
}

/* ---------------------------------------------------------------- requests */

impactfit_engine_request impactfit_engine_default_request(void) {
  impactfit_engine_request r;
  memset(&r, 0, sizeof r);
  r.bodies.plane = 1;
  r.bodies.r1 = 0.005;
  r.bodies.m1 = 4.0 / 3.0 * IMPACTFIT__PI * 0.005 * 0.005 * 0.005 * 2500.0;
  r.bodies.r2 = NAN;
  r.bodies.m2 = NAN;
  r.dt = NAN;
  r.e = NAN;
  r.value = NAN;
  r.v = 1.0;
  r.tol = 0.0;
  return r;
}

const double *impactfit__engine_val(const impactfit__engine_ctx *c, const char *name) {
  for (int i = 0; i < c->md->n_inputs; i++)
    if (strcmp(c->md->inputs[i].name, name) == 0)
      return c->vals[i];
  return NULL;
}

static int known_inputs(const impactfit_engine_model *md, char *buf, size_t size) {
  buf[0] = 0;
  for (int i = 0; i < md->n_inputs; i++)
    impactfit__engine_appendf(buf, size, "%s%s (%d value%s, %s)", i ? ", " : "", md->inputs[i].name,
                              md->inputs[i].count, md->inputs[i].count > 1 ? "s" : "", md->inputs[i].unit);
  if (!md->n_inputs)
    impactfit__engine_appendf(buf, size, "none");
  return 0;
}

/* the integrator name up to its comma */
static void int_name(const char *s, char *buf, size_t size) {
  size_t n = strcspn(s, ",");
  if (n >= size)
    n = size - 1;
  memcpy(buf, s, n);
  buf[n] = 0;
}

/* x (> 0) rounded down to 4 significant digits: a largest stable step printed with %.4g must not exceed
 * it (0.0006666692 was printed 0.0006667, a step at which an impact returns e > 1; issue 39) */
static double down4(double x) {
  if (!(x > 0.0 && isfinite(x)))
    return x;
  double p = pow(10.0, floor(log10(x)) - 3.0), r = floor(x / p) * p;
  while (r > x)
    r -= p;
  return r;
}

/* 1 when name is one of the comma-separated list (case-insensitive) */
static int in_list(const char *list, const char *name) {
  if (!list || !name)
    return 0;
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    while (*p == ' ' || *p == ',')
      p++;
    size_t k = strcspn(p, ",");
    if (k == n && strncasecmp(p, name, n) == 0)
      return 1;
    p += k;
  }
  return 0;
}

static int resolve(const impactfit_engine_request *req, impactfit__engine_ctx *c, impactfit_error *err) {
  memset(c, 0, sizeof *c);
  c->req = req;
  const impactfit_engine_model *md = c->md = req->model;
  if (!md || !md->ops)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: no model given");
  char list[1024];
  if (md->n_inputs > IMPACTFIT_ENGINE_MAX_SETTINGS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: model '%s' has too many inputs", md->model);
  for (int i = 0; i < md->n_inputs; i++)
    memcpy(c->vals[i], md->inputs[i].def, sizeof c->vals[i]);
  if (req->n_settings < 0 || req->n_settings > IMPACTFIT_ENGINE_MAX_SETTINGS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: %d settings (at most %d)", req->n_settings,
                           IMPACTFIT_ENGINE_MAX_SETTINGS);
  for (int s = 0; s < req->n_settings; s++) {
    const impactfit_engine_setting *set = &req->settings[s];
    int k = -1;
    for (int i = 0; i < md->n_inputs; i++)
      if (set->name && strcmp(md->inputs[i].name, set->name) == 0)
        k = i;
    if (k < 0) {
      known_inputs(md, list, sizeof list);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s takes no setting '%s' (its settings: %s)", md->code,
                             md->model, set->name ? set->name : "(null)", list);
    }
    if (set->count != md->inputs[k].count)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s: %s takes %d value%s (got %d)", md->code, md->model,
                             set->name, md->inputs[k].count, md->inputs[k].count > 1 ? "s" : "", set->count);
    for (int j = 0; j < set->count; j++) {
      if (!isfinite(set->values[j]))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s: %s value %d is not a finite number", md->code, md->model,
                               set->name, j + 1);
      c->vals[k][j] = set->values[j];
    }
    c->given[k] = 1;
  }
  for (int i = 0; i < md->n_inputs; i++)
    for (int j = 0; j < md->inputs[i].count; j++)
      if (isnan(c->vals[i][j]) && !(md->param_input && strcmp(md->inputs[i].name, md->param_input) == 0 &&
                                    j == md->param_index)) /* the free parameter: solved for, or req->value */
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s needs %s (%s)", md->code, md->model, md->inputs[i].name,
                               md->inputs[i].help);
  /* the bodies */
  const impactfit_engine_bodies *b = &req->bodies;
  if (!(isfinite(b->r1) && b->r1 > 0.0 && isfinite(b->m1) && b->m1 > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "engine: the sphere needs a radius > 0 (m) and a mass > 0 (kg) (got "
                           "%.17g, %.17g)",
                           b->r1, b->m1);
  if (b->plane) {
    c->M = b->m1;
    c->R = b->r1;
  } else {
    if (!(isfinite(b->r2) && b->r2 > 0.0 && isfinite(b->m2) && b->m2 > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "engine: the second sphere needs a radius > 0 (m) and a mass > 0 (kg) (got %.17g, %.17g)",
                             b->r2, b->m2);
    c->M = b->m1 * b->m2 / (b->m1 + b->m2);
    c->R = b->r1 * b->r2 / (b->r1 + b->r2);
  }
  /* the integrator */
  char ints[256];
  snprintf(ints, sizeof ints, "%s", md->integrators ? md->integrators : "");
  const char *want = req->integrator && *req->integrator ? req->integrator : NULL;
  char *save = NULL;
  for (char *tok = strtok_r(ints, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ')
      tok++;
    if (!want || strcasecmp(tok, want) == 0) {
      int_name(tok, c->integrator_buf, sizeof c->integrator_buf);
      c->integrator = c->integrator_buf;
      break;
    }
  }
  if (!c->integrator)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s has no integrator '%s' (known: %s)", md->code, md->model,
                           want ? want : "", md->integrators ? md->integrators : "none");
  c->adaptive = in_list(md->adaptive, c->integrator);
  int no_dt = isnan(req->dt) || req->dt == 0.0;
  if (c->adaptive) {
    if (!no_dt)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "%s %s: the integrator %s controls its error and takes no time step (got dt = %.17g); "
                             "give none",
                             md->code, md->model, c->integrator, req->dt);
    c->dt = NAN;
  } else {
    c->dt = no_dt ? md->dt_default : req->dt;
    if (no_dt && !(md->dt_default > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s has no default time step: give dt (s)", md->code, md->model);
    if (!(isfinite(c->dt) && c->dt > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: dt must be > 0 (s) (got %.17g)", c->dt);
  }
  if (!(isfinite(req->v) && req->v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: the impact speed v must be > 0 (m/s) (got %.17g)", req->v);
  return 0;
}

int impactfit_engine_stepper(const impactfit_engine_request *req, double value, impactfit_stepper *st,
                             impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  if (!req || !st)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: NULL argument");
  impactfit__engine_ctx c;
  int s = resolve(req, &c, err);
  if (s)
    return s;
  memset(st, 0, sizeof *st);
  return c.md->ops->build(&c, value, st, err);
}

static int build_cb(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  const impactfit__engine_ctx *c = ctx;
  memset(st, 0, sizeof *st);
  return c->md->ops->build(c, value, st, err);
}

int impactfit_engine_solve(const impactfit_engine_request *req, impactfit_engine_answer *ans, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  if (!req || !ans)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: NULL argument");
  memset(ans, 0, sizeof *ans);
  impactfit__engine_ctx c;
  int s = resolve(req, &c, err);
  if (s)
    return s;
  const impactfit_engine_model *md = c.md;
  const impactfit__engine_ops *ops = md->ops;
  int inverse = !isnan(req->e);
  double fwd = req->value;
  if (inverse && !isnan(req->value))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: give either the asked e or the value of %s, not both",
                           md->param);
  if (inverse && !(req->e > 0.0 && req->e < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: e must lie in (0, 1) (got %.17g)", req->e);
  if (!inverse && isnan(fwd)) {
    const double *pv = md->param_input ? impactfit__engine_val(&c, md->param_input) : NULL;
    if (!pv)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: give the asked e or the value of %s", md->param);
    fwd = pv[md->param_index];
    if (isnan(fwd))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: give the asked e or the value of %s", md->param);
  }
  if (!inverse && !(isfinite(fwd) && fwd > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "engine: %s must be > 0 (got %.17g)", md->param, fwd);
  snprintf(ans->integrator, sizeof ans->integrator, "%s", c.integrator);
  ans->dt = c.dt;
  ans->mass = c.M;
  ans->value = NAN;
  ans->e_continuous = ans->e_naive = ans->e_naive_min = ans->e_naive_max = ans->naive_value = NAN;
  ans->e_reach_min = ans->e_reach_max = NAN;
  ans->dt_stable = NAN;
  /* what the naive input gives */
  double guess = NAN;
  if (ops->naive && inverse) {
    double nv = NAN;
    char what[256] = "";
    impactfit_stepper ns;
    memset(&ns, 0, sizeof ns);
    int r = ops->naive(&c, req->e, &ns, &nv, what, sizeof what, err);
    if (r < 0)
      return r;
    if (r == 0) {
      impactfit_step_stats N;
      impactfit_error e4;
      snprintf(ans->naive, sizeof ans->naive, "%s", what);
      ans->naive_value = nv;
      guess = nv;
      if (impactfit_step_phase_stats(&ns, req->v, &N, &e4) == 0) {
        ans->e_naive = N.e_mean;
        ans->e_naive_min = N.e_min;
        ans->e_naive_max = N.e_max;
        ans->impacts += N.impacts;
      }
    }
  }
  impactfit_step_stats S;
  impactfit_stepper st;
  double tol = req->tol > 0.0 ? req->tol : 1e-10;
  if (inverse) {
    double value;
    impactfit_error e2;
    double lo = ops->lo, hi = ops->hi;
    if (ops->range)
      ops->range(&c, &lo, &hi);
    s = impactfit_step_solve_mean(build_cb, &c, req->v, req->e, lo, hi, guess, tol, &value, &S, &e2);
    if (s == IMPACTFIT_ENOROOT) {
      ans->reachable = 0;
      ans->e_reach_min = S.e_min <= S.e_max ? S.e_min : NAN;
      ans->e_reach_max = S.e_min <= S.e_max ? S.e_max : NAN;
      if (c.adaptive)
        impactfit__engine_appendf(ans->note, sizeof ans->note, "NOT REACHABLE with %s: %s. ", ans->integrator,
                                  e2.message);
      else
        impactfit__engine_appendf(ans->note, sizeof ans->note, "NOT REACHABLE at dt = %g s with %s: %s. ", c.dt,
                                  ans->integrator, e2.message);
    } else if (s) {
      if (err)
        *err = e2;
      return s;
    } else {
      ans->reachable = 1;
      ans->value = value;
    }
    ans->impacts += S.impacts; /* the search's cost */
  } else {
    ans->reachable = 1;
    ans->value = fwd;
  }
  if (ans->reachable) {
    if ((s = build_cb(&c, ans->value, &st, err)))
      return s;
    /* the inverse's statistics are those of its answer; forward mode computes them */
    if (!inverse && (s = impactfit_step_phase_stats(&st, req->v, &S, err))) {
      /* no e to give (never NaN with success): the bodies stick at some phase, or the step blows up (with the
       * largest stable step where one is found) */
      double dtm;
      impactfit_error e3;
      if (s == IMPACTFIT_ENONFINITE && impactfit_step_max_stable_dt(&st, req->v, &dtm, &e3) == 0 && err)
        impactfit__engine_appendf(err->message, sizeof err->message,
                                  "; the largest step at which this contact neither grows nor returns e > 1 is %.4g s",
                                  dtm);
      return s;
    } else {
      ans->e_mean = S.e_mean;
      ans->e_min = S.e_min;
      ans->e_max = S.e_max;
      ans->e_continuous = S.e_continuous;
      ans->stable = S.stable;
      if (!inverse)
        ans->impacts += S.impacts;
    }
    ans->end = st.end == impactfit_transition_A ? "A" : "C";
    if (ans->stable && isfinite(ans->e_mean) && ans->e_max - ans->e_min > 0.1 * ans->e_mean)
      impactfit__engine_appendf(ans->note, sizeof ans->note,
                                "One impact's e ranges from %.4g to %.4g at this dt: where the first contact step "
                                "falls "
                                "decides e; a smaller dt narrows it. ",
                                ans->e_min, ans->e_max);
    if (!ans->stable) {
      double dtm;
      impactfit_error e3;
      if (impactfit_step_max_stable_dt(&st, req->v, &dtm, &e3) == 0) {
        ans->dt_stable = dtm;
        int grows = !(S.rho_max <= 1.0 + 1e-9) || !isfinite(ans->e_max);
        if (grows)
          impactfit__engine_appendf(ans->note, sizeof ans->note,
                                    "UNSTABLE: the step map grows during the contact (spectral radius %.4g > 1) at "
                                    "dt = %g s; the largest step at which this contact neither grows nor returns e > 1 "
                                    "is %.4g s; e "
                                    "from an impact is meaningless here. ",
                                    S.rho_max, c.dt, down4(dtm));
        else
          impactfit__engine_appendf(ans->note, sizeof ans->note,
                                    "UNSTABLE: single impacts gain energy at dt = %g s (e up to %.4g > 1, although the "
                                    "step map itself does not grow); below %.4g s no impact returns e > 1. ",
                                    c.dt, ans->e_max, down4(dtm));
      }
    }
    ops->input(&c, ans->value, ans->input, sizeof ans->input);
  } else {
    ans->end = "C";
  }
  if (ops->note)
    ops->note(&c, ans->value, ans->note, sizeof ans->note);
  if (!md->run_here)
    impactfit__engine_appendf(ans->note, sizeof ans->note,
                              "Formula only: %s %s was read from its source (%s), not run here. ", md->code,
                              md->versions, md->source);
  size_t len = strlen(ans->note);
  if (len && ans->note[len - 1] == ' ')
    ans->note[len - 1] = 0;
  return 0;
}

/* ---------------------------------------------------------------- every code */

size_t impactfit_codes_count(void) {
  size_t n = 0;
  for (size_t i = 0; i < 64; i++) {
    const char *c, *k, *v;
    if (impactfit_codes_at(i, &c, &k, &v))
      break;
    n++;
  }
  return n;
}

int impactfit_codes_at(size_t i, const char **code, const char **kind, const char **version) {
  /* the DEM codes, in the order of their registry */
  size_t nd = impactfit_dem_model_count(), seen = 0;
  for (size_t j = 0; j < nd; j++) {
    const char *c = impactfit_dem_model_at(j)->code;
    int dup = 0;
    for (size_t k = 0; k < j; k++)
      dup |= strcmp(impactfit_dem_model_at(k)->code, c) == 0;
    if (dup)
      continue;
    if (seen++ == i) {
      int both = 0; /* Chrono: a DEM entry (continuous time) and engine entries (its time step) */
      for (size_t k = 0; k < impactfit_engine_model_count() && !both; k++)
        both = strcmp(impactfit_engine_model_at(k)->code, c) == 0;
      *code = c;
      *kind = both ? "dem+engine" : "dem";
      *version = impactfit_dem_default_version(c);
      return 0;
    }
  }
  size_t ne = impactfit_engine_model_count();
  for (size_t j = 0; j < ne; j++) {
    const char *c = impactfit_engine_model_at(j)->code;
    int dup = 0;
    for (size_t k = 0; k < j; k++)
      dup |= strcmp(impactfit_engine_model_at(k)->code, c) == 0;
    for (size_t k = 0; k < nd && !dup; k++)
      dup |= strcmp(impactfit_dem_model_at(k)->code, c) == 0;
    if (dup)
      continue;
    if (seen++ == i) {
      *code = c;
      *kind = "engine";
      *version = impactfit_engine_default_version(c);
      return 0;
    }
  }
  return IMPACTFIT_EINVAL;
}
