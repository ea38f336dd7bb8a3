/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit dem: the exact input for a DEM code's contact model (include/impactfit/demcodes.h).
 * --e (or --value) and --v take a value, a list or a range: the points of the grid are solved by the
 * library (impactfit_dem_grid) and printed as they come: one point in text is the full report with
 * the line to paste, several points a table; --csv a table, --json one object per point. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_dem; /* docs/cli/dem.txt */

enum { DEM_MAX_POINTS = 1000000 }; /* a grid is solved point by point, in order: a million is hours */

/* ---- the registry (--list) ---- */

#define MD(f) CLI_FIELD(impactfit_dem_model, f)
static const cli_field model_fields[] = {/* the registry entry in --list --json: 8, 3 computed, then 6 */
                                         MD(code),          MD(versions),       MD(model), MD(damping),
                                         MD(param),         MD(param_unit),     MD(n),     MD(m),
                                         MD(takes_e),       MD(run_here),       MD(law),   MD(source),
                                         MD(first_version), MD(default_damping)};
enum { MODEL_FIELDS_HEAD = 8 };

static void print_list(const char *code, int json, int brief) {
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *md = impactfit_dem_model_at(i);
    if (code && strcmp(code, md->code))
      continue;
    char force[64];
    impactfit_dem_force_text(md, force, sizeof force);
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      cli_json_fields(&j, md, model_fields, MODEL_FIELDS_HEAD);
      cli_json_str(&j, "clamp_default", md->clamp_default ? "C" : "A");
      cli_json_str(&j, "clamp_switch", md->clamp_switch ? md->clamp_switch : "");
      cli_json_str(&j, "kn_unit", impactfit_dem_kn_unit(md) ? impactfit_dem_kn_unit(md) : "");
      cli_json_fields(&j, md, model_fields + MODEL_FIELDS_HEAD, CLI_COUNT(model_fields) - MODEL_FIELDS_HEAD);
      cli_json_str(&j, "run_versions", md->run_versions ? md->run_versions : "");
      cli_json_str(&j, "force", force);
      cli_json_end(&j);
    } else if (brief) {
      char name[128];
      snprintf(name, sizeof name, "%s%s%s", md->model, *md->damping ? " --damping " : "", md->damping);
      printf("%-8s %-48s %-10s %-21s %-40s %s\n", md->code, name, md->param, force + 4, md->versions,
             md->run_here ? "run here" : "formula only");
    } else {
      printf("%s %s%s%s%s  [versions %s]\n  %s: %s\n  you type: %s (%s); %s; end: %s%s%s\n  %s\n  source: %s\n\n",
             md->code, md->model, *md->damping ? " --damping " : "", md->damping,
             md->default_damping ? " (the code's default damping)" : "", md->versions,
             md->run_here ? "run here" : "formula only", md->run_here ? md->run_versions : "not run here", md->param,
             md->param_unit, force, md->clamp_default ? "force clamped at zero (C)" : "tensile until d = 0 (A)",
             md->clamp_switch ? "; switch: " : "", md->clamp_switch ? md->clamp_switch : "", md->law, md->source);
    }
  }
  if (brief && !json)
    printf("(%zu entries; 'impactfit dem --list' gives each one's force law, switch and source)\n",
           impactfit_dem_model_count());
}

/* ---- the JSON objects of an answer ---- */

/* The objects of an answer: the model (M), the request (Q), the answer (A), the forward answer (F)
 * and the strings of the command (S). The alternative model's object is the ANSWER_N members from
 * ANSWER_AT, then "end" (END_AT). */
typedef struct strings {
  const char *version, *end;
  int run_here; /* the answer for this version was run here */
} strings;
enum { M, Q, A, F, S };
enum { ANSWER_AT = 6, ANSWER_N = 8, END_AT = 18 };
#define OF_M(f) CLI_FIELD_OF(M, #f, impactfit_dem_model, f)
#define OF_Q(key, f) CLI_FIELD_OF(Q, key, impactfit_dem_request, f)
#define OF_A(key, f) CLI_FIELD_OF(A, key, impactfit_dem_answer, f)
#define OF_F(key, f) CLI_FIELD_OF(F, key, impactfit_dem_forward_answer, f)
#define OF_A_RANGE(key, f) CLI_FIELD_RANGE_OF(A, key, impactfit_dem_answer, f)
#define OF_F_RANGE(key, f) CLI_FIELD_RANGE_OF(F, key, impactfit_dem_forward_answer, f)
#define OF_S(f) CLI_FIELD_OF(S, #f, strings, f)
static const cli_field answer_fields[] = {
    OF_M(code), OF_S(version), OF_M(versions), OF_S(run_here), OF_Q("e_asked", e), OF_Q("v", v),
    /* ANSWER_AT = 6: the answer of a model, also the alternative's */
    OF_M(model), OF_M(damping), OF_M(param), OF_M(param_unit), OF_A("value", value), OF_A("input", input),
    OF_A_RANGE("e_range", e_min), OF_A("note", note),
    /* what typing e gives, and the contact */
    OF_A("e_naive", e_naive), OF_A_RANGE("e_naive_range", e_naive_min), OF_A("reachable", reachable),
    OF_A("speed_dependent", speed_dependent), OF_S(end), OF_M(n), OF_M(m), OF_A("K", K), OF_A("R", R), OF_A("M", M),
    OF_A("C", C), OF_A("zeta", zeta), OF_M(source)};
static const cli_field forward_fields[] = {/* --value: the forward problem */
                                           OF_M(code), OF_S(version), OF_M(versions), OF_S(run_here), OF_M(model),
                                           OF_M(damping), OF_M(param),
                                           /* the typed value and what it gives */
                                           OF_F("value", value), OF_F("input", input), OF_Q("v", v), OF_F("e_real", e),
                                           OF_F_RANGE("e_range", e_min), OF_F("speed_dependent", speed_dependent),
                                           OF_S(end), OF_M(source)};

static const char *end_text(const impactfit_transition *tr) {
  return tr == impactfit_transition_C ? "force clamped at zero (C)" : "tensile until d = 0 (A)";
}

/* ---- the bodies and the request ---- */

/* The bodies: --mass/--reff, or radii with densities or masses; which options go together. */
static int given(double a, double b, double c) { return !isnan(a) || !isnan(b) || !isnan(c); }

static int check_bodies(const impactfit_dem_bodies *b) {
  int direct = given(b->mass, b->reff, NAN);
  if (direct && (isnan(b->mass) || isnan(b->reff)))
    return cli_input_error("dem: give both --mass and --reff, or neither (the effective mass, kg, and radius, m)");
  if (direct && (given(b->radius, b->r1, b->r2) || given(b->density, b->rho1, b->rho2) || given(b->m1, b->m2, NAN)))
    return cli_input_error("dem: give --mass and --reff, or the bodies (radii, densities or masses), not both");
  if (!isnan(b->radius) && given(b->r1, b->r2, NAN))
    return cli_input_error("dem: give --radius or --r1/--r2, not both");
  if (!isnan(b->density) && given(b->rho1, b->rho2, NAN))
    return cli_input_error("dem: give --density or --rho1/--rho2, not both");
  if (given(b->m1, b->m2, NAN) && given(b->density, b->rho1, b->rho2))
    return cli_input_error("dem: give densities or masses, not both");
  if (b->wall && given(b->r2, b->rho2, b->m2))
    return cli_input_error("dem: --wall: the wall is not a body; --r2, --rho2 and --m2 do not apply");
  if (!direct && !given(b->m1, b->m2, NAN) && !given(b->density, b->rho1, NAN))
    return cli_input_error("dem: give the density (--density or --rho1/--rho2, kg/m^3) or the masses (--m1/--m2, "
                           "kg)");
  return 0;
}

/* Options the model does not read are refused: a value the answer would silently ignore. */
static int check_applies(const impactfit_dem_model *md, const cli_spec *opts, size_t n) {
  impactfit_dem_stiffness_input from = impactfit_dem_model_stiffness_input(md);
  static const struct {
    const char *opt;
    impactfit_dem_stiffness_input needs;
    const char *what;
  } uses[] = {{"E", IMPACTFIT_DEM_FROM_MATERIAL, "the material (--E, --nu)"},
              {"nu", IMPACTFIT_DEM_FROM_MATERIAL, "the material (--E, --nu)"},
              {"kn", IMPACTFIT_DEM_FROM_KN, "the code's stiffness (--kn)"},
              {"tc", IMPACTFIT_DEM_FROM_TC, "the contact time (--tc)"}};
  const char *takes = from == IMPACTFIT_DEM_FROM_MATERIAL ? "the material (--E, --nu)"
                      : from == IMPACTFIT_DEM_FROM_KN     ? "the code's stiffness (--kn)"
                                                          : "the contact time (--tc)";
  for (size_t i = 0; i < CLI_COUNT(uses); i++)
    if (cli_given(opts, n, uses[i].opt) && uses[i].needs != from)
      return cli_input_error("dem: %s %s%s%s takes %s: --%s does not apply", md->code, md->model,
                             *md->damping ? " --damping " : "", md->damping, takes, uses[i].opt);
  if (cli_given(opts, n, "vchar") && !impactfit_dem_model_uses_vchar(md))
    return cli_input_error("dem: %s %s has no characteristic velocity: --vchar does not apply", md->code, md->model);
  if (cli_given(opts, n, "points") && !cli_given(opts, n, "v-range"))
    return cli_input_error("dem: --points samples the speed range: give --v-range A,B");
  return 0;
}

/* What the model needs besides the bodies, then the rest of the request. */
static int make_request(const impactfit_dem_model *md, const impactfit_dem_bodies *b, const char *limit,
                        const char *vrange, int points, impactfit_dem_request *q) {
  static const char *const onoff[] = {"off", "on", "no", "yes", "0", "1"};
  size_t i = 0, n;
  if (limit && cli_parse_names(limit, onoff, 6, 0, 1, 1, &i, &n))
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
  if (points < 1 || points > 10000)
    return cli_input_error("dem: --points must be in [1, 10000] (got %d)", points);
  q->range_points = (size_t)points;
  double *vals = NULL;
  if (!vrange)
    return 0;
  if ((rc = cli_parse_grid("--v-range", vrange, &vals, &n)))
    return rc;
  if (n != 2)
    rc = cli_input_error("dem: --v-range takes two speeds A,B in m/s (got %zu values)", n);
  else if (!(vals[0] > 0.0 && vals[0] <= vals[1]))
    rc = cli_input_error("dem: --v-range A,B needs 0 < A <= B (m/s), got %s", vrange);
  else {
    q->v_min = vals[0];
    q->v_max = vals[1];
  }
  free(vals);
  return rc;
}

/* ---- printing the points ---- */

typedef struct printer {
  const impactfit_dem_model *md;
  const char *version;
  int run_here, json, csv, table; /* table: several points in text */
  int forward, single;            /* --value; one point */
  int head_done;                  /* the table's heading is printed (before the first row) */
  size_t failed;
} printer;

/* the line naming the code, version and model, and where its force law comes from */
static void print_heading(const printer *p, const impactfit_transition *tr) {
  const impactfit_dem_model *md = p->md;
  char force[64];
  printf("# %s %s, model %s%s%s, contact end: %s\n", md->code, p->version, md->model, *md->damping ? ", damping " : "",
         md->damping, end_text(tr));
  if (p->run_here)
    printf("# run here: %s; the force law of %s\n", md->run_versions, md->source);
  else
    printf("# formula only: %s not run here%s%s; the force law (versions %s) read in %s\n", p->version,
           md->run_versions ? "; run here: " : "", md->run_versions ? md->run_versions : "", md->versions, md->source);
  printf("# force %s\n", impactfit_dem_force_text(md, force, sizeof force));
}

static void print_answer_json(const printer *p, const impactfit_dem_request *q, const impactfit_dem_answer *a,
                              const impactfit_dem_model *alt, const impactfit_dem_answer *alt_a) {
  strings str = {p->version, a->transition->name, p->run_here};
  const void *objs[] = {p->md, q, a, NULL, &str};
  cli_json j;
  cli_json_begin(&j, stdout);
  cli_json_fields_of(&j, objs, answer_fields, CLI_COUNT(answer_fields));
  if (alt) {
    strings alt_str = {p->version, alt_a->transition->name, p->run_here};
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

static void print_answer_text(const printer *p, const impactfit_dem_request *q, const impactfit_dem_answer *a,
                              const impactfit_dem_model *alt, const impactfit_dem_answer *alt_a) {
  const impactfit_dem_model *md = p->md;
  char e[IMPACTFIT_SHORTEST_SIZE];
  impactfit_format_shortest(q->e, e);
  print_heading(p, a->transition);
  char unit[32] = "N/m";
  if (md->n != 1.0)
    snprintf(unit, sizeof unit, "N/m^%g", md->n);
  printf("#   K = %.10g %s, R = %.10g m, M = %.10g kg\n", a->K, unit, a->R, a->M);
  if (md->takes_e && isnan(a->e_naive))
    printf("# typing %s = %s: the code refuses it (it takes %s in (0.05, 1])\n", md->param, e, md->param);
  else if (md->takes_e)
    printf("# typing %s = %s gives e = %.6f%s\n", md->param, e, a->e_naive,
           a->speed_dependent ? " at this speed" : " (at every speed)");
  if (a->speed_dependent && md->takes_e && !isnan(a->e_naive) && q->v_min < q->v_max)
    printf("#   over v in [%.6g, %.6g] m/s: e from %.6f to %.6f\n", q->v_min, q->v_max, a->e_naive_min, a->e_naive_max);
  if (a->reachable) {
    printf("# to get e = %s type %s = %.12g:\n%s", e, md->param, a->value, a->input);
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

static void print_forward_text(const printer *p, const impactfit_dem_request *q,
                               const impactfit_dem_forward_answer *fa) {
  char v[IMPACTFIT_SHORTEST_SIZE], x[IMPACTFIT_SHORTEST_SIZE];
  print_heading(p, fa->transition);
  printf("%s", fa->input);
  printf("# typing %s = %s gives e = %.10f at v = %s m/s%s\n", p->md->param, impactfit_format_shortest(fa->value, x),
         fa->e, impactfit_format_shortest(q->v, v), fa->speed_dependent ? "" : " (at every speed)");
  if (fa->speed_dependent && fa->v_min < fa->v_max)
    printf("#   over v in [%.6g, %.6g] m/s: e from %.10f to %.10f\n", fa->v_min, fa->v_max, fa->e_min, fa->e_max);
}

/* a table row's number: as typed for the inputs, full precision for the results, empty when NaN */
static void cell(const printer *p, const char *fmt, double v, int input, int last) {
  char b[IMPACTFIT_SHORTEST_SIZE];
  if (p->csv)
    fputs(isfinite(v) ? impactfit_format_shortest(v, b) : "", stdout);
  else if (input)
    printf("%-12s", impactfit_format_shortest(v, b));
  else if (isfinite(v))
    printf(fmt, v);
  else
    printf("%-20s", "-");
  fputs(last ? "" : (p->csv ? "," : " "), stdout);
}

static void print_table_head(const printer *p, int forward) {
  if (!p->csv) {
    printf("# %s %s, model %s%s%s: %s (%s)\n", p->md->code, p->version, p->md->model,
           *p->md->damping ? ", damping " : "", p->md->damping, p->run_here ? "run here" : "formula only",
           p->md->versions);
    if (forward)
      printf("%-12s %-12s %-20s %-20s %-20s status\n", "value", "v", "e_real", "e_min", "e_max");
    else
      printf("%-12s %-12s %-20s %-20s %-20s %-20s reachable status\n", "e", "v", "value", "e_naive", "e_min", "e_max");
  } else if (forward) {
    puts("value,v,e_real,e_min,e_max,status");
  } else {
    puts("e,v,value,e_naive,e_min,e_max,reachable,status");
  }
}

static int on_point(void *ctx, size_t index, const impactfit_dem_request *q, double x, int status,
                    const impactfit_dem_answer *a, const impactfit_dem_forward_answer *fa, const impactfit_error *err) {
  printer *p = ctx;
  if (status && impactfit_status_is_input_error(status) && !p->head_done) { /* the same for every point: stop */
    p->failed++;
    cli_status_error(status, err, "dem");
    return 1;
  }
  if ((p->table || p->csv) && !p->head_done)
    print_table_head(p, p->forward);
  p->head_done = 1;
  if (status) {
    p->failed++;
    if (p->table || p->csv) {
      cell(p, "", x, 1, 0);
      cell(p, "", q->v, 1, 0);
      fputs(p->csv ? (p->forward ? ",,," : ",,,,,") : "", stdout);
      printf("%s\n", impactfit_status_name(status));
    }
    fflush(stdout);
    if (p->single) {
      cli_status_error(status, err, "dem");
    } else {
      char xs[IMPACTFIT_SHORTEST_SIZE], vs[IMPACTFIT_SHORTEST_SIZE];
      fprintf(stderr, "impactfit: error: dem: point %zu (%s = %s, v = %s): %s\n", index, p->forward ? "value" : "e",
              impactfit_format_shortest(x, xs), impactfit_format_shortest(q->v, vs),
              err->message[0] ? err->message : impactfit_strerror(status));
    }
    return impactfit_status_is_input_error(status); /* invalid input stops; a numerical failure goes on */
  }
  if (fa) {
    if (p->json) {
      strings str = {p->version, fa->transition->name, p->run_here};
      const void *objs[] = {p->md, q, NULL, fa, &str};
      cli_json_object_of(stdout, objs, forward_fields, CLI_COUNT(forward_fields));
    } else if (p->table || p->csv) {
      cell(p, "", fa->value, 1, 0);
      cell(p, "", q->v, 1, 0);
      cell(p, "%-20.10f", fa->e, 0, 0);
      cell(p, "%-20.10f", fa->e_min, 0, 0);
      cell(p, "%-20.10f", fa->e_max, 0, 0);
      puts("OK");
    } else {
      print_forward_text(p, q, fa);
    }
  } else {
    const impactfit_dem_model *alt = NULL;
    impactfit_dem_answer alt_a;
    if (!a->reachable && !p->table && !p->csv && impactfit_dem_suggest(NULL, q, &alt, &alt_a, NULL) != 0)
      alt = NULL;
    if (p->json) {
      print_answer_json(p, q, a, alt, &alt_a);
    } else if (p->table || p->csv) {
      cell(p, "", q->e, 1, 0);
      cell(p, "", q->v, 1, 0);
      cell(p, "%-20.12g", a->value, 0, 0);
      cell(p, "%-20.6f", a->e_naive, 0, 0);
      cell(p, "%-20.10f", a->e_min, 0, 0);
      cell(p, "%-20.10f", a->e_max, 0, 0);
      printf(p->csv ? "%d,OK\n" : "%-9d OK\n", a->reachable);
    } else {
      print_answer_text(p, q, a, alt, &alt_a);
    }
  }
  fflush(stdout);
  return ferror(stdout) != 0;
}

/* ---- the command ---- */

int impactfit_cmd_dem(int argc, char **argv) {
  const char *code = NULL, *version = NULL, *model = NULL, *damping = NULL, *limit = NULL, *vrange = NULL;
  const char *s_e = NULL, *s_v = NULL, *s_value = NULL;
  impactfit_dem_request q = impactfit_dem_default_request();
  impactfit_dem_contact *c = &q.contact;
  impactfit_dem_bodies b = impactfit_dem_bodies_default();
  int json = 0, csv = 0, help = 0, list = 0, brief = 0, points = 9;
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
      CLI_STR("e", &s_e),
      CLI_STR("v", &s_v),
      CLI_STR("v-range", &vrange),
      CLI_NUM("vchar", &c->v_char),
      CLI_NUM("tc", &c->tc),
      CLI_STR("value", &s_value),
      CLI_NUM("mass", &b.mass),
      CLI_NUM("reff", &b.reff),
      CLI_ANYINT("points", &points),
      CLI_FLAG("json", &json),
      CLI_FLAG("csv", &csv),
      CLI_FLAG("list", &list),
      CLI_FLAG("brief", &brief),
  };
  const size_t nopt = CLI_COUNT(opts);
  int rc = cli_options(argc, argv, opts, nopt, help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if ((rc = cli_json_csv("dem", json, csv)))
    return rc;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (code && !impactfit_dem_code_name(code)) { /* the library's message, with its "did you mean" */
    impactfit_dem_model_find(code, NULL, NULL, NULL, &(const impactfit_dem_model *){NULL}, &err);
    return cli_status_error(IMPACTFIT_EINVAL, &err, "dem");
  }
  if (code)
    code = impactfit_dem_code_name(code);
  if (brief && !list)
    return cli_input_error("dem: --brief shortens --list: give --list --brief");
  if (list) {
    if (csv)
      return cli_input_error("dem: --list prints text or --json");
    print_list(code, json, brief);
    return CLI_OK;
  }
  const impactfit_dem_model *md;
  int st = impactfit_dem_model_find(code, version, model, damping, &md, &err);
  if (st)
    return cli_status_error(st, &err, "dem");
  if (!version)
    version = impactfit_dem_default_version(code);
  if ((rc = check_applies(md, opts, nopt)) || (rc = make_request(md, &b, limit, vrange, points, &q)))
    return rc;
  if (s_value && s_e)
    return cli_input_error("dem: give --e (the restitution you want) or --value (what you type), not both");
  if (!s_e && !s_value)
    return cli_input_error("dem: --e is required (the restitution you want, 0 < e < 1), or --value to see what a "
                           "typed value gives");
  if (!s_v)
    return cli_input_error("dem: --v is required (the impact speed, m/s)");
  /* --e (or --value) and --v: values, lists or ranges */
  double *x = NULL, *v = NULL;
  size_t nx = 0, nv = 0;
  if (!(rc = cli_parse_grid(s_e ? "--e" : "--value", s_e ? s_e : s_value, &x, &nx)) &&
      !(rc = cli_parse_grid("--v", s_v, &v, &nv)) && (double)nx * (double)nv > DEM_MAX_POINTS)
    rc = cli_input_error("dem: the grid has %.0f points (at most 1e6: each point is solved in turn)",
                         (double)nx * (double)nv);
  for (size_t i = 0; !rc && s_e && i < nx; i++) /* every input checked before any output */
    if (!(x[i] > 0.0 && x[i] < 1.0))
      rc = cli_input_error("--e: the restitution must be in (0, 1), got %.17g", x[i]);
  for (size_t i = 0; !rc && i < nv; i++)
    if (!(v[i] > 0.0))
      rc = cli_input_error("--v: the impact speed must be > 0 (m/s), got %.17g", v[i]);
  if (!rc) {
    printer p = {.md = md,
                 .version = version,
                 .run_here = impactfit_dem_model_run_for(md, version),
                 .json = json,
                 .csv = csv,
                 .table = !json && nx * nv > 1,
                 .forward = s_value != NULL,
                 .single = nx * nv == 1};
    st = impactfit_dem_grid(NULL, &q, x, nx, s_value != NULL, v, nv, on_point, &p, &err);
    if (p.failed && st == IMPACTFIT_EINTR) /* an invalid point stopped the grid (its message printed) */
      rc = CLI_INPUT;
    else
      rc = ferror(stdout) ? cli_input_error("dem: cannot print the rows")
           : st           ? cli_status_error(st, &err, "dem")
           : p.failed     ? CLI_NUMERIC
                          : CLI_OK;
  }
  free(x);
  free(v);
  return rc;
}
