/* SPDX-License-Identifier: GPL-3.0-or-later */
/* r = impactfit_code(code, model, e, v, name, value, ...) or impactfit_code(code, name, value, ...): the exact
 * input for a code of the registry (DEM codes and engines, include/impactfit/codes.h); help in impactfit_code.m.
 * impactfit_dem and impactfit_engine are this MEX file under their names (impactfit_dem.c, impactfit_engine.c
 * include it). A scalar call gives a struct with the keys of `impactfit dem/engine --json` (bindings/kernels.h:
 * code_keys); an array call runs bindings/kernels.h's kernel `code` over the points (the numeric inputs and the
 * one-value settings are vectorised: the non-scalar ones must have the same number of elements). */
#include <strings.h>

#include "impactfit_mex.h"

/* the numeric inputs of the kernel "code" by name (bindings/kernels.h: code_request) */
static const struct {
  const char *name, *alias;
  int in;
} numeric[] = {{"e", NULL, 0},      {"v", NULL, 1},  {"value", NULL, 2},     {"dt", NULL, 3},
               {"radius", "r1", 4}, {"r2", NULL, 5}, {"density", "rho1", 6}, {"rho2", NULL, 7},
               {"mass", "m1", 8},   {"m2", NULL, 9}, {"meff", NULL, 10},     {"reff", NULL, 11}};
#define N_NUMERIC (sizeof numeric / sizeof numeric[0])

typedef struct args {
  char code[64], model[128], version[64], option[64], integrator[64];
  const mxArray *in[CODE_N_IN];
  const char *given_as[CODE_N_IN];
  char slot_names[CODE_SLOTS][64];
  int n_slots, forward;
  const mxArray *settings, *v_range, *r_range, *r2_range;
  /* impactfit_drop (IMPACTFIT_MEX_DROP): the drop test's parameters */
  impactfit_drop_params drop;
  int releases, drop_given;
} args;

static void get_string(const mxArray *a, char *buf, size_t size, const char *what) {
  if (!mxIsChar(a) || mxGetString(a, buf, (mwSize)size))
    mex_input_error("%s: expected a string (at most %zu characters)", what, size - 1);
}

static int get_flag(const mxArray *a, const char *what) {
  char s[8];
  if (mxIsChar(a)) {
    get_string(a, s, sizeof s, what);
    if (!strcasecmp(s, "on"))
      return 1;
    if (!strcasecmp(s, "off"))
      return 0;
    mex_input_error("%s: expected 'on', 'off', true or false (got '%s')", what, s);
  }
  if ((!mxIsLogical(a) && !mxIsDouble(a)) || mxGetNumberOfElements(a) != 1)
    mex_input_error("%s: expected 'on', 'off', true or false", what);
  return mxGetScalar(a) != 0.0;
}

static void put_numeric(args *A, int j, const mxArray *v, const char *name) {
  if (A->in[j])
    mex_input_error("give %s or %s, not both", A->given_as[j], name);
  A->in[j] = v;
  A->given_as[j] = name;
}

/* a drop test's option (1 when name is one): impactfit_drop's height, bounces, peak, reading, releases, t_max */
static int drop_option(args *A, const char *name, const mxArray *v) {
  impactfit_drop_params *p = &A->drop;
  if (!strcasecmp(name, "height")) {
    p->height = mex_scalar(v, "height");
    if (!(isfinite(p->height) && p->height > 0.0))
      mex_input_error("height: the release height must be > 0 (m), got %.17g", p->height);
  } else if (!strcasecmp(name, "bounces")) {
    double n = mex_scalar(v, "bounces");
    if (!(n >= 1 && n <= IMPACTFIT_DROP_MAX_BOUNCES && n == floor(n)))
      mex_input_error("bounces must be a whole number in [1, %d], got %.17g", IMPACTFIT_DROP_MAX_BOUNCES, n);
    p->bounces = (int)n;
  } else if (!strcasecmp(name, "peak")) {
    p->min_height = mex_scalar(v, "peak");
    if (!(p->min_height >= 0.0 && isfinite(p->min_height)))
      mex_input_error("peak: the apex threshold must be >= 0 (m), got %.17g", p->min_height);
  } else if (!strcasecmp(name, "t_max")) {
    p->t_max = mex_scalar(v, "t_max");
    if (!(p->t_max >= 0.0 && isfinite(p->t_max)))
      mex_input_error("t_max must be >= 0 (s; 0: no bound), got %.17g", p->t_max);
  } else if (!strcasecmp(name, "releases")) {
    double n = mex_scalar(v, "releases");
    if (!(n >= 1 && n <= 4096 && n == floor(n)))
      mex_input_error("releases must be a whole number in [1, 4096], got %.17g", n);
    A->releases = (int)n;
  } else if (!strcasecmp(name, "reading")) {
    char r[16];
    get_string(v, r, sizeof r, "reading");
    if (!strcasecmp(r, "heights"))
      p->reading = IMPACTFIT_DROP_HEIGHTS;
    else if (!strcasecmp(r, "speeds"))
      p->reading = IMPACTFIT_DROP_SPEEDS;
    else
      mex_input_error("reading takes 'heights' (h_n = e^(2n) h_0 fitted) or 'speeds' (the mean of v_out/v_in), got "
                      "'%s'",
                      r);
  } else {
    return 0;
  }
  return 1;
}

/* the options; the string ones first (the model decides how a setting is read) */
static void read_args(int nrhs, const mxArray *prhs[], args *A, kopts *o) {
  memset(A, 0, sizeof *A);
  A->drop = impactfit_drop_default_params();
  A->releases = 16;
  get_string(prhs[0], A->code, sizeof A->code, "code");
  int first = 1;
  /* positional (code, model, e, v, ...): model a string, e and v numbers */
  if (nrhs >= 4 && mxIsChar(prhs[1]) && !mxIsChar(prhs[2]) && !mxIsChar(prhs[3])) {
    get_string(prhs[1], A->model, sizeof A->model, "model");
    A->in[0] = mxGetNumberOfElements(prhs[2]) ? prhs[2] : NULL;
    A->given_as[0] = "e";
    A->in[1] = prhs[3];
    A->given_as[1] = "v";
    first = 4;
  }
  if ((nrhs - first) % 2)
    mex_input_error("options come in name/value pairs (help %s)", mexFunctionName());
  int pair = -1, wall = -1;
  for (int i = first; i < nrhs; i += 2) {
    char name[64];
    if (!mxIsChar(prhs[i]) || mxGetString(prhs[i], name, sizeof name))
      mex_input_error("expected an option name at argument %d", i + 1);
    const mxArray *v = prhs[i + 1];
    if (!strcasecmp(name, "model"))
      get_string(v, A->model, sizeof A->model, "model");
    else if (!strcasecmp(name, "version"))
      get_string(v, A->version, sizeof A->version, "version");
    else if (!strcasecmp(name, "damping") || !strcasecmp(name, "option")) {
      if (*A->option)
        mex_input_error("give damping or option, not both");
      get_string(v, A->option, sizeof A->option, name);
    } else if (!strcasecmp(name, "integrator"))
      get_string(v, A->integrator, sizeof A->integrator, "integrator");
    else if (!strcasecmp(name, "limit"))
      o->code.clamp = get_flag(v, "limit");
    else if (!strcasecmp(name, "pair"))
      pair = get_flag(v, "pair");
    else if (!strcasecmp(name, "wall") || !strcasecmp(name, "plane"))
      wall = get_flag(v, name);
    else if (!strcasecmp(name, "settings")) {
      if (!mxIsStruct(v) || mxGetNumberOfElements(v) != 1)
        mex_input_error("'settings' takes a struct, e.g. struct('solref', [0.02 1])");
      A->settings = v;
    } else if (!strcasecmp(name, "v_range")) {
      if (!mxIsDouble(v) || mxGetNumberOfElements(v) != 2)
        mex_input_error("'v_range' takes [v_min v_max] (m/s)");
      A->v_range = v;
    } else if (!strcasecmp(name, "gravity")) {
      o->code.gravity = mex_scalar(v, "gravity");
      if (!(isfinite(o->code.gravity) && o->code.gravity >= 0.0))
        mex_input_error("gravity: the acceleration into the contact must be >= 0 (m/s^2), got %.17g", o->code.gravity);
    } else if (drop_option(A, name, v)) {
      A->drop_given = 1;
    } else if (!strcasecmp(name, "radius_range")) {
      if (!mxIsDouble(v) || mxIsComplex(v) || mxGetNumberOfElements(v) != 2 ||
          !(mxGetPr(v)[0] > 0.0 && mxGetPr(v)[0] <= mxGetPr(v)[1] && isfinite(mxGetPr(v)[1])))
        mex_input_error("'radius_range' takes [r_min r_max] (m) with 0 < r_min <= r_max");
      A->r_range = v;
    } else if (!strcasecmp(name, "r2_range")) {
      if (!mxIsDouble(v) || mxIsComplex(v) || mxGetNumberOfElements(v) != 2 ||
          !(mxGetPr(v)[0] > 0.0 && mxGetPr(v)[0] <= mxGetPr(v)[1] && isfinite(mxGetPr(v)[1])))
        mex_input_error("'r2_range' takes [r2_min r2_max] (m) with 0 < r2_min <= r2_max");
      A->r2_range = v;
    } else if (!strcasecmp(name, "points")) {
      double p = mex_scalar(v, "points");
      if (!(p >= 0 && p <= 10000 && p == floor(p)))
        mex_input_error("points: expected a whole number in 0..10000");
      o->code.points = (size_t)p;
    } else {
      size_t j;
      for (j = 0; j < N_NUMERIC; j++)
        if (numeric[j].in == 0
                ? !strcmp(name, "e") /* 'E' is Young's modulus */
                : !strcasecmp(name, numeric[j].name) || (numeric[j].alias && !strcasecmp(name, numeric[j].alias)))
          break;
      if (j < N_NUMERIC) {
        put_numeric(A, numeric[j].in, v, numeric[j].name);
      } else { /* a one-value setting of the model (vectorised) */
        if (A->n_slots == CODE_SLOTS)
          mex_input_error("at most %d one-value settings by name; give the others in 'settings'", CODE_SLOTS);
        int k = A->n_slots++;
        snprintf(A->slot_names[k], sizeof A->slot_names[0], "%s", name);
        put_numeric(A, CODE_N_FIXED + k, v, A->slot_names[k]);
      }
    }
  }
  if (pair >= 0 && wall >= 0 && pair == wall)
    mex_input_error("give pair or wall, not both");
  o->code.bodies.pair = pair >= 0 ? pair : wall >= 0 ? !wall : -1;
  if (A->in[0] && A->in[2])
    mex_input_error("give e (the restitution you want) or 'value' (what you type), not both");
  if ((A->in[8] || A->in[9]) && (A->in[6] || A->in[7]))
    mex_input_error("give densities or masses, not both");
#ifdef IMPACTFIT_MEX_DROP
  if (A->in[1])
    mex_input_error("a drop test takes no v: the first impact's speed is the fall's from 'height'");
  if (A->r_range || A->r2_range || A->v_range)
    mex_input_error("a drop test is one ball of one size: radius_range, r2_range and v_range do not apply");
#else
  if (A->drop_given)
    mex_input_error("height, bounces, peak, reading, releases and t_max are impactfit_drop's options");
  if (!A->in[1])
    mex_input_error("v is required (the impact speed, m/s)");
#endif
  if (A->r2_range && !A->r_range)
    mex_input_error("'r2_range' is body 2's own size range: give 'radius_range' for body 1 as well");
  if (A->r_range && (A->in[10] || A->in[11]))
    mex_input_error("radius_range varies the spheres' sizes: give radius and density (or mass), not meff and reff");
  A->forward = A->in[2] != NULL;
}

/* the model, the settings of several values (and one-value settings that are one model input of several
 * values), the names of the vectorised ones */
static void read_model(args *A, kopts *o) {
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_code_request *q = &o->code;
  if (impactfit_code_model_find(A->code, *A->version ? A->version : NULL, *A->model ? A->model : NULL,
                                *A->option ? A->option : NULL, &q->model, &err))
    mex_input_error("%s", err.message);
  q->version = *A->version ? A->version : NULL;
  q->integrator = *A->integrator ? A->integrator : NULL;
  if (A->v_range) {
    q->v_min = mxGetPr(A->v_range)[0];
    q->v_max = mxGetPr(A->v_range)[1];
  }
  if (A->r_range) {
    q->r_min = mxGetPr(A->r_range)[0];
    q->r_max = mxGetPr(A->r_range)[1];
  }
  if (A->r2_range) {
    q->r2_min = mxGetPr(A->r2_range)[0];
    q->r2_max = mxGetPr(A->r2_range)[1];
  }
  int nf = A->settings ? mxGetNumberOfFields(A->settings) : 0;
  if (nf > IMPACTFIT_CODE_MAX_INPUTS)
    mex_input_error("too many settings");
  for (int k = 0; k < nf; k++) {
    const mxArray *f = mxGetFieldByNumber(A->settings, 0, k);
    const char *name = mxGetFieldNameByNumber(A->settings, k);
    size_t n = f ? mxGetNumberOfElements(f) : 0;
    if (!f || !mxIsDouble(f) || mxIsComplex(f) || n < 1 || n > 2 * IMPACTFIT_CODE_MAX_VALUES)
      mex_input_error("setting '%s' takes 1 to %d real numbers", name, 2 * IMPACTFIT_CODE_MAX_VALUES);
    impactfit_code_setting *s = &o->code_set[o->code_nset++];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->count = (int)n;
    memcpy(s->values, mxGetPr(f), n * sizeof(double));
  }
  /* a setting by name that is one input of several values ('solref', [0.02 1]): the same for every point */
  int kept = 0;
  for (int k = 0; k < A->n_slots; k++) {
    const mxArray *v = A->in[CODE_N_FIXED + k];
    const impactfit_code_input *inp = impactfit_code_input_find(q->model, A->slot_names[k]);
    size_t n = mxGetNumberOfElements(v);
    if (inp && inp->count > 1) {
      if (o->code_nset == IMPACTFIT_CODE_MAX_INPUTS)
        mex_input_error("too many settings");
      if (!mxIsDouble(v) || mxIsComplex(v) || n < 1 || n > 2 * IMPACTFIT_CODE_MAX_VALUES)
        mex_input_error("setting '%s' takes 1 to %d real numbers", A->slot_names[k], 2 * IMPACTFIT_CODE_MAX_VALUES);
      impactfit_code_setting *s = &o->code_set[o->code_nset++];
      memset(s, 0, sizeof *s);
      s->name = inp->name;
      s->count = (int)n;
      memcpy(s->values, mxGetPr(v), n * sizeof(double));
      continue;
    }
    if (kept != k) {
      memcpy(A->slot_names[kept], A->slot_names[k], sizeof A->slot_names[0]);
      A->in[CODE_N_FIXED + kept] = v;
      A->given_as[CODE_N_FIXED + kept] = A->slot_names[kept];
    }
    kept++;
  }
  for (int k = kept; k < A->n_slots; k++)
    A->in[CODE_N_FIXED + k] = NULL;
  A->n_slots = kept;
  for (int k = 0; k < A->n_slots; k++)
    o->code_slot[k] = A->slot_names[k];
}

static mxArray *range_of(double a, double b) {
  mxArray *r = mxCreateDoubleMatrix(1, 2, mxREAL);
  mxGetPr(r)[0] = a;
  mxGetPr(r)[1] = b;
  return r;
}

/* "spread": the answer over the ranges, the fields of `--json`'s spread (src/cli/code_print.c: json_spread):
 * r_range ([] without a size range), v_range, bodies, points, evaluations, e_min, e_max, where (e_min, e_max:
 * [r1 r2 v] each), corners (a struct array r1, r2, v, e over the axes that are ranges), worst (NaN: forward),
 * exact */
static mxArray *spread_struct(const impactfit_code_answer *a) {
  const impactfit_code_spread *sp = &a->spread;
  int sizes = isfinite(a->r_min) && a->r_min < a->r_max, sizes2 = !a->wall && isfinite(a->r2_min) && a->r2_min < a->r2_max;
  int axes = (sizes ? 1 : 0) | (sizes2 ? 2 : 0) | (a->v_min < a->v_max ? 4 : 0), n = 0;
  for (int i = 0; i < 8; i++)
    n += !(i & ~axes);
  static const char *const cf[] = {"r1", "r2", "v", "e"};
  mxArray *corners = mxCreateStructMatrix(1, (mwSize)n, 4, (const char **)cf);
  for (int i = 0, k = 0; i < 8; i++) {
    if (i & ~axes)
      continue;
    double r1 = isfinite(a->r_min) ? ((i & 1) ? a->r_max : a->r_min) : sp->r1_min;
    double r2 = isfinite(a->r_min) ? (a->wall ? r1 : (i & 2) ? a->r2_max : a->r2_min) : sp->r2_min;
    const double c[4] = {r1, r2, (i & 4) ? a->v_max : a->v_min, sp->e_corner[i]};
    for (int f = 0; f < 4; f++)
      mxSetFieldByNumber(corners, (mwIndex)k, f, mxCreateDoubleScalar(c[f]));
    k++;
  }
  static const char *const wf[] = {"e_min", "e_max"};
  mxArray *where = mxCreateStructMatrix(1, 1, 2, (const char **)wf);
  const double at[2][3] = {{sp->r1_min, sp->r2_min, sp->v_at_min}, {sp->r1_max, sp->r2_max, sp->v_at_max}};
  for (int w = 0; w < 2; w++) {
    mxArray *x = mxCreateDoubleMatrix(1, 3, mxREAL);
    memcpy(mxGetPr(x), at[w], sizeof at[w]);
    mxSetFieldByNumber(where, 0, w, x);
  }
  static const char *const f[] = {"r_range", "v_range", "bodies", "points", "evaluations", "e_min",
                                  "e_max",   "where",   "corners", "worst", "exact", "r2_range"};
  mxArray *r = mxCreateStructMatrix(1, 1, 12, (const char **)f);
  mxSetFieldByNumber(r, 0, 0, isfinite(a->r_min) ? range_of(a->r_min, a->r_max) : mxCreateDoubleMatrix(0, 0, mxREAL));
  mxSetFieldByNumber(r, 0, 11,
                     isfinite(a->r2_min) ? range_of(a->r2_min, a->r2_max) : mxCreateDoubleMatrix(0, 0, mxREAL));
  mxSetFieldByNumber(r, 0, 1, range_of(a->v_min, a->v_max));
  mxSetFieldByNumber(r, 0, 2, mxCreateString(a->wall ? "the sphere on the wall" : "each sphere"));
  mxSetFieldByNumber(r, 0, 3, mxCreateDoubleScalar(a->spread_points));
  mxSetFieldByNumber(r, 0, 4, mxCreateDoubleScalar((double)sp->evaluations));
  mxSetFieldByNumber(r, 0, 5, mxCreateDoubleScalar(sp->e_min));
  mxSetFieldByNumber(r, 0, 6, mxCreateDoubleScalar(sp->e_max));
  mxSetFieldByNumber(r, 0, 7, where);
  mxSetFieldByNumber(r, 0, 8, corners);
  mxSetFieldByNumber(r, 0, 9, mxCreateDoubleScalar(sp->worst));
  mxSetFieldByNumber(r, 0, 10, mxCreateDoubleScalar(a->spread_exact));
  return r;
}

/* "exact_model" (a struct, or [] when none) and, without one, "exact_other" (a struct or []): as `--json` */
static void add_exact(mxArray *r, const impactfit_code_answer *a) {
  const impactfit_code_answer *x = a->exact_model;
  mxArray *m = mxCreateDoubleMatrix(0, 0, mxREAL);
  if (x) {
    static const char *const f[] = {"model", "damping", "param", "value", "input", "end", "e_range", "worst", "note"};
    mxDestroyArray(m);
    m = mxCreateStructMatrix(1, 1, 9, (const char **)f);
    mxSetFieldByNumber(m, 0, 0, mxCreateString(x->model->model));
    mxSetFieldByNumber(m, 0, 1, mxCreateString(x->model->option));
    mxSetFieldByNumber(m, 0, 2, mxCreateString(x->model->param));
    mxSetFieldByNumber(m, 0, 3, mxCreateDoubleScalar(x->value));
    mxSetFieldByNumber(m, 0, 4, mxCreateString(x->input ? x->input : ""));
    mxSetFieldByNumber(m, 0, 5, mxCreateString(x->end->name));
    mxSetFieldByNumber(m, 0, 6, range_of(x->spread.e_min, x->spread.e_max));
    mxSetFieldByNumber(m, 0, 7, mxCreateDoubleScalar(x->spread.worst));
    mxSetFieldByNumber(m, 0, 8, mxCreateString(x->note ? x->note : ""));
  }
  mxSetFieldByNumber(r, 0, mxAddField(r, "exact_model"), m);
  if (x)
    return;
  const impactfit_code_model *o = a->exact_other;
  mxArray *other = mxCreateDoubleMatrix(0, 0, mxREAL);
  if (o) {
    static const char *const f[] = {"model", "damping", "param"};
    mxDestroyArray(other);
    other = mxCreateStructMatrix(1, 1, 3, (const char **)f);
    mxSetFieldByNumber(other, 0, 0, mxCreateString(o->model));
    mxSetFieldByNumber(other, 0, 1, mxCreateString(o->option));
    mxSetFieldByNumber(other, 0, 2, mxCreateString(o->param));
  }
  mxSetFieldByNumber(r, 0, mxAddField(r, "exact_other"), other);
}

/* the keys of the answer's kind (code_keys), the alternative, the speed rows, the kind */
static mxArray *answer_struct(const impactfit_code_answer *a) {
  code_strs s = code_strs_of(a);
  int kind = code_kind(a);
  mxArray *r = mxCreateStructMatrix(1, 1, 0, NULL);
  for (size_t i = 0; i < N_CODE_KEYS; i++) {
    const code_key *k = &code_keys[i];
    if (!(k->kinds & kind))
      continue;
    double x[2];
    const char *str;
    code_key_get(k, a, &s, x, &str);
    int f = mxAddField(r, k->key);
    mxSetFieldByNumber(r, 0, f,
                       k->type == CK_STR     ? mxCreateString(str)
                       : k->type == CK_RANGE ? range_of(x[0], x[1])
                                             : mxCreateDoubleScalar(x[0]));
  }
  if (kind == CK_POWER && !a->reachable) {
    mxArray *alt = mxCreateDoubleMatrix(0, 0, mxREAL);
    if (a->alternative) {
      const impactfit_code_answer *b = a->alternative;
      static const char *const f[] = {"model", "damping", "param", "param_unit", "value",
                                      "input", "e_range", "note",  "end"};
      mxDestroyArray(alt);
      alt = mxCreateStructMatrix(1, 1, 9, (const char **)f);
      mxSetFieldByNumber(alt, 0, 0, mxCreateString(b->model->model));
      mxSetFieldByNumber(alt, 0, 1, mxCreateString(b->model->option));
      mxSetFieldByNumber(alt, 0, 2, mxCreateString(b->model->param));
      mxSetFieldByNumber(alt, 0, 3, mxCreateString(b->model->param_unit));
      mxSetFieldByNumber(alt, 0, 4, mxCreateDoubleScalar(b->value));
      mxSetFieldByNumber(alt, 0, 5, mxCreateString(b->input ? b->input : ""));
      mxSetFieldByNumber(alt, 0, 6, range_of(b->e_speed_min, b->e_speed_max));
      mxSetFieldByNumber(alt, 0, 7, mxCreateString(b->note ? b->note : ""));
      mxSetFieldByNumber(alt, 0, 8, mxCreateString(b->end->name));
    }
    mxSetFieldByNumber(r, 0, mxAddField(r, "alternative"), alt);
  }
  if (a->has_spread) {
    mxSetFieldByNumber(r, 0, mxAddField(r, "spread"), spread_struct(a));
    if (!a->spread_exact && !a->forward)
      add_exact(r, a);
  }
  if (a->n_range) {
    mxArray *rows = mxCreateDoubleMatrix((mwSize)a->n_range, 5, mxREAL);
    double *p = mxGetPr(rows);
    for (size_t i = 0; i < a->n_range; i++) {
      const impactfit_code_point *q = &a->range[i];
      const double row[5] = {q->v, q->e_mean, q->e_min, q->e_max, q->e_continuous};
      for (int c = 0; c < 5; c++)
        p[i + (size_t)c * a->n_range] = row[c];
    }
    mxSetFieldByNumber(r, 0, mxAddField(r, "range"), rows);
  }
  mxSetFieldByNumber(r, 0, mxAddField(r, "kind"), mxCreateString(code_kind_name(a)));
  return r;
}

/* an array call's fields per kind (the numbers of the scalar call's keys; python/impactfit: _CODE_ARRAY) */
static const struct {
  const char *field;
  int out, kinds;
} array_fields[] = {{"value", CO_value, CK_ALL},
                    {"e_real", CO_e, CK_FORWARD},
                    {"e_mean", CO_e, CK_STEPS},
                    {"e_min", CO_e_min, CK_STEPS},
                    {"e_max", CO_e_max, CK_STEPS},
                    {"e_continuous", CO_e_continuous, CK_STEPS},
                    {"naive_value", CO_naive_value, CK_STEPS},
                    {"e_naive", CO_e_naive, CK_PS},
                    {"e_naive_min", CO_e_naive_min, CK_STEPS},
                    {"e_naive_max", CO_e_naive_max, CK_STEPS},
                    {"reachable", CO_reachable, CK_PS},
                    {"e_reach_min", CO_e_reach_min, CK_STEPS},
                    {"e_reach_max", CO_e_reach_max, CK_STEPS},
                    {"stable", CO_stable, CK_STEPS},
                    {"dt_stable", CO_dt_stable, CK_STEPS},
                    {"dt", CO_dt, CK_STEPS},
                    {"mass", CO_mass, CK_STEPS},
                    {"zeta", CO_zeta, CK_POWER},
                    {"C", CO_C, CK_POWER},
                    {"K", CO_K, CK_POWER},
                    {"R", CO_R, CK_PF},
                    {"M", CO_mass, CK_PF}};

static mxArray *array_struct(mxArray **out, int forward) {
  int stepped = 0;
  size_t n = mxGetNumberOfElements(out[CO_stepped]);
  for (size_t i = 0; i < n; i++)
    stepped |= mxGetPr(out[CO_stepped])[i] == 1.0;
  int kind = stepped ? CK_STEPS : forward ? CK_FORWARD : CK_POWER;
  mxArray *r = mxCreateStructMatrix(1, 1, 0, NULL);
  for (size_t i = 0; i < sizeof array_fields / sizeof array_fields[0]; i++)
    if (array_fields[i].kinds & kind)
      mxSetFieldByNumber(r, 0, mxAddField(r, array_fields[i].field), mxDuplicateArray(out[array_fields[i].out]));
  for (int k = 0; k < CODE_N_OUT; k++)
    mxDestroyArray(out[k]);
  return r;
}

#ifdef IMPACTFIT_MEX_DROP
static void put_num(mxArray *r, const char *key, double x) {
  mxSetFieldByNumber(r, 0, mxAddField(r, key), mxCreateDoubleScalar(x));
}

static void put_str(mxArray *r, const char *key, const char *x) {
  mxSetFieldByNumber(r, 0, mxAddField(r, key), mxCreateString(x ? x : ""));
}

/* the keys of `impactfit engine --drop H --json` (src/cli/code_drop.c), the bounces as a struct array */
static mxArray *drop_struct(const impactfit_code_drop_answer *a) {
  const impactfit_drop_stats *S = &a->stats;
  const impactfit_drop_result *r = &S->exact;
  static const char *const on[] = {"forward", "release", "mean"};
  int ok = a->reachable;
  mxArray *d = mxCreateStructMatrix(1, 1, 0, NULL);
  put_str(d, "code", a->model->code->name);
  put_str(d, "version", a->version);
  put_str(d, "model", a->model->model);
  put_str(d, "integrator", a->integrator ? a->integrator->name : "");
  put_num(d, "dt", a->dt);
  put_num(d, "gravity", a->gravity);
  put_num(d, "mass", a->mass);
  put_num(d, "height", a->params.height);
  put_num(d, "bounces", a->params.bounces);
  put_num(d, "peak", a->params.min_height);
  put_num(d, "t_max", a->params.t_max);
  put_str(d, "reading", a->params.reading == IMPACTFIT_DROP_SPEEDS ? "speeds" : "heights");
  put_num(d, "releases", a->releases);
  put_num(d, "e_asked", a->e_asked);
  put_str(d, "solved_on", on[a->on >= 0 && a->on <= 2 ? a->on : 0]);
  put_num(d, "reachable", a->reachable);
  put_num(d, "jump", a->jump);
  put_str(d, "param", a->model->param);
  put_num(d, "value", a->value);
  put_str(d, "input", a->input);
  put_num(d, "e_fit", ok ? r->e_fit : NAN);
  put_num(d, "e_heights", ok ? r->e_heights : NAN);
  put_num(d, "e_speeds", ok ? r->e_speeds : NAN);
  put_num(d, "h0_fit", ok ? r->h0_fit : NAN);
  put_num(d, "r2", ok ? r->r2 : NAN);
  put_num(d, "counted", ok ? r->n : 0);
  put_num(d, "determined", ok ? S->determined : 0);
  put_str(d, "ends", ok ? impactfit_drop_end_name(r->end) : "");
  put_num(d, "low_apex", ok && r->end == IMPACTFIT_DROP_LOW ? r->low_apex : NAN);
  put_num(d, "steps", ok ? (double)r->steps : 0);
  put_num(d, "e_mean", ok ? S->e_mean : NAN);
  put_num(d, "e_sd", ok ? S->e_sd : NAN);
  mxSetFieldByNumber(d, 0, mxAddField(d, "e_range"), range_of(ok ? S->e_min : NAN, ok ? S->e_max : NAN));
  put_num(d, "n_min", ok ? S->n_min : 0);
  put_num(d, "n_max", ok ? S->n_max : 0);
  static const char *const bf[] = {"n",     "apex",       "t_apex",        "v_in",      "v_out",
                                   "phase", "first_step", "contact_steps", "determined"};
  int n = ok ? r->n : 0;
  mxArray *b = mxCreateStructMatrix(1, (mwSize)n, 9, (const char **)bf);
  for (int i = 0; i < n; i++) {
    const impactfit_drop_bounce *x = &r->b[i];
    const double row[9] = {i + 1,
                           x->apex,
                           x->t_apex,
                           x->v_in,
                           x->v_out,
                           x->phase,
                           (double)x->first_step,
                           (double)x->contact_steps,
                           i < S->determined};
    for (int k = 0; k < 9; k++)
      mxSetFieldByNumber(b, (mwIndex)i, k, mxCreateDoubleScalar(row[k]));
  }
  mxSetFieldByNumber(d, 0, mxAddField(d, "bounce"), b);
  put_str(d, "note", a->note);
  put_str(d, "assumes", a->assumes);
  put_num(d, "run_here", a->run_here);
  put_str(d, "source", a->model->source);
  return d;
}

/* impactfit_drop: one drop test (scalars only) */
static mxArray *drop_call(args *A, kopts *o) {
  double x[CODE_N_IN];
  for (int j = 0; j < CODE_N_IN; j++) {
    if (A->in[j] && (!mxIsDouble(A->in[j]) || mxIsComplex(A->in[j]) || mxGetNumberOfElements(A->in[j]) != 1))
      mex_input_error("%s: a drop test takes real scalars", A->given_as[j]);
    x[j] = A->in[j] ? mxGetScalar(A->in[j]) : NAN;
  }
  if (!(A->drop.min_height < A->drop.height))
    mex_input_error("peak: the apex threshold must be below the release height (got %.17g >= %.17g)",
                    A->drop.min_height, A->drop.height);
  impactfit_code_request q;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS + CODE_SLOTS];
  code_request(o, x, &q, set);
  if (q.bodies.pair < 0)
    q.bodies.pair = 0; /* a sphere on the plane */
  impactfit_code_drop_answer a;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_code_drop(&q, &A->drop, A->releases, &a, &err);
  if (st) {
    impactfit_code_drop_free(&a);
    mexErrMsgIdAndTxt(impactfit_status_is_input_error(st) ? "impactfit:invalidInput" : "impactfit:numericalFailure",
                      "%s (%s)", err.message, impactfit_status_name(st));
  }
  mxArray *d = drop_struct(&a);
  impactfit_code_drop_free(&a);
  return d;
}
#endif

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  if (nrhs < 1 || !mxIsChar(prhs[0]))
    mex_input_error("the first argument is the code's name ('lammps', 'mujoco', ...) (help %s)", mexFunctionName());
  if (nlhs > 1)
    mex_input_error("one output (a struct)");
  kopts o;
  kopts_default(&o);
  args A;
  read_args(nrhs, prhs, &A, &o);
  read_model(&A, &o);
#ifdef IMPACTFIT_MEX_DROP
  plhs[0] = drop_call(&A, &o);
  return;
#endif
  size_t count = 1;
  int first = -1;
  for (int j = 0; j < CODE_N_IN; j++) {
    if (!A.in[j])
      continue;
    if (!mxIsDouble(A.in[j]) || mxIsComplex(A.in[j]) || mxIsSparse(A.in[j]))
      mex_input_error("%s: expected real double values", A.given_as[j]);
    size_t nel = mxGetNumberOfElements(A.in[j]);
    if (nel != 1 && first >= 0 && nel != count)
      mex_input_error("%s has %zu elements, %s has %zu: non-scalar inputs must have the same number of elements",
                      A.given_as[j], nel, A.given_as[first], count);
    if (nel != 1 && first < 0) {
      first = j;
      count = nel;
    }
  }
  mxArray *filler = mxCreateDoubleScalar(NAN);
  const mxArray *in[CODE_N_IN];
  for (int j = 0; j < CODE_N_IN; j++)
    in[j] = A.in[j] ? A.in[j] : filler;
  if (count != 1 || first >= 0) {
    if (A.r_range)
      mex_input_error("radius_range: scalar calls only (the spread is one struct per answer)");
    mxArray *out[CODE_N_OUT];
    mex_kernel("code", CODE_N_IN, in, NULL, 0, &o, out);
    mxDestroyArray(filler);
    plhs[0] = array_struct(out, A.forward);
    return;
  }
  /* a scalar call: the whole answer */
  double x[CODE_N_IN];
  for (int j = 0; j < CODE_N_IN; j++)
    x[j] = mxGetScalar(in[j]);
  mxDestroyArray(filler);
  impactfit_code_request q;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS + CODE_SLOTS];
  code_request(&o, x, &q, set);
  q.suggest = 1; /* out of reach: another model that reaches e (the CLI's alternative) */
  impactfit_code_answer a;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_code_solve(&q, &a, &err);
  if (st) {
    impactfit_code_answer_free(&a);
    mexErrMsgIdAndTxt(impactfit_status_is_input_error(st) ? "impactfit:invalidInput" : "impactfit:numericalFailure",
                      "%s (%s)", err.message, impactfit_status_name(st));
  }
  plhs[0] = answer_struct(&a);
  impactfit_code_answer_free(&a);
}
