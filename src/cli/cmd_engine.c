/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit engine: the exact contact input for a multibody or robotics engine at the user's time step
 * (include/impactfit/engines.h); DEM codes go to impactfit dem. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_engine; /* docs/cli/engine.txt */

/* the value of option --name in argv ("--name v" or "--name=v"), NULL when absent */
static const char *peek(int argc, char **argv, const char *name) {
  size_t len = strlen(name);
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, len) != 0)
      continue;
    if (a[2 + len] == '=')
      return a + 3 + len;
    if (a[2 + len] == '\0' && i + 1 < argc)
      return argv[i + 1];
  }
  return NULL;
}

/* a code of the DEM registry only (a code in both, Chrono, is answered here at its time step) */
static int is_dem_code(const char *code) {
  for (size_t i = 0; i < impactfit_codes_count(); i++) {
    const char *c, *k, *v;
    impactfit_codes_at(i, &c, &k, &v);
    if (strcasecmp(c, code) == 0 && strcmp(k, "dem") == 0)
      return 1;
  }
  return 0;
}

static void print_values(const impactfit_engine_input *in, const double *v) {
  for (int j = 0; j < in->count; j++)
    printf("%s%.12g", j ? "," : "", v[j]);
}

static void print_list(const char *code, int json) {
  if (!code && !json) {
    printf("codes (impactfit engine --list --code CODE for the models):\n");
    for (size_t i = 0; i < impactfit_codes_count(); i++) {
      const char *c, *k, *v;
      impactfit_codes_at(i, &c, &k, &v);
      printf("  %-9s %-10s default version %s%s\n", c, k, v ? v : "-",
             strcmp(k, "dem") == 0          ? " (impactfit dem --list --code CODE)"
             : strcmp(k, "dem+engine") == 0 ? " (continuous time: impactfit dem --code CODE)"
                                            : "");
    }
    return;
  }
  for (size_t i = 0; i < impactfit_engine_model_count(); i++) {
    const impactfit_engine_model *md = impactfit_engine_model_at(i);
    if (code && strcasecmp(code, md->code))
      continue;
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      cli_json_str(&j, "code", md->code);
      cli_json_str(&j, "model", md->model);
      cli_json_str(&j, "versions", md->versions);
      cli_json_str(&j, "param", md->param);
      cli_json_str(&j, "param_unit", md->param_unit);
      cli_json_str(&j, "integrators", md->integrators);
      cli_json_num(&j, "dt_default", md->dt_default > 0.0 ? md->dt_default : NAN);
      cli_json_str(&j, "adaptive", md->adaptive ? md->adaptive : "");
      cli_json_str(&j, "law", md->law);
      cli_json_str(&j, "end", md->end);
      cli_json_str(&j, "bodies", md->bodies);
      cli_json_str(&j, "traps", md->traps);
      cli_json_int(&j, "run_here", md->run_here);
      cli_json_str(&j, "source", md->source);
      cli_json_end(&j);
      continue;
    }
    printf("%s '%s'  [%s]%s\n", md->code, md->model, md->versions,
           md->run_here ? "" : "  (formula only, not run here)");
    /* the step: the engine's default, none (the user gives --dt), or none at all for integrators that
     * control their error (the model's `adaptive` list; all of Simbody's) */
    char step[160];
    if (md->adaptive && strcmp(md->adaptive, md->integrators) == 0)
      snprintf(step, sizeof step, "all adaptive: no time step (give no --dt)");
    else {
      if (md->dt_default > 0.0)
        snprintf(step, sizeof step, "default dt %g s", md->dt_default);
      else
        snprintf(step, sizeof step, "no default dt (give --dt)");
      if (md->adaptive)
        snprintf(step + strlen(step), sizeof step - strlen(step), "; adaptive, no time step: %s", md->adaptive);
    }
    printf("  solves for: %s (%s); integrators: %s (default first); %s\n", md->param, md->param_unit, md->integrators,
           step);
    for (int k = 0; k < md->n_inputs; k++) {
      const impactfit_engine_input *in = &md->inputs[k];
      printf("  --%s ", in->name);
      if (isnan(in->def[0]))
        printf("(required)");
      else
        print_values(in, in->def);
      printf("  [%s] %s\n", in->unit, in->help);
    }
    printf("  law: %s\n  end: %s\n  bodies: %s\n  traps: %s\n  source: %s\n\n", md->law, md->end, md->bodies, md->traps,
           md->source);
  }
}

/* "V1,V2,..." into a setting */
static int parse_setting(const char *name, const char *text, impactfit_engine_setting *s) {
  s->name = name;
  s->count = 0;
  const char *p = text;
  char what[96];
  snprintf(what, sizeof what, "--%s", name);
  for (;;) {
    if (s->count == IMPACTFIT_ENGINE_MAX_VALUES)
      return cli_input_error("%s: at most %d values (got '%s')", what, IMPACTFIT_ENGINE_MAX_VALUES, text);
    const char *comma = strchr(p, ',');
    char item[64];
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == 0 || len >= sizeof item)
      return cli_input_error("%s: expected numbers separated by commas (got '%s')", what, text);
    memcpy(item, p, len);
    item[len] = 0;
    int rc = cli_parse_double(what, item, &s->values[s->count]);
    if (rc)
      return rc;
    s->count++;
    if (!comma)
      return 0;
    p = comma + 1;
  }
}

static void print_json(const impactfit_engine_model *md, const char *version, const impactfit_engine_request *q,
                       const impactfit_engine_answer *a) {
  cli_json j;
  cli_json_begin(&j, stdout);
  cli_json_str(&j, "code", md->code);
  cli_json_str(&j, "version", version);
  cli_json_str(&j, "model", md->model);
  cli_json_str(&j, "integrator", a->integrator);
  cli_json_num(&j, "dt", a->dt);
  cli_json_num(&j, "v", q->v);
  cli_json_num(&j, "mass", a->mass);
  cli_json_num(&j, "e_asked", q->e);
  cli_json_str(&j, "param", md->param);
  cli_json_num(&j, "value", a->value);
  cli_json_str(&j, "input", a->input);
  cli_json_num(&j, "e_mean", a->e_mean);
  cli_json_num(&j, "e_min", a->e_min);
  cli_json_num(&j, "e_max", a->e_max);
  cli_json_num(&j, "e_continuous", a->e_continuous);
  cli_json_str(&j, "naive", a->naive);
  cli_json_num(&j, "naive_value", a->naive_value);
  cli_json_num(&j, "e_naive", a->e_naive);
  cli_json_range(&j, "e_naive_range", a->e_naive_min, a->e_naive_max);
  cli_json_int(&j, "reachable", a->reachable);
  cli_json_range(&j, "e_reach_range", a->e_reach_min, a->e_reach_max);
  cli_json_int(&j, "stable", a->stable);
  cli_json_num(&j, "dt_stable", a->dt_stable);
  cli_json_str(&j, "end", a->end);
  cli_json_str(&j, "note", a->note);
  cli_json_int(&j, "run_here", md->run_here);
  cli_json_str(&j, "source", md->source);
  cli_json_end(&j);
}

static void print_text(const impactfit_engine_model *md, const char *version, const impactfit_engine_request *q,
                       const impactfit_engine_answer *a) {
  /* an adaptive integrator (NaN dt) takes no step: one e, the law's continuous-time e, at every phase */
  int adaptive = isnan(a->dt);
  char step[64];
  if (adaptive)
    snprintf(step, sizeof step, "adaptive (no time step)");
  else
    snprintf(step, sizeof step, "%.6g s", a->dt);
  printf("# %s %s, model '%s', integrator %s, dt = %s, v = %.6g m/s, effective mass %.6g kg (%s)%s\n", md->code,
         version, md->model, a->integrator, step, q->v, a->mass, q->bodies.plane ? "sphere on a plane" : "two spheres",
         md->run_here ? "" : " [formula only]");
  printf("# law: %s; end: %s\n", md->law, md->end);
  if (adaptive)
    printf("# the integrator controls its error: e is the law's continuous-time e (at the accuracy the note names)\n");
  else
    printf("# e over the phase of the first contact step: mean (a random drop height), and one impact's range\n");
  if (!isnan(q->e)) {
    if (!isnan(a->naive_value) && !isnan(a->e_naive)) {
      printf("# naive: %s = %.6g gives e = %.6f", md->param, a->naive_value, a->e_naive);
      if (!adaptive)
        printf(" (one impact: %.6f to %.6f)", a->e_naive_min, a->e_naive_max);
      printf("\n#   [%s]\n", a->naive);
    } else if (!isnan(a->naive_value))
      printf("# naive: %s = %.6g is unstable at this dt (the motion blows up)\n#   [%s]\n", md->param, a->naive_value,
             a->naive);
    if (a->reachable) {
      printf("# to get e = %.6g%s type %s = %.12g:\n%s\n", q->e, adaptive ? "" : " at this dt", md->param, a->value,
             a->input);
      if (adaptive)
        printf("#   it gives e = %.10f\n", a->e_mean);
      else
        printf("#   it gives e = %.10f (one impact: %.6f to %.6f); in continuous time %.6f\n", a->e_mean, a->e_min,
               a->e_max, a->e_continuous);
    }
  } else if (adaptive) {
    printf("%s\n# %s = %.12g gives e = %.10f\n", a->input, md->param, a->value, a->e_mean);
  } else {
    printf("%s\n# %s = %.12g gives e = %.10f (one impact: %.6f to %.6f); in continuous time %.6f\n", a->input,
           md->param, a->value, a->e_mean, a->e_min, a->e_max, a->e_continuous);
  }
  if (a->note[0])
    printf("# note: %s\n", a->note);
}

int impactfit_cmd_engine(int argc, char **argv) {
  const char *code = peek(argc, argv, "code");
  if (code && is_dem_code(code))
    return impactfit_cmd_dem(argc, argv); /* the DEM codes: impactfit dem's options and answer */
  const char *version = peek(argc, argv, "version"), *model = peek(argc, argv, "model");
  const impactfit_engine_model *md = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  int listing = 0, helping = 0;
  for (int i = 2; i < argc; i++) {
    listing |= strcmp(argv[i], "--list") == 0;
    helping |= strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
  }
  if (code && !listing && !helping) {
    int st = impactfit_engine_model_find(code, version, model, &md, &err);
    if (st)
      return cli_status_error(st, &err, "engine");
  }
  /* --set NAME=V,... are taken out of argv first (they may repeat) */
  impactfit_engine_request q = impactfit_engine_default_request();
  q.model = md;
  char **args = malloc(sizeof *args * (size_t)(argc + 1));
  if (!args)
    return cli_input_error("engine: out of memory");
  int nargs = 0, rc = 0;
  char *sets[IMPACTFIT_ENGINE_MAX_SETTINGS];
  int nsets = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
    if (i >= 2 && strcmp(a, "--set") == 0) {
      if (i + 1 >= argc) {
        free(args);
        return cli_input_error("engine: --set needs NAME=V1,V2,...");
      }
      val = argv[++i];
    } else if (i >= 2 && strncmp(a, "--set=", 6) == 0) {
      val = a + 6;
    }
    if (val) {
      if (nsets == IMPACTFIT_ENGINE_MAX_SETTINGS) {
        free(args);
        return cli_input_error("engine: too many --set");
      }
      sets[nsets++] = (char *)val;
      continue;
    }
    args[nargs++] = argv[i];
  }
  args[nargs] = NULL;
  const char *integrator = NULL, *vrange = NULL, *setting_text[IMPACTFIT_ENGINE_MAX_SETTINGS] = {0};
  double density = NAN, r2 = NAN, m2 = NAN, dt = NAN;
  int json = 0, help = 0, list = 0;
  q.bodies.m1 = NAN;
  cli_spec opts[16 + IMPACTFIT_ENGINE_MAX_SETTINGS] = {
      CLI_STR("code", &code),
      CLI_STR("version", &version),
      CLI_STR("model", &model),
      CLI_STR("integrator", &integrator),
      CLI_DBL("dt", &dt, 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--dt: the time step must be > 0 (s), got %.17g"),
      CLI_DBL("e", &q.e, 0.0, 1.0, CLI_LO_OPEN | CLI_HI_OPEN | CLI_IF_SEEN, "--e: expected 0 < e < 1, got %.17g"),
      CLI_DBL("value", &q.value, 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--value: must be > 0, got %.17g"),
      CLI_DBL("v", &q.v, 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--v: the impact speed must be > 0 (m/s), got %.17g"),
      CLI_STR("v-range", &vrange),
      CLI_DBL("mass", &q.bodies.m1, 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--mass: must be > 0 (kg), got %.17g"),
      CLI_DBL("density", &density, 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--density: must be > 0 (kg/m^3), got %.17g"),
      CLI_DBL("radius", &q.bodies.r1, 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--radius: must be > 0 (m), got %.17g"),
      CLI_DBL("m2", &m2, 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--m2: must be > 0 (kg), got %.17g"),
      CLI_DBL("r2", &r2, 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--r2: must be > 0 (m), got %.17g"),
      CLI_FLAG("json", &json),
      CLI_FLAG("list", &list),
  };
  size_t nopts = 16;
  for (int k = 0; md && k < md->n_inputs; k++)
    opts[nopts++] = (cli_spec)CLI_STR(md->inputs[k].name, &setting_text[k]);
  rc = cli_options(nargs, args, opts, nopts, help_text, &help, NULL, 0, NULL);
  free(args);
  if (rc || help)
    return rc;
  if (list) {
    if (code && !impactfit_engine_default_version(code))
      return cli_input_error("engine: unknown engine '%s' (engines: mujoco, simbody, ode, bullet, chrono; DEM codes: "
                             "impactfit dem --list)",
                             code);
    print_list(code, json);
    return CLI_OK;
  }
  if (!code)
    return cli_input_error("engine: --code is required (mujoco, simbody, ode, bullet, chrono; or a DEM code)");
  if (!version)
    version = impactfit_engine_default_version(md->code);
  /* the settings: --NAME V,... and --set NAME=V,... */
  for (int k = 0; k < md->n_inputs; k++)
    if (setting_text[k] && (rc = parse_setting(md->inputs[k].name, setting_text[k], &q.settings[q.n_settings++])))
      return rc;
  for (int s = 0; s < nsets; s++) {
    char *eq = strchr(sets[s], '=');
    if (!eq)
      return cli_input_error("engine: --set takes NAME=V1,V2,... (got '%s')", sets[s]);
    *eq = 0;
    int k = -1;
    for (int i = 0; i < md->n_inputs; i++)
      if (strcmp(md->inputs[i].name, sets[s]) == 0)
        k = i;
    if (k < 0) {
      char list_buf[512] = "";
      for (int i = 0; i < md->n_inputs; i++)
        snprintf(list_buf + strlen(list_buf), sizeof list_buf - strlen(list_buf), "%s%s", i ? ", " : "",
                 md->inputs[i].name);
      return cli_input_error("engine: %s '%s' has no setting '%s' (its settings: %s)", md->code, md->model, sets[s],
                             list_buf);
    }
    for (int i = 0; i < q.n_settings; i++)
      if (strcmp(q.settings[i].name, md->inputs[k].name) == 0)
        return cli_input_error("engine: setting %s given twice", sets[s]);
    if (q.n_settings == IMPACTFIT_ENGINE_MAX_SETTINGS)
      return cli_input_error("engine: too many settings");
    if ((rc = parse_setting(md->inputs[k].name, eq + 1, &q.settings[q.n_settings++])))
      return rc;
  }
  /* the bodies */
  if (!cli_given(opts, nopts, "v"))
    return cli_input_error("engine: --v is required (the impact speed, m/s)");
  if (!isnan(density) && !isnan(q.bodies.m1))
    return cli_input_error("engine: give --mass or --density, not both");
  if (isnan(density) && isnan(q.bodies.m1))
    return cli_input_error("engine: give the sphere's --mass (kg) or its --density (kg/m^3, with --radius)");
  if (!isnan(density))
    q.bodies.m1 = impactfit_dem_sphere_mass(q.bodies.r1, density);
  if (!isnan(m2) || !isnan(r2)) {
    q.bodies.plane = 0;
    q.bodies.r2 = isnan(r2) ? q.bodies.r1 : r2;
    q.bodies.m2 = isnan(m2) ? (isnan(density) ? q.bodies.m1 : impactfit_dem_sphere_mass(q.bodies.r2, density)) : m2;
  }
  q.integrator = integrator;
  q.dt = dt;
  impactfit_engine_answer a;
  int st = impactfit_engine_solve(&q, &a, &err);
  if (st)
    return cli_status_error(st, &err, "engine");
  if (json)
    print_json(md, version, &q, &a);
  else
    print_text(md, version, &q, &a);
  if (vrange && a.reachable) {
    double *vals = NULL;
    size_t n;
    if ((rc = cli_parse_grid("--v-range", vrange, &vals, &n)))
      return rc;
    if (n != 2 || !(vals[0] > 0.0 && vals[1] > vals[0])) {
      free(vals);
      return cli_input_error("engine: --v-range takes two speeds 0 < A < B (m/s)");
    }
    impactfit_engine_request r = q;
    r.e = NAN;
    r.value = a.value;
    for (int i = 0; i < 7; i++) {
      r.v = vals[0] * pow(vals[1] / vals[0], i / 6.0);
      impactfit_engine_answer b;
      if ((st = impactfit_engine_solve(&r, &b, &err))) {
        free(vals);
        return cli_status_error(st, &err, "engine");
      }
      if (json) {
        cli_json j;
        cli_json_begin(&j, stdout);
        cli_json_num(&j, "v", r.v);
        cli_json_num(&j, "e_mean", b.e_mean);
        cli_json_num(&j, "e_min", b.e_min);
        cli_json_num(&j, "e_max", b.e_max);
        cli_json_num(&j, "e_continuous", b.e_continuous);
        cli_json_end(&j);
      } else {
        printf("#   at v = %-10.6g m/s: e = %.6f (one impact %.6f to %.6f), continuous %.6f\n", r.v, b.e_mean, b.e_min,
               b.e_max, b.e_continuous);
      }
    }
    free(vals);
  }
  return CLI_OK;
}
