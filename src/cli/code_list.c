/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `impactfit dem --list` / `impactfit engine --list` (code_cli.h): the codes of the registry, a code's models,
 * one line per model, or one JSON object per model (one set of keys for every model). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "code_cli.h"
#include "impactfit/impactfit.h"

/* a model of a DEM code: continuous time only, the power law by impact.h */
static int dem_only(const impactfit_code_model *md) {
  return md->n_integrators == 1 && !md->integrators[0].stepper && md->solver != IMPACTFIT_CODE_SOLVE_MEAN;
}

static void integrator_list(const impactfit_code_model *md, int continuous_only, impactfit_text *t) {
  for (int i = 0; i < md->n_integrators; i++)
    if (!continuous_only || !md->integrators[i].stepper)
      impactfit_text_appendf(t, "%s%s", t->len ? "," : "", md->integrators[i].name);
}

static void settings_list(const impactfit_code_model *md, impactfit_text *t) {
  for (int i = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    impactfit_text_appendf(t, "%s%s (%s)", i ? ", " : "", in->name, in->unit);
  }
}

static const char *kn_unit(const impactfit_code_model *md) {
  const impactfit_code_input *in = impactfit_code_input_find(md, "kn");
  return in ? in->unit : "";
}

/* The JSON objects of the models: the keys of a DEM model first (in the order they always had), then the
 * integrators and the texts. */
typedef struct list_row {
  const char *code, *clamp_default, *clamp_switch, *kn_unit, *run_versions, *force, *integrators, *continuous;
  const char *end, *bodies, *traps, *mixing, *assumes, *precision, *settings;
  int run_here;
  double dt_default;
} list_row;
enum { LM, LR };
#define OF_MD(f) CLI_FIELD_OF(LM, #f, impactfit_code_model, f)
#define OF_LR(f) CLI_FIELD_OF(LR, #f, list_row, f)
static const cli_field list_fields[] = {OF_LR(code),
                                        OF_MD(versions),
                                        OF_MD(model),
                                        CLI_FIELD_OF(LM, "damping", impactfit_code_model, option),
                                        OF_MD(param),
                                        OF_MD(param_unit),
                                        OF_MD(n),
                                        OF_MD(m),
                                        OF_LR(clamp_default),
                                        OF_LR(clamp_switch),
                                        OF_LR(kn_unit),
                                        OF_MD(takes_e),
                                        OF_LR(run_here),
                                        CLI_FIELD_OF(LM, "law", impactfit_code_model, law_text),
                                        OF_MD(source),
                                        OF_MD(first_version),
                                        CLI_FIELD_OF(LM, "default_damping", impactfit_code_model, default_option),
                                        OF_LR(run_versions),
                                        OF_LR(force),
                                        OF_LR(integrators),
                                        OF_LR(dt_default),
                                        OF_LR(continuous),
                                        OF_LR(end),
                                        OF_LR(bodies),
                                        OF_LR(traps),
                                        OF_LR(mixing),
                                        OF_LR(assumes),
                                        OF_LR(precision),
                                        OF_LR(settings)};

static void print_json(const impactfit_code_model *md) {
  impactfit_text force = IMPACTFIT_TEXT_INIT, ints = IMPACTFIT_TEXT_INIT, cont = IMPACTFIT_TEXT_INIT;
  impactfit_text settings = IMPACTFIT_TEXT_INIT;
  impactfit_code_force_text(md, &force);
  integrator_list(md, 0, &ints);
  integrator_list(md, 1, &cont);
  settings_list(md, &settings);
  list_row r = {.code = md->code->name,
                .clamp_default = md->clamp_default ? "C" : "A",
                .clamp_switch = md->clamp_switch ? md->clamp_switch : "",
                .kn_unit = kn_unit(md),
                .run_versions = md->run_versions ? md->run_versions : "",
                .force = impactfit_text_str(&force),
                .integrators = impactfit_text_str(&ints),
                .continuous = impactfit_text_str(&cont),
                .end = md->end ? md->end : "",
                .bodies = md->bodies ? md->bodies : "",
                .traps = md->traps ? md->traps : "",
                .mixing = md->mixing ? md->mixing : "",
                .assumes = md->assumes ? md->assumes : "",
                .precision = md->precision ? md->precision : "",
                .settings = impactfit_text_str(&settings),
                .run_here = md->run_min != 0,
                .dt_default = md->dt_default > 0.0 ? md->dt_default : NAN};
  const void *objs[] = {md, &r};
  cli_json_object_of(stdout, objs, list_fields, CLI_COUNT(list_fields));
  impactfit_text_free(&force);
  impactfit_text_free(&ints);
  impactfit_text_free(&cont);
  impactfit_text_free(&settings);
}

static void print_brief(const impactfit_code_model *md) {
  impactfit_text force = IMPACTFIT_TEXT_INIT;
  impactfit_code_force_text(md, &force);
  char name[160];
  snprintf(name, sizeof name, "%s%s%s", md->model, *md->option ? " --damping " : "", md->option);
  const char *law = force.len > 4 ? impactfit_text_str(&force) + 4 : md->law ? md->law->name : "constraint row";
  printf("%-8s %-48s %-10s %-21s %-40s %s\n", md->code->name, name, md->param, law, md->versions,
         md->run_min ? "run here" : "formula only");
  impactfit_text_free(&force);
}

static void print_dem_block(const impactfit_code_model *md) {
  impactfit_text force = IMPACTFIT_TEXT_INIT;
  impactfit_code_force_text(md, &force);
  printf("%s %s%s%s%s  [versions %s]\n  %s: %s\n  you type: %s (%s); %s; end: %s%s%s\n  %s\n  source: %s\n\n",
         md->code->name, md->model, *md->option ? " --damping " : "", md->option,
         md->default_option ? " (the code's default damping)" : "", md->versions,
         md->run_min ? "run here" : "formula only", md->run_min ? md->run_versions : "not run here", md->param,
         md->param_unit, impactfit_text_str(&force),
         md->clamp_default ? "force clamped at zero (C)" : "tensile until d = 0 (A)",
         md->clamp_switch ? "; switch: " : "", md->clamp_switch ? md->clamp_switch : "", md->law_text, md->source);
  impactfit_text_free(&force);
}

static void print_values(const impactfit_code_input *in) {
  for (int j = 0; j < in->count; j++)
    printf("%s%.12g", j ? "," : "", in->def[j]);
}

static void print_engine_block(const impactfit_code_model *md) {
  impactfit_text ints = IMPACTFIT_TEXT_INIT, cont = IMPACTFIT_TEXT_INIT;
  integrator_list(md, 0, &ints);
  integrator_list(md, 1, &cont);
  printf("%s '%s'%s%s  [%s]%s\n", md->code->name, md->model, *md->option ? " --damping " : "", md->option, md->versions,
         md->run_min ? "" : "  (formula only, not run here)");
  /* the step: the code's default, none (the user gives --dt), or none at all for continuous-time integrators */
  impactfit_text step = IMPACTFIT_TEXT_INIT;
  if (cont.len == ints.len)
    impactfit_text_appendf(&step, "continuous time: no time step (give no --dt)");
  else {
    if (md->dt_default > 0.0)
      impactfit_text_appendf(&step, "default dt %g s", md->dt_default);
    else if (cont.len)
      impactfit_text_appendf(&step, "no default dt: give --dt, or none for continuous time (%s)",
                             impactfit_text_str(&cont));
    else
      impactfit_text_appendf(&step, "no default dt (give --dt)");
    if (md->dt_default > 0.0 && cont.len)
      impactfit_text_appendf(&step, "; continuous time, no time step: %s", impactfit_text_str(&cont));
  }
  printf("  solves for: %s (%s); integrators: %s (default first); %s\n", md->param, md->param_unit,
         impactfit_text_str(&ints), impactfit_text_str(&step));
  impactfit_text_free(&step);
  for (int k = 0; k < md->n_inputs; k++) {
    const impactfit_code_input *in = &md->inputs[k];
    printf("  --%s ", in->name);
    if (isnan(in->def[0]))
      printf("(required)");
    else
      print_values(in);
    printf("  [%s%s] %s%s%s\n", in->unit, in->per_body ? "; per body: one value for both or one each" : "", in->help,
           in->alias ? "; also --" : "", in->alias ? in->alias : "");
  }
  printf("  law: %s\n  end: %s\n  bodies: %s\n  traps: %s\n  source: %s\n\n", md->law_text, md->end, md->bodies,
         md->traps ? md->traps : "", md->source);
  impactfit_text_free(&ints);
  impactfit_text_free(&cont);
}

void code_print_list(const impactfit_code *code, int json, int brief) {
  if (!code && !json && !brief) {
    printf("codes (--list --code CODE for the models, --list --brief for all):\n");
    for (size_t i = 0; i < impactfit_code_count(); i++) {
      const impactfit_code *c = impactfit_code_at(i);
      printf("  %-9s %-10s default version %s\n", c->name, c->kind, c->default_version);
    }
    return;
  }
  size_t n = 0;
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    if (code && md->code != code)
      continue;
    n++;
    if (json)
      print_json(md);
    else if (brief)
      print_brief(md);
    else if (dem_only(md))
      print_dem_block(md);
    else
      print_engine_block(md);
  }
  if (brief && !json)
    printf("(%zu entries; '--list --code CODE' gives each one's law, settings and source)\n", n);
}
