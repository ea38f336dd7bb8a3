/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit dem: the exact input for a DEM code's contact model (include/impactfit/demcodes.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_dem; /* docs/cli/dem.txt */

#define MD(f) CLI_FIELD(impactfit_dem_model, f)
static const cli_field model_fields[] = {/* the registry entry in --list --json: 8, 3 computed, then 4 */
                                         MD(code), MD(versions), MD(model),   MD(damping),  MD(param), MD(param_unit),
                                         MD(n),    MD(m),        MD(takes_e), MD(run_here), MD(law),   MD(source)};

static void print_list(const char *code, int json) {
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *md = impactfit_dem_model_at(i);
    if (code && strcmp(code, md->code))
      continue;
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      cli_json_fields(&j, md, model_fields, 8);
      cli_json_str(&j, "clamp_default", md->clamp_default ? "C" : "A");
      cli_json_str(&j, "clamp_switch", md->clamp_switch ? md->clamp_switch : "");
      cli_json_str(&j, "kn_unit", impactfit_dem_kn_unit(md) ? impactfit_dem_kn_unit(md) : "");
      cli_json_fields(&j, md, model_fields + 8, CLI_COUNT(model_fields) - 8);
      cli_json_end(&j);
    } else {
      printf("%s %s%s%s  [%s]%s\n  you type: %s (%s); n = %g, m = %g; end: %s%s%s\n  %s\n  source: %s\n\n", md->code,
             md->model, *md->damping ? " --damping " : "", md->damping, md->versions,
             md->run_here ? "" : "  (formula only, not run here)", md->param, md->param_unit, md->n, md->m,
             md->clamp_default ? "force clamped at zero (C)" : "tensile until d = 0 (A)",
             md->clamp_switch ? "; switch: " : "", md->clamp_switch ? md->clamp_switch : "", md->law, md->source);
    }
  }
}

/* The JSON objects of an answer, read from the model (M), the request (Q), the answer (A), the
 * forward answer (F) and the strings of the command (S). The alternative model's object is the
 * ANSWER_N members from ANSWER_AT, then "end" (END_AT). */
typedef struct strings {
  const char *version, *end;
} strings;
enum { M, Q, A, F, S };
enum { ANSWER_AT = 5, ANSWER_N = 8, END_AT = 17 };
#define OF_M(f) CLI_FIELD_OF(M, #f, impactfit_dem_model, f)
#define OF_Q(key, f) CLI_FIELD_OF(Q, key, impactfit_dem_request, f)
#define OF_A(key, f) CLI_FIELD_OF(A, key, impactfit_dem_answer, f)
#define OF_F(key, f) CLI_FIELD_OF(F, key, impactfit_dem_forward_answer, f)
#define OF_A_RANGE(key, f) CLI_FIELD_RANGE_OF(A, key, impactfit_dem_answer, f)
#define OF_F_RANGE(key, f) CLI_FIELD_RANGE_OF(F, key, impactfit_dem_forward_answer, f)
#define OF_S(f) CLI_FIELD_OF(S, #f, strings, f)
static const cli_field answer_fields[] = {
    OF_M(code), OF_S(version), OF_M(versions), OF_Q("e_asked", e), OF_Q("v", v),
    /* ANSWER_AT = 5: the answer of a model, also the alternative's */
    OF_M(model), OF_M(damping), OF_M(param), OF_M(param_unit), OF_A("value", value), OF_A("input", input),
    OF_A_RANGE("e_range", e_min), OF_A("note", note),
    /* what typing e gives, and the contact */
    OF_A("e_naive", e_naive), OF_A_RANGE("e_naive_range", e_naive_min), OF_A("reachable", reachable),
    OF_A("speed_dependent", speed_dependent), OF_S(end), OF_M(n), OF_M(m), OF_A("K", K), OF_A("R", R), OF_A("M", M),
    OF_A("C", C), OF_A("zeta", zeta), OF_M(run_here), OF_M(source)};
static const cli_field forward_fields[] = {/* --value: the forward problem */
                                           OF_M(code), OF_S(version), OF_M(model), OF_M(damping), OF_M(param),
                                           /* the typed value and what it gives */
                                           OF_F("value", value), OF_F("input", input), OF_Q("v", v), OF_F("e_real", e),
                                           OF_F_RANGE("e_range", e_min), OF_S(end)};

static const char *end_text(const impactfit_transition *tr) {
  return tr == impactfit_transition_C ? "force clamped at zero (C)" : "tensile until d = 0 (A)";
}

/* --value: the real e of a typed value over the speeds (the forward problem) */
static int forward_mode(const impactfit_dem_model *md, const char *version, const impactfit_dem_request *q,
                        double value, int json) {
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_dem_forward_answer fa;
  int st = impactfit_dem_forward_request(q, value, &fa, &err);
  if (st)
    return cli_status_error(st, &err, "dem");
  if (json) {
    strings str = {version, fa.transition->name};
    const void *objs[] = {md, q, NULL, &fa, &str};
    cli_json_object_of(stdout, objs, forward_fields, CLI_COUNT(forward_fields));
  } else {
    printf("# %s %s, model %s%s%s, contact end: %s\n%s", md->code, version, md->model, *md->damping ? " damping " : "",
           md->damping, end_text(fa.transition), fa.input);
    printf("# typing %s = %.12g gives e = %.10f at v = %.6g m/s\n", md->param, value, fa.e, q->v);
    if (fa.v_min < fa.v_max)
      printf("#   over v in [%.6g, %.6g] m/s: e from %.10f to %.10f\n", fa.v_min, fa.v_max, fa.e_min, fa.e_max);
  }
  return CLI_OK;
}

/* The bodies: --mass/--reff, or radii with densities or masses; which options go together. */
static int given(double a, double b, double c) { return !isnan(a) || !isnan(b) || !isnan(c); }

static int check_bodies(const impactfit_dem_bodies *b) {
  int direct = given(b->mass, b->reff, NAN);
  if (direct && (isnan(b->mass) || isnan(b->reff)))
    return cli_input_error("dem: --mass and --reff go together (the effective mass, kg, and radius, m)");
  if (direct && (given(b->radius, b->r1, b->r2) || given(b->density, b->rho1, b->rho2) || given(b->m1, b->m2, NAN)))
    return cli_input_error("dem: give --mass and --reff, or the bodies (radii, densities or masses), not both");
  if (!isnan(b->radius) && given(b->r1, b->r2, NAN))
    return cli_input_error("dem: give --radius or --r1/--r2, not both");
  if (!isnan(b->density) && given(b->rho1, b->rho2, NAN))
    return cli_input_error("dem: give --density or --rho1/--rho2, not both");
  if (given(b->m1, b->m2, NAN) && given(b->density, b->rho1, b->rho2))
    return cli_input_error("dem: give densities or masses, not both");
  if (!direct && !given(b->m1, b->m2, NAN) && !given(b->density, b->rho1, NAN))
    return cli_input_error("dem: give the density (--density or --rho1/--rho2, kg/m^3) or the masses (--m1/--m2, "
                           "kg)");
  return 0;
}

/* What the model needs besides the bodies, then the rest of the request. */
static int make_request(const impactfit_dem_model *md, const impactfit_dem_bodies *b, const char *limit,
                        const char *vrange, int points, double value, impactfit_dem_request *q) {
  static const char *const onoff[] = {"off", "on", "no", "yes", "0", "1"};
  size_t i = 0, n;
  if (limit && cli_parse_names(limit, onoff, 6, 0, 0, 1, &i, &n))
    return cli_input_error("dem: --limit takes on or off (got '%s')", limit);
  q->model = md;
  q->clamp = limit ? (int)(i % 2) : -1;
  int rc = check_bodies(b);
  if (rc)
    return rc;
  impactfit_error err;
  int st = impactfit_dem_bodies_contact(b, &q->contact, &err);
  if (st)
    return cli_status_error(st, &err, "dem");
  const impactfit_dem_contact *c = &q->contact;
  impactfit_dem_stiffness_input from = impactfit_dem_model_stiffness_input(md);
  if (from == IMPACTFIT_DEM_FROM_MATERIAL && (isnan(c->E) || isnan(c->nu)))
    return cli_input_error("dem: %s %s takes the material: give --E (Pa) and --nu", md->code, md->model);
  if (from == IMPACTFIT_DEM_FROM_TC && isnan(c->tc))
    return cli_input_error("dem: yade viscel --damping en takes the contact time: give --tc (s)");
  if (from == IMPACTFIT_DEM_FROM_KN && isnan(c->kn))
    return cli_input_error("dem: %s %s takes the code's stiffness: give --kn (%s)", md->code, md->model, md->law);
  if (!isnan(value) && !isnan(q->e))
    return cli_input_error("dem: give --e (the restitution you want) or --value (what you type), not both");
  if (isnan(q->e) && isnan(value))
    return cli_input_error("dem: --e is required (the restitution you want, 0 < e < 1), or --value to see what a "
                           "typed value gives");
  if (isnan(q->v))
    return cli_input_error("dem: --v is required (the impact speed, m/s)");
  if (points < 1 || points > 10000)
    return cli_input_error("dem: --points must be in [1, 10000] (got %d)", points);
  q->range_points = (size_t)points;
  double *vals = NULL;
  if (!vrange)
    return 0;
  if ((rc = cli_parse_grid("--v-range", vrange, &vals, &n)))
    return rc;
  if (n != 2) {
    rc = cli_input_error("dem: --v-range takes two speeds A,B in m/s (got %zu values)", n);
  } else {
    q->v_min = vals[0];
    q->v_max = vals[1];
  }
  free(vals);
  return rc;
}

static void print_answer_json(const impactfit_dem_model *md, const char *version, const impactfit_dem_request *q,
                              const impactfit_dem_answer *a, const impactfit_dem_model *alt,
                              const impactfit_dem_answer *alt_a) {
  strings str = {version, a->transition->name};
  const void *objs[] = {md, q, a, NULL, &str};
  cli_json j;
  cli_json_begin(&j, stdout);
  cli_json_fields_of(&j, objs, answer_fields, CLI_COUNT(answer_fields));
  if (alt) {
    strings alt_str = {version, alt_a->transition->name};
    const void *alt_objs[] = {alt, q, alt_a, NULL, &alt_str};
    fprintf(stdout, ",\"alternative\":");
    cli_json ja;
    cli_json_begin(&ja, stdout);
    cli_json_fields_of(&ja, alt_objs, answer_fields + ANSWER_AT, ANSWER_N);
    cli_json_fields_of(&ja, alt_objs, answer_fields + END_AT, 1);
    fputs("}", stdout);
  }
  cli_json_end(&j);
}

static void print_answer_text(const impactfit_dem_model *md, const char *version, const impactfit_dem_request *q,
                              const impactfit_dem_answer *a, const impactfit_dem_model *alt,
                              const impactfit_dem_answer *alt_a) {
  printf("# %s %s (%s), model %s%s%s, contact end: %s\n", md->code, version, md->versions, md->model,
         *md->damping ? " damping " : "", md->damping, end_text(a->transition));
  printf("# force F = K d^%g + C d^%g d': K = %.10g N/m^%g, R = %.10g m, M = %.10g kg\n", md->n, md->m, a->K, md->n,
         a->R, a->M);
  if (!md->run_here)
    printf("# (known from the code's source only, not run here: %s)\n", md->source);
  if (md->takes_e)
    printf("# typing e = %.6g gives e = %.6f%s\n", q->e, a->e_naive,
           a->speed_dependent ? " at this speed" : " (at every speed)");
  if (a->speed_dependent && md->takes_e && q->v_min < q->v_max)
    printf("#   over v in [%.6g, %.6g] m/s: e from %.6f to %.6f\n", q->v_min, q->v_max, a->e_naive_min, a->e_naive_max);
  if (a->reachable) {
    printf("# to get e = %.6g type %s = %.12g:\n%s", q->e, md->param, a->value, a->input);
    printf("# %s\n", a->note);
  } else if (alt) {
    printf("# %s\n", a->note);
    printf("# %s %s%s%s%s reaches it: type %s = %.12g:\n%s# %s\n", alt->code, alt->model,
           *alt->damping ? " damping " : "", alt->damping,
           alt_a->transition == impactfit_transition_C ? " (force clamped)" : " (force not clamped)", alt->param,
           alt_a->value, alt_a->input, alt_a->note);
  } else {
    printf("# %s\n", a->note);
    printf("# no other model of %s with these inputs reaches it\n", md->code);
  }
}

int impactfit_cmd_dem(int argc, char **argv) {
  const char *code = NULL, *version = NULL, *model = NULL, *damping = NULL, *limit = NULL, *vrange = NULL;
  impactfit_dem_request q = impactfit_dem_default_request();
  impactfit_dem_contact *c = &q.contact;
  impactfit_dem_bodies b = impactfit_dem_bodies_default();
  double value = NAN;
  int json = 0, help = 0, list = 0, points = 9;
  cli_spec opts[] = {
      CLI_STR("code", &code),
      CLI_STR("version", &version),
      CLI_STR("model", &model),
      CLI_STR("damping", &damping),
      CLI_STR("limit", &limit),
      CLI_FLAG("wall", &b.wall),
      CLI_NUM("E", &c->E),
      CLI_NUM("nu", &c->nu),
      CLI_NUM("kn", &c->kn),
      CLI_NUM("radius", &b.radius),
      CLI_NUM("r1", &b.r1),
      CLI_NUM("r2", &b.r2),
      CLI_NUM("density", &b.density),
      CLI_NUM("rho1", &b.rho1),
      CLI_NUM("rho2", &b.rho2),
      CLI_NUM("m1", &b.m1),
      CLI_NUM("m2", &b.m2),
      CLI_NUM("e", &q.e),
      CLI_NUM("v", &q.v),
      CLI_STR("v-range", &vrange),
      CLI_NUM("vchar", &c->v_char),
      CLI_NUM("tc", &c->tc),
      CLI_NUM("value", &value),
      CLI_NUM("mass", &b.mass),
      CLI_NUM("reff", &b.reff),
      CLI_ANYINT("points", &points),
      CLI_FLAG("json", &json),
      CLI_FLAG("list", &list),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (list) {
    if (code && !impactfit_dem_default_version(code))
      return cli_input_error("dem: unknown DEM code '%s' (known: lammps, liggghts, yade, chrono)", code);
    print_list(code, json);
    return CLI_OK;
  }
  const impactfit_dem_model *md;
  int st = impactfit_dem_model_find(code, version, model, damping, &md, &err);
  if (st)
    return cli_status_error(st, &err, "dem");
  if (!version)
    version = impactfit_dem_default_version(code);
  if ((rc = make_request(md, &b, limit, vrange, points, value, &q)))
    return rc;
  if (!isnan(value))
    return forward_mode(md, version, &q, value, json);
  impactfit_dem_answer a, alt_a;
  if ((st = impactfit_dem_solve(NULL, &q, &a, &err)))
    return cli_status_error(st, &err, "dem");
  const impactfit_dem_model *alt = NULL;
  if (!a.reachable && impactfit_dem_suggest(NULL, &q, &alt, &alt_a, NULL) != 0)
    alt = NULL;
  if (json)
    print_answer_json(md, version, &q, &a, alt, &alt_a);
  else
    print_answer_text(md, version, &q, &a, alt, &alt_a);
  return CLI_OK;
}
