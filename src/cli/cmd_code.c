/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit dem and impactfit engine: one command over the code registry (include/impactfit/codes.h), the
 * exact input for a DEM code or an engine, in continuous time or at the user's time step. The two names
 * are the same command (only their help texts and the name in messages differ). One
 * pass over the options; the model's settings (--solref, --E, ...) are the options the table does not know,
 * matched to the model's inputs once it is found. --e (or --value) and --v take a value, a list or a range:
 * the library solves the points (impactfit_code_grid), printed as they come (code_print.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "code_cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"

enum { CODE_MAX_POINTS = 1000000, CODE_MAX_SETTINGS = 64 };

/* What the options give. */
typedef struct code_opts {
  const char *code, *version, *model, *damping, *option, *integrator, *limit, *vrange, *rrange, *r2range;
  const char *s_radius, *s_r1, *s_r2; /* the radii: one number each (a range is --radius-range) */
  const char *s_e, *s_v, *s_value;
  const char *tangential; /* the DEM code's own tangential clause (request.tangential) */
  double e11, e22;        /* two materials: the 1-1 and 2-2 type pairs' e */
  double dt, gravity, density, rho1, rho2, mass, m1, m2, meff, reff;
  int pair, wall, plane, json, csv, list, brief, points, help;
  code_drop_opts drop; /* --drop H: a drop test (code_drop.c) */
} code_opts;

/* "V1,V2,..." into a setting; spaces separate values too, as the code itself writes them (MuJoCo's solref="0.02 1":
 * --solref "0.02 1" is --solref 0.02,1) */
static int parse_setting(const char *what, const char *name, const char *text, impactfit_code_setting *s) {
  s->name = name;
  s->body = 0;
  s->count = 0;
  const char *p = text + strspn(text, " \t");
  for (;;) {
    if (s->count == 2 * IMPACTFIT_CODE_MAX_VALUES)
      return cli_input_error("%s: at most %d values (got '%s')", what, 2 * IMPACTFIT_CODE_MAX_VALUES, text);
    size_t len = strcspn(p, ", \t");
    char item[64];
    if (len == 0 || len >= sizeof item)
      return cli_input_error("%s: expected numbers separated by commas or spaces (got '%s')", what, text);
    memcpy(item, p, len);
    item[len] = 0;
    /* inf: where the setting's default is infinite (--list prints it so; the library refuses it elsewhere) */
    const char *w = item + (item[0] == '+' || item[0] == '-');
    if (strcasecmp(w, "inf") == 0 || strcasecmp(w, "infinity") == 0)
      s->values[s->count] = item[0] == '-' ? -INFINITY : INFINITY;
    else {
      int rc = cli_parse_double(what, item, &s->values[s->count]);
      if (rc)
        return rc;
    }
    s->count++;
    p += len;
    p += strspn(p, " \t");
    if (*p == ',') {
      p++;
      p += strspn(p, " \t");
      if (!*p)
        return cli_input_error("%s: expected numbers separated by commas or spaces (got '%s')", what, text);
    }
    if (!*p) {
      cli_warn_decimal_comma(what, text, (size_t)s->count);
      return 0;
    }
  }
}

/* "its settings: a, b" of the model, for messages */
static void settings_names(const impactfit_code_model *md, impactfit_text *t) {
  for (int i = 0; i < md->n_inputs; i++)
    impactfit_text_appendf(t, "%s%s", i ? ", " : "", md->inputs[i].name);
  if (!md->n_inputs)
    impactfit_text_appendf(t, "none");
}

/* an option the table does not know: a setting of the model (--NAME V,... or --set NAME=V,...) */
static int rest_setting(const char *what, const impactfit_code_model *md, const cli_rest *r, const cli_spec *opts,
                        size_t nopts, impactfit_code_setting *s) {
  char name[96], label[112];
  const char *value = r->value;
  int set = r->len == 3 && strncmp(r->name, "set", 3) == 0;
  size_t len = r->len;
  const char *nm = r->name;
  if (set) {
    const char *eq = strchr(r->value, '=');
    if (!eq)
      return cli_input_error("%s: --set takes NAME=V1,V2,... (got '%s')", what, r->value);
    nm = r->value;
    len = (size_t)(eq - r->value);
    value = eq + 1;
  }
  snprintf(name, sizeof name, "%.*s", (int)(len < 95 ? len : 95), nm);
  snprintf(label, sizeof label, "--%s", name);
  const impactfit_code_input *in = impactfit_code_input_find(md, name);
  if (!in) {
    const char *names[IMPACTFIT_CODE_MAX_INPUTS];
    for (int i = 0; i < md->n_inputs; i++)
      names[i] = md->inputs[i].name;
    /* the closest of the model's settings, else of the command's options (not the same name in another case:
     * --E is the material of other models, not --e) */
    const char *close = cli_suggest(name, len, names, (size_t)md->n_inputs);
    if (!close && !set && (close = cli_suggest_option(name, len, opts, nopts, NULL, 0)) && strcasecmp(close, name) == 0)
      close = NULL;
    impactfit_text list = IMPACTFIT_TEXT_INIT;
    settings_names(md, &list);
    int rc = cli_input_error("%s: %s %s has no setting '%s' (its settings: %s)%s%s%s", what, md->code->name, md->model,
                             name, impactfit_text_str(&list), close ? "; did you mean '--" : "", close ? close : "",
                             close ? "'?" : "");
    impactfit_text_free(&list);
    return rc;
  }
  return parse_setting(label, in->name, value, s);
}

/* ---- unit slips (warnings, not errors: the value may be meant) ---- */

static void warn_slip(const char *fmt, double x, const char *slip) {
  fprintf(stderr, "impactfit: warning: ");
  fprintf(stderr, fmt, x);
  fprintf(stderr, ": %s\n", slip);
}

/* values a user almost surely did not mean (docs/SCENE.md "Unit and locale slips"), each with the likely slip */
static void warn_slips(const impactfit_code_request *q) {
  const impactfit_code_bodies *b = &q->bodies;
  const double radii[] = {b->r1, b->r2, b->reff}, rhos[] = {b->rho1, b->rho2};
  static const char *const rname[] = {"--radius", "--r2", "--reff"}, *const dname[] = {"--density", "--rho2"};
  char f[64];
  for (int i = 0; i < 3; i++)
    if (radii[i] > 1.0) {
      snprintf(f, sizeof f, "%s %%g m is more than 1 m", rname[i]);
      warn_slip(f, radii[i], "millimetres typed as metres? (5 mm is 0.005)");
    }
  for (int i = 0; i < 2; i++)
    if (rhos[i] > 0.0 && rhos[i] < 100.0) {
      snprintf(f, sizeof f, "%s %%g kg/m^3 is below 100 kg/m^3", dname[i]);
      warn_slip(f, rhos[i], "g/cm^3 typed as kg/m^3? (glass is 2500 kg/m^3, 2.5 g/cm^3)");
    }
  const impactfit_code_model *md = q->model;
  for (size_t k = 0; k < q->n_settings; k++) {
    const impactfit_code_setting *s = &q->settings[k];
    const impactfit_code_input *in = impactfit_code_input_find(md, s->name);
    if (!in)
      continue;
    int modulus = strcmp(in->name, "E") == 0 || (in->alias && strcmp(in->alias, "E") == 0);
    for (int j = 0; modulus && j < s->count; j++)
      if (s->values[j] > 0.0 && s->values[j] < 1e3) {
        snprintf(f, sizeof f, "--%s %%g Pa is below 1e3 Pa", s->name);
        warn_slip(f, s->values[j], "GPa or MPa typed as Pa? (70 GPa is 70e9)");
      }
    /* MuJoCo's direct solref is per unit mass: a stiffness m w^2 in N/m typed where w^2 is meant makes the
     * contact last pi/sqrt(k) */
    if (strcmp(md->code->name, "mujoco") == 0 && md->param_scale < 0.0 && strcmp(in->name, "solref") == 0 &&
        s->count >= 1 && s->values[0] < 0.0 && 3.141592653589793 / sqrt(-s->values[0]) > 0.1)
      warn_slip("--solref: the direct stiffness gives a contact of pi/sqrt(k) = %.3g s",
                3.141592653589793 / sqrt(-s->values[0]),
                "the direct form is per unit mass (stiffness/m, damping/m): a stiffness in N/m must be divided by the "
                "mass");
  }
}

/* ---- the request ---- */

static int check_aliases(const char *what, const cli_spec *opts, size_t n) {
  static const char *const pairs[][2] = {{"radius", "r1"},      {"density", "rho1"}, {"mass", "m1"},
                                         {"damping", "option"}, {"wall", "plane"},   {"pair", "wall"},
                                         {"pair", "plane"}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if (cli_given(opts, n, pairs[i][0]) && cli_given(opts, n, pairs[i][1]))
      return cli_input_error("%s: give --%s or --%s, not both", what, pairs[i][0], pairs[i][1]);
  return 0;
}

static double either(double a, double b) { return isnan(a) ? b : a; }

/* --v-range, --radius-range: "A,B" with 0 < A <= B into lo, hi (nothing when not given) */
static int parse_range(const char *what, const char *name, const char *things, const char *unit, const char *text,
                       double *lo, double *hi) {
  if (!text)
    return 0;
  double *vals = NULL;
  size_t n;
  int rc = cli_parse_grid(name, text, &vals, &n);
  if (rc)
    return rc;
  if (n != 2)
    rc = cli_input_error("%s: %s takes two %s A,B in %s (got %zu values)", what, name, things, unit, n);
  else if (!(vals[0] > 0.0 && vals[0] <= vals[1]))
    rc = cli_input_error("%s: %s A,B needs 0 < A <= B (%s), got %s", what, name, unit, text);
  else {
    *lo = vals[0];
    *hi = vals[1];
  }
  free(vals);
  return rc;
}

/* --radius, --r1, --r2: one number (m); "A:B" is a size range, which is --radius-range A,B */
static int parse_radius(const char *what, const char *name, const char *text, double *out) {
  if (!text)
    return 0;
  const char *colon = strchr(text, ':');
  if (colon && !strchr(colon + 1, ':'))
    return cli_input_error("%s: --%s takes one radius (m), the design size the value is solved at; for a size range "
                           "give --radius-range A,B as well (e.g. --radius 0.005 --radius-range 0.002,0.01, got '%s')",
                           what, name, text);
  return cli_parse_double(name[1] == '2' ? "--r2" : name[1] == '1' ? "--r1" : "--radius", text, out);
}

static int make_request(const char *what, const code_opts *o, const cli_spec *opts, size_t nopts,
                        impactfit_code_request *q) {
  int rc = check_aliases(what, opts, nopts);
  if (rc)
    return rc;
  impactfit_code_bodies *b = &q->bodies;
  if ((o->wall || o->plane) && !(!o->s_r2 && isnan(o->rho2) && isnan(o->m2)))
    return cli_input_error("%s: --%s: the %s is not a body; --r2, --rho2 and --m2 do not apply", what,
                           o->wall ? "wall" : "plane", o->wall ? "wall" : "plane");
  b->pair = o->pair ? 1 : (o->wall || o->plane) ? 0 : -1;
  double radius = NAN, r1 = NAN, r2 = NAN;
  if ((rc = parse_radius(what, "radius", o->s_radius, &radius)) || (rc = parse_radius(what, "r1", o->s_r1, &r1)) ||
      (rc = parse_radius(what, "r2", o->s_r2, &r2)))
    return rc;
  b->r1 = either(radius, r1);
  b->rho1 = either(o->density, o->rho1);
  b->m1 = either(o->mass, o->m1);
  b->r2 = r2;
  b->rho2 = o->rho2;
  b->m2 = o->m2;
  b->meff = o->meff;
  b->reff = o->reff;
  q->version = o->version;
  q->tangential = o->tangential;
  q->e11 = o->e11;
  q->e22 = o->e22;
  q->integrator = o->integrator;
  q->dt = o->dt;
  q->gravity = o->gravity;
  if (o->limit) {
    static const char *const onoff[] = {"off", "on", "no", "yes", "0", "1"};
    size_t i = 0, n;
    if (cli_parse_names(o->limit, onoff, 6, 0, 1, 1, &i, &n))
      return cli_input_error("%s: --limit takes on or off (got '%s')", what, o->limit);
    q->clamp = (int)(i % 2);
  }
  if (cli_given(opts, nopts, "points") && !o->vrange && !o->rrange)
    return cli_input_error("%s: --points samples the ranges: give --v-range A,B or --radius-range A,B", what);
  if (o->points < 0 || o->points > 10000)
    return cli_input_error("%s: --points must be in [1, 10000] (got %d)", what, o->points);
  if (o->rrange && (o->points == 1 || o->points > 64))
    return cli_input_error("%s: --points with --radius-range is the points per axis of the box: 2 to 64 (got %d)", what,
                           o->points);
  q->points = (size_t)o->points;
  if (o->r2range && !o->rrange)
    return cli_input_error("%s: --r2-range is body 2's own size range: give --radius-range A,B for body 1 as well "
                           "(A = B holds body 1 at one size)",
                           what);
  if (o->r2range && (o->wall || o->plane))
    return cli_input_error("%s: --r2-range: the %s is not a body", what, o->wall ? "wall" : "plane");
  if (o->rrange && (!isnan(o->meff) || !isnan(o->reff)))
    return cli_input_error("%s: --radius-range varies the spheres' sizes: give --radius and --density (or --mass), "
                           "not --meff and --reff",
                           what);
  if ((rc = parse_range(what, "--v-range", "speeds", "m/s", o->vrange, &q->v_min, &q->v_max)))
    return rc;
  if ((rc = parse_range(what, "--r2-range", "radii", "m", o->r2range, &q->r2_min, &q->r2_max)))
    return rc;
  return parse_range(what, "--radius-range", "radii", "m", o->rrange, &q->r_min, &q->r_max);
}

/* --e (or --value) and --v: values, lists or ranges, every one checked before any output */
static int parse_points(const char *what, const code_opts *o, double **x, size_t *nx, double **v, size_t *nv) {
  if (o->s_value && o->s_e)
    return cli_input_error("%s: give --e (the restitution you want) or --value (what you type), not both", what);
  if (!o->s_v)
    return cli_input_error("%s: --v is required (the impact speed, m/s)", what);
  const char *colon = strchr(o->s_v, ':');
  if (colon && !strchr(colon + 1, ':'))
    return cli_input_error("--v: '%s' is not a speed: --v takes the design speed (a list or start:stop:count solves "
                           "each point); for the e one value gives over a speed range give --v-range A,B as well "
                           "(e.g. --v 1 --v-range 0.1,3)",
                           o->s_v);
  int rc = 0;
  if (o->s_e || o->s_value)
    rc = cli_parse_grid(o->s_e ? "--e" : "--value", o->s_e ? o->s_e : o->s_value, x, nx);
  if (!rc)
    rc = cli_parse_grid("--v", o->s_v, v, nv);
  if (!rc && (double)*nx * (double)*nv > CODE_MAX_POINTS)
    rc = cli_input_error("%s: the grid has %.0f points (at most 1e6: each point is solved in turn)", what,
                         (double)*nx * (double)*nv);
  for (size_t i = 0; !rc && o->s_e && i < *nx; i++)
    if (x[0][i] == 1.0) /* copt gives c = 0 for e = 1; a code's answer is a setting at its step (issue 38) */
      rc = cli_input_error("--e: e = 1 is the undamped contact, not a value to solve for here: give the setting "
                           "you would type with --value (forward) to see what the code gives it (copt --e 1 prints "
                           "c = 0, the power law's own)");
    else if (!(x[0][i] > 0.0 && x[0][i] < 1.0))
      rc = cli_input_error("--e: the restitution must be in (0, 1), got %.17g", x[0][i]);
  for (size_t i = 0; !rc && i < *nv; i++)
    if (!(v[0][i] > 0.0))
      rc = cli_input_error("--v: the impact speed must be > 0 (m/s), got %.17g", v[0][i]);
  return rc;
}

static int run_points(const char *what, const code_opts *o, impactfit_code_request *q) {
  if (!o->s_e && !o->s_value && !q->model->param_input)
    return cli_input_error("%s: --e is required (the restitution you want, 0 < e < 1), or --value to see what a typed "
                           "value gives",
                           what);
  double *x = NULL, *v = NULL, nan_value = NAN;
  size_t nx = 1, nv = 0;
  int rc = parse_points(what, o, &x, &nx, &v, &nv);
  int forward = !o->s_e;
  const double *xs = x ? x : &nan_value; /* neither --e nor --value: the settings' value */
  if (!rc) {
    code_printer p = {.what = what,
                      .md = q->model,
                      .json = o->json,
                      .csv = o->csv,
                      .table = !o->json && nx * nv > 1,
                      .forward = forward,
                      .single = nx * nv == 1};
    q->suggest = p.single && !o->csv;
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_code_grid(q, xs, nx, forward, v, nv, code_print_point, &p, &err);
    if (p.failed && st == IMPACTFIT_EINTR) /* an invalid point stopped the grid (its message printed) */
      rc = CLI_INPUT;
    else
      rc = ferror(stdout) ? cli_input_error("%s: cannot print the rows", what)
           : st           ? cli_status_error(st, &err, what)
           : p.failed     ? CLI_NUMERIC
                          : CLI_OK;
  }
  free(x);
  free(v);
  return rc;
}

/* --drop H: one point, no speed (the drop gives each impact its own), no CSV */
static int run_drop(const char *what, const code_opts *o, const cli_spec *opts, size_t nopts,
                    impactfit_code_request *q) {
  static const char *const single[] = {"v", "v-range", "radius-range", "r2-range", "points", "csv"};
  for (size_t i = 0; i < sizeof single / sizeof single[0]; i++)
    if (cli_given(opts, nopts, single[i]))
      return cli_input_error("%s: --drop: --%s does not apply (the drop test gives each impact its own speed; "
                             "text or --json)",
                             what, single[i]);
  if ((o->s_e && strpbrk(o->s_e, ",:")) || (o->s_value && strpbrk(o->s_value, ",:")))
    return cli_input_error("%s: --drop takes one --e or --value (not a list or range)", what);
  return code_run_drop(what, &o->drop, o->s_e, o->s_value, o->json, q);
}

/* The model: the code, version, model and option given. */
static int find_model(const char *what, const code_opts *o, const impactfit_code_model **md, const char **integrator) {
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_code_model_find(o->code, o->version, o->model, o->damping ? o->damping : o->option, md, &err);
  if (st)
    return cli_status_error(st, &err, what);
  *integrator = o->integrator;
  return 0;
}

static int cmd_code(int argc, char **argv, const char *what, const char *help_text) {
  code_opts o = {.dt = NAN,
                 .gravity = 0.0,
                 .density = NAN,
                 .rho1 = NAN,
                 .rho2 = NAN,
                 .mass = NAN,
                 .m1 = NAN,
                 .m2 = NAN,
                 .meff = NAN,
                 .reff = NAN,
                 .e11 = NAN,
                 .e22 = NAN,
                 .points = 0,
                 .drop = {.height = NAN, .bounces = 15, .releases = 16}};
  cli_spec opts[] = {
      CLI_STR("code", &o.code),
      CLI_STR("version", &o.version),
      CLI_STR("model", &o.model),
      CLI_STR("damping", &o.damping),
      CLI_STR("option", &o.option),
      CLI_STR("integrator", &o.integrator),
      CLI_DBL("dt", &o.dt, 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--dt: the time step must be > 0 (s), got %.17g"),
      CLI_DBL("gravity", &o.gravity, 0.0, NAN, CLI_IF_SEEN,
              "--gravity: the acceleration into the contact must be >= 0 (m/s^2), got %.17g"),
      CLI_STR("e", &o.s_e),
      CLI_STR("value", &o.s_value),
      CLI_STR("v", &o.s_v),
      CLI_STR("v-range", &o.vrange),
      CLI_ANYINT("points", &o.points),
      CLI_STR("limit", &o.limit),
      CLI_STR("tangential", &o.tangential),
      CLI_DBL("e11", &o.e11, 0.0, 1.0, CLI_LO_OPEN | CLI_HI_OPEN | CLI_IF_SEEN,
              "--e11: the 1-1 pair's e must be in (0, 1), got %.17g"),
      CLI_DBL("e22", &o.e22, 0.0, 1.0, CLI_LO_OPEN | CLI_HI_OPEN | CLI_IF_SEEN,
              "--e22: the 2-2 pair's e must be in (0, 1), got %.17g"),
      CLI_STR("radius", &o.s_radius),
      CLI_STR("r1", &o.s_r1),
      CLI_STR("r2", &o.s_r2),
      CLI_STR("radius-range", &o.rrange),
      CLI_STR("r2-range", &o.r2range),
      CLI_NUM("density", &o.density),
      CLI_NUM("rho1", &o.rho1),
      CLI_NUM("rho2", &o.rho2),
      CLI_NUM("mass", &o.mass),
      CLI_NUM("m1", &o.m1),
      CLI_NUM("m2", &o.m2),
      CLI_NUM("meff", &o.meff),
      CLI_NUM("reff", &o.reff),
      CLI_FLAG("pair", &o.pair),
      CLI_FLAG("wall", &o.wall),
      CLI_FLAG("plane", &o.plane),
      CLI_FLAG("json", &o.json),
      CLI_FLAG("csv", &o.csv),
      CLI_FLAG("list", &o.list),
      CLI_FLAG("brief", &o.brief),
      CLI_NUM("drop", &o.drop.height),
      CLI_ANYINT("bounces", &o.drop.bounces),
      CLI_NUM("peak", &o.drop.peak),
      CLI_NUM("t-max", &o.drop.t_max),
      CLI_STR("reading", &o.drop.reading),
      CLI_ANYINT("releases", &o.drop.releases),
  };
  const size_t nopts = CLI_COUNT(opts);
  cli_rest rest[CODE_MAX_SETTINGS];
  size_t nrest = 0;
  int rc = cli_options_rest(argc, argv, opts, nopts, help_text, &o.help, rest, CODE_MAX_SETTINGS, &nrest);
  if (rc || o.help)
    return rc;
  if ((rc = cli_json_csv(what, o.json, o.csv)))
    return rc;
  impactfit_error err;
  impactfit_error_clear(&err);
  const impactfit_code *code = NULL;
  if (o.code && impactfit_code_lookup(o.code, &code, &err))
    return cli_status_error(IMPACTFIT_EINVAL, &err, what);
  if (o.brief && !o.list)
    return cli_input_error("%s: --brief shortens --list: give --list --brief", what);
  if (o.list) {
    if (o.csv || nrest)
      return cli_input_error("%s: --list prints text or --json (and takes no settings)", what);
    code_print_list(code, o.json, o.brief);
    return CLI_OK;
  }
  if (!code) {
    impactfit_text names = IMPACTFIT_TEXT_INIT; /* the codes of src/codes/codes.def */
    for (size_t i = 0; i < impactfit_code_count(); i++)
      impactfit_text_appendf(&names, "%s%s", i ? ", " : "", impactfit_code_at(i)->name);
    rc = cli_input_error("%s: --code is required (%s; --list)", what, impactfit_text_str(&names));
    impactfit_text_free(&names);
    return rc;
  }
  impactfit_code_request q = impactfit_code_request_default();
  if ((rc = find_model(what, &o, &q.model, &q.integrator)))
    return rc;
  impactfit_code_setting settings[CODE_MAX_SETTINGS];
  for (size_t i = 0; i < nrest; i++)
    if ((rc = rest_setting(what, q.model, &rest[i], opts, nopts, &settings[i])))
      return rc;
  q.settings = settings;
  q.n_settings = nrest;
  const char *integrator = q.integrator;
  if ((rc = make_request(what, &o, opts, nopts, &q)))
    return rc;
  q.integrator = integrator;
  warn_slips(&q);
  if (cli_given(opts, nopts, "drop"))
    return run_drop(what, &o, opts, nopts, &q);
  static const char *const drop_only[] = {"bounces", "peak", "t-max", "reading", "releases"};
  for (size_t i = 0; i < sizeof drop_only / sizeof drop_only[0]; i++)
    if (cli_given(opts, nopts, drop_only[i]))
      return cli_input_error("%s: --%s belongs to a drop test: give --drop HEIGHT", what, drop_only[i]);
  return run_points(what, &o, &q);
}

int impactfit_cmd_dem(int argc, char **argv) { return cmd_code(argc, argv, "dem", cli_help_dem); }

int impactfit_cmd_engine(int argc, char **argv) { return cmd_code(argc, argv, "engine", cli_help_engine); }
