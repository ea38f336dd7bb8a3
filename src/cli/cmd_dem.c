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

static int parse_onoff(const char *s, int *out) {
  if (!s)
    return 0;
  if (!strcmp(s, "on") || !strcmp(s, "yes") || !strcmp(s, "1"))
    *out = 1;
  else if (!strcmp(s, "off") || !strcmp(s, "no") || !strcmp(s, "0"))
    *out = 0;
  else
    return cli_input_error("dem: --limit takes on or off (got '%s')", s);
  return 0;
}

#define MD(f, kind) CLI_FIELD(impactfit_dem_model, f, kind)
static const cli_field model_fields[] = {/* the registry entry in --list --json: 8, 3 computed, then 4 */
                                         MD(code, 's'),    MD(versions, 's'),   MD(model, 's'), MD(damping, 's'),
                                         MD(param, 's'),   MD(param_unit, 's'), MD(n, 'd'),     MD(m, 'd'),
                                         MD(takes_e, 'i'), MD(run_here, 'i'),   MD(law, 's'),   MD(source, 's')};

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

/* "key":[lo,hi] in the object j */
static void json_range(cli_json *j, const char *key, double lo, double hi) {
  fprintf(j->f, "%s\"%s\":[", j->first ? "" : ",", key);
  j->first = 0;
  cli_json a = {j->f, 1};
  cli_json_num(&a, NULL, lo);
  cli_json_num(&a, NULL, hi);
  fputc(']', j->f);
}

static void json_answer(cli_json *j, const impactfit_dem_model *md, const impactfit_dem_answer *a) {
  cli_json_str(j, "model", md->model);
  cli_json_str(j, "damping", md->damping);
  cli_json_str(j, "param", md->param);
  cli_json_str(j, "param_unit", md->param_unit);
  cli_json_num(j, "value", a->value);
  cli_json_str(j, "input", a->input);
  json_range(j, "e_range", a->e_min, a->e_max);
  cli_json_str(j, "note", a->note);
}

/* --value: the real e of a typed value over the speeds (the forward problem) */
static int forward_mode(const impactfit_dem_model *md, const char *version, impactfit_dem_request *q, double value,
                        int json) {
  if (isnan(q->v_min))
    q->v_min = q->v_max = q->v;
  if (isnan(q->contact.v_char))
    q->contact.v_char = q->v;
  impactfit_error err;
  impactfit_error_clear(&err);
  double e_v = NAN, lo = NAN, hi = NAN;
  int st = impactfit_dem_forward(md, &q->contact, q->clamp, value, q->v, &e_v, &err);
  if (!st)
    st = impactfit_dem_forward_range(md, &q->contact, q->clamp, value, q->v_min, q->v_max, q->range_points, &lo, &hi,
                                     &err);
  if (st)
    return cli_status_error(st, &err, "dem");
  char input[1024];
  impactfit_dem_input(md, &q->contact, q->clamp, value, input, sizeof input, NULL);
  int clamped = q->clamp < 0 ? md->clamp_default : q->clamp;
  if (json) {
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "code", md->code);
    cli_json_str(&j, "version", version);
    cli_json_str(&j, "model", md->model);
    cli_json_str(&j, "damping", md->damping);
    cli_json_str(&j, "param", md->param);
    cli_json_num(&j, "value", value);
    cli_json_str(&j, "input", input);
    cli_json_num(&j, "v", q->v);
    cli_json_num(&j, "e_real", e_v);
    json_range(&j, "e_range", lo, hi);
    cli_json_str(&j, "end", clamped ? "C" : "A");
    cli_json_end(&j);
  } else {
    printf("# %s %s, model %s%s%s, contact end: %s\n%s", md->code, version, md->model, *md->damping ? " damping " : "",
           md->damping, clamped ? "force clamped at zero (C)" : "tensile until d = 0 (A)", input);
    printf("# typing %s = %.12g gives e = %.10f at v = %.6g m/s\n", md->param, value, e_v, q->v);
    if (q->v_min < q->v_max)
      printf("#   over v in [%.6g, %.6g] m/s: e from %.10f to %.10f\n", q->v_min, q->v_max, lo, hi);
  }
  return CLI_OK;
}

/* The options of the contact. */
typedef struct dem_opts {
  double E, nu, kn, radius, r1, r2, density, rho1, rho2, m1, m2, e, v, vchar, tc, value, mass, reff;
  int wall, points;
} dem_opts;

/* The bodies: --mass/--reff, or radii with densities or masses (the second body as the first unless
 * given; a wall has none). */
static int given(double a, double b, double c) { return !isnan(a) || !isnan(b) || !isnan(c); }

static int resolve_bodies(dem_opts *o) {
  int direct = given(o->mass, o->reff, NAN);
  if (direct && (isnan(o->mass) || isnan(o->reff)))
    return cli_input_error("dem: --mass and --reff go together (the effective mass, kg, and radius, m)");
  if (direct && (given(o->radius, o->r1, o->r2) || given(o->density, o->rho1, o->rho2) || given(o->m1, o->m2, NAN)))
    return cli_input_error("dem: give --mass and --reff, or the bodies (radii, densities or masses), not both");
  if (!isnan(o->radius) && given(o->r1, o->r2, NAN))
    return cli_input_error("dem: give --radius or --r1/--r2, not both");
  if (!isnan(o->density) && given(o->rho1, o->rho2, NAN))
    return cli_input_error("dem: give --density or --rho1/--rho2, not both");
  if (given(o->m1, o->m2, NAN) && given(o->density, o->rho1, o->rho2))
    return cli_input_error("dem: give densities or masses, not both");
  if (!isnan(o->radius))
    o->r1 = o->r2 = o->radius;
  if (!isnan(o->density))
    o->rho1 = o->rho2 = o->density;
  if (isnan(o->r2) && !o->wall)
    o->r2 = o->r1;
  if (isnan(o->rho2) && !o->wall)
    o->rho2 = o->rho1;
  if (direct)
    return 0; /* the effective quantities directly */
  if (isnan(o->m1) && isnan(o->m2)) {
    if (isnan(o->rho1))
      return cli_input_error("dem: give the density (--density or --rho1/--rho2, kg/m^3) or the masses (--m1/--m2, "
                             "kg)");
    if (!(o->rho1 > 0.0) || (!o->wall && !(o->rho2 > 0.0)))
      return cli_input_error("dem: densities must be > 0 kg/m^3 (got %.17g, %.17g)", o->rho1, o->rho2);
    o->m1 = impactfit_dem_sphere_mass(o->r1, o->rho1);
    o->m2 = o->wall ? NAN : impactfit_dem_sphere_mass(o->r2, o->rho2);
  } else if (isnan(o->m2) && !o->wall) {
    o->m2 = o->m1;
  }
  return 0;
}

/* What the model needs besides the bodies, then the request. */
static int make_request(const impactfit_dem_model *md, dem_opts *o, const char *limit, const char *vrange,
                        impactfit_dem_request *q) {
  *q = impactfit_dem_default_request();
  q->model = md;
  int rc = parse_onoff(limit, &q->clamp);
  if (rc || (rc = resolve_bodies(o)))
    return rc;
  int viscel_tc = !strcmp(md->code, "yade") && !strcmp(md->model, "viscel") && !strcmp(md->damping, "en");
  if (md->needs_material && (isnan(o->E) || isnan(o->nu)))
    return cli_input_error("dem: %s %s takes the material: give --E (Pa) and --nu", md->code, md->model);
  if (viscel_tc && isnan(o->tc))
    return cli_input_error("dem: yade viscel --damping en takes the contact time: give --tc (s)");
  if (!md->needs_material && !viscel_tc && isnan(o->kn))
    return cli_input_error("dem: %s %s takes the code's stiffness: give --kn (%s)", md->code, md->model, md->law);
  if (!isnan(o->value) && !isnan(o->e))
    return cli_input_error("dem: give --e (the restitution you want) or --value (what you type), not both");
  if (isnan(o->e) && isnan(o->value))
    return cli_input_error("dem: --e is required (the restitution you want, 0 < e < 1), or --value to see what a "
                           "typed value gives");
  if (isnan(o->v))
    return cli_input_error("dem: --v is required (the impact speed, m/s)");
  if (o->points < 1 || o->points > 10000)
    return cli_input_error("dem: --points must be in [1, 10000] (got %d)", o->points);
  impactfit_dem_contact *c = &q->contact;
  c->geometry = o->wall ? IMPACTFIT_DEM_SPHERE_WALL : IMPACTFIT_DEM_SPHERE_SPHERE;
  c->E = o->E, c->nu = o->nu, c->kn = o->kn, c->r1 = o->r1, c->r2 = o->r2, c->m1 = o->m1, c->m2 = o->m2;
  c->v_char = o->vchar, c->tc = o->tc, c->R_eff = o->reff, c->M_eff = o->mass;
  q->e = o->e;
  q->v = o->v;
  q->range_points = (size_t)o->points;
  if (vrange) {
    double *vals = NULL;
    size_t nv = 0;
    if ((rc = cli_parse_grid("--v-range", vrange, &vals, &nv)))
      return rc;
    if (nv != 2) {
      free(vals);
      return cli_input_error("dem: --v-range takes two speeds A,B in m/s (got %zu values)", nv);
    }
    q->v_min = vals[0];
    q->v_max = vals[1];
    free(vals);
  }
  return 0;
}

static void print_answer_json(const impactfit_dem_model *md, const char *version, const impactfit_dem_request *q,
                              const impactfit_dem_answer *a, const impactfit_dem_model *alt,
                              const impactfit_dem_answer *alt_a) {
  cli_json j;
  cli_json_begin(&j, stdout);
  cli_json_str(&j, "code", md->code);
  cli_json_str(&j, "version", version);
  cli_json_str(&j, "versions", md->versions);
  cli_json_num(&j, "e_asked", q->e);
  cli_json_num(&j, "v", q->v);
  json_answer(&j, md, a);
  cli_json_num(&j, "e_naive", a->e_naive);
  json_range(&j, "e_naive_range", a->e_naive_min, a->e_naive_max);
  cli_json_int(&j, "reachable", a->reachable);
  cli_json_int(&j, "speed_dependent", a->speed_dependent);
  cli_json_str(&j, "end", a->transition->name);
  cli_json_num(&j, "n", md->n);
  cli_json_num(&j, "m", md->m);
  cli_json_num(&j, "K", a->K);
  cli_json_num(&j, "R", a->R);
  cli_json_num(&j, "M", a->M);
  cli_json_num(&j, "C", a->C);
  cli_json_num(&j, "zeta", a->zeta);
  cli_json_int(&j, "run_here", md->run_here);
  cli_json_str(&j, "source", md->source);
  if (alt) {
    fprintf(stdout, ",\"alternative\":");
    cli_json ja;
    cli_json_begin(&ja, stdout);
    json_answer(&ja, alt, alt_a);
    cli_json_str(&ja, "end", alt_a->transition->name);
    fputs("}", stdout);
  }
  cli_json_end(&j);
}

static void print_answer_text(const impactfit_dem_model *md, const char *version, const impactfit_dem_request *q,
                              const impactfit_dem_answer *a, const impactfit_dem_model *alt,
                              const impactfit_dem_answer *alt_a) {
  printf("# %s %s (%s), model %s%s%s, contact end: %s\n", md->code, version, md->versions, md->model,
         *md->damping ? " damping " : "", md->damping,
         a->transition == impactfit_transition_C ? "force clamped at zero (C)" : "tensile until d = 0 (A)");
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
  dem_opts o = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0, 9};
  int json = 0, help = 0, list = 0;
  cli_spec opts[] = {
      CLI_STR("code", &code),
      CLI_STR("version", &version),
      CLI_STR("model", &model),
      CLI_STR("damping", &damping),
      CLI_STR("limit", &limit),
      CLI_FLAG("wall", &o.wall),
      CLI_NUM("E", &o.E),
      CLI_NUM("nu", &o.nu),
      CLI_NUM("kn", &o.kn),
      CLI_NUM("radius", &o.radius),
      CLI_NUM("r1", &o.r1),
      CLI_NUM("r2", &o.r2),
      CLI_NUM("density", &o.density),
      CLI_NUM("rho1", &o.rho1),
      CLI_NUM("rho2", &o.rho2),
      CLI_NUM("m1", &o.m1),
      CLI_NUM("m2", &o.m2),
      CLI_NUM("e", &o.e),
      CLI_NUM("v", &o.v),
      CLI_STR("v-range", &vrange),
      CLI_NUM("vchar", &o.vchar),
      CLI_NUM("tc", &o.tc),
      CLI_NUM("value", &o.value),
      CLI_NUM("mass", &o.mass),
      CLI_NUM("reff", &o.reff),
      CLI_ANYINT("points", &o.points),
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
  impactfit_dem_request q;
  if ((rc = make_request(md, &o, limit, vrange, &q)))
    return rc;
  if (!isnan(o.value))
    return forward_mode(md, version, &q, o.value, json);
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
