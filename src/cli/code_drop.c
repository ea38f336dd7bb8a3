/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `impactfit engine --drop H`: a drop test on one registry entry (include/impactfit/code_drop.h): the bounce
 * sequence the code produces at the user's step, the determined bounces, the user's fit of e (this release
 * and its distribution over releases), where the sequence ends, and with --e the input whose fitted e is the
 * asked e. Text or one JSON object (--json). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "code_cli.h"
#include "impactfit/impactfit.h"

static const char *on_name(int on) {
  return on == IMPACTFIT_CODE_DROP_RELEASE ? "release" : on == IMPACTFIT_CODE_DROP_MEAN ? "mean" : "forward";
}

static const char *reading_name(impactfit_drop_reading r) { return r == IMPACTFIT_DROP_SPEEDS ? "speeds" : "heights"; }

/* the options into drop.h's parameters, every one checked */
static int drop_params(const char *what, const code_drop_opts *d, impactfit_drop_params *p) {
  *p = impactfit_drop_default_params();
  if (!(isfinite(d->height) && d->height > 0.0))
    return cli_input_error("%s: --drop: the release height must be > 0 (m), got %.17g", what, d->height);
  p->height = d->height;
  if (d->bounces < 1 || d->bounces > IMPACTFIT_DROP_MAX_BOUNCES)
    return cli_input_error("%s: --bounces must be in [1, %d] (got %d)", what, IMPACTFIT_DROP_MAX_BOUNCES, d->bounces);
  p->bounces = d->bounces;
  if (!(d->peak >= 0.0 && d->peak < d->height))
    return cli_input_error("%s: --peak: the apex threshold must be >= 0 and below the release height (m), got %.17g",
                           what, d->peak);
  p->min_height = d->peak;
  if (!(d->t_max >= 0.0 && isfinite(d->t_max)))
    return cli_input_error("%s: --t-max must be >= 0 (s; 0: no bound), got %.17g", what, d->t_max);
  p->t_max = d->t_max;
  if (d->releases < 1 || d->releases > 4096)
    return cli_input_error("%s: --releases must be in [1, 4096] (got %d)", what, d->releases);
  if (!d->reading || strcasecmp(d->reading, "heights") == 0)
    p->reading = IMPACTFIT_DROP_HEIGHTS;
  else if (strcasecmp(d->reading, "speeds") == 0)
    p->reading = IMPACTFIT_DROP_SPEEDS;
  else
    return cli_input_error("%s: --reading takes heights (h_n = e^(2n) h_0 fitted) or speeds (the mean of "
                           "v_out/v_in), got '%s'",
                           what, d->reading);
  return 0;
}

static void print_json(const impactfit_code_drop_answer *a) {
  const impactfit_drop_stats *S = &a->stats;
  const impactfit_drop_result *r = &S->exact;
  cli_json j;
  cli_json_begin(&j, stdout);
  cli_json_str(&j, "code", a->model->code->name);
  cli_json_str(&j, "version", a->version);
  cli_json_str(&j, "model", a->model->model);
  cli_json_str(&j, "integrator", a->integrator ? a->integrator->name : "");
  cli_json_num(&j, "dt", a->dt);
  cli_json_num(&j, "gravity", a->gravity);
  cli_json_num(&j, "mass", a->mass);
  cli_json_num(&j, "height", a->params.height);
  cli_json_int(&j, "bounces", a->params.bounces);
  cli_json_num(&j, "peak", a->params.min_height);
  cli_json_num(&j, "t_max", a->params.t_max);
  cli_json_str(&j, "reading", reading_name(a->params.reading));
  cli_json_int(&j, "releases", a->releases);
  cli_json_num(&j, "e_asked", a->e_asked);
  cli_json_str(&j, "solved_on", on_name(a->on));
  cli_json_int(&j, "reachable", a->reachable);
  cli_json_int(&j, "jump", a->jump);
  cli_json_str(&j, "param", a->model->param);
  cli_json_num(&j, "value", a->value);
  cli_json_str(&j, "input", a->input ? a->input : "");
  int ok = a->reachable;
  cli_json_num(&j, "e_fit", ok ? r->e_fit : NAN);
  cli_json_num(&j, "e_heights", ok ? r->e_heights : NAN);
  cli_json_num(&j, "e_speeds", ok ? r->e_speeds : NAN);
  cli_json_num(&j, "h0_fit", ok ? r->h0_fit : NAN);
  cli_json_num(&j, "r2", ok ? r->r2 : NAN);
  cli_json_int(&j, "counted", ok ? r->n : 0);
  cli_json_int(&j, "determined", ok ? S->determined : 0);
  cli_json_str(&j, "ends", ok ? impactfit_drop_end_name(r->end) : "");
  cli_json_num(&j, "low_apex", ok && r->end == IMPACTFIT_DROP_LOW ? r->low_apex : NAN);
  cli_json_int(&j, "steps", ok ? r->steps : 0);
  cli_json_num(&j, "e_mean", ok ? S->e_mean : NAN);
  cli_json_num(&j, "e_sd", ok ? S->e_sd : NAN);
  cli_json_range(&j, "e_range", ok ? S->e_min : NAN, ok ? S->e_max : NAN);
  cli_json_int(&j, "n_min", ok ? S->n_min : 0);
  cli_json_int(&j, "n_max", ok ? S->n_max : 0);
  fputs(",\"bounce\":[", stdout);
  for (int i = 0; ok && i < r->n; i++) {
    const impactfit_drop_bounce *b = &r->b[i];
    cli_json o;
    if (i)
      fputc(',', stdout);
    cli_json_begin(&o, stdout);
    cli_json_int(&o, "n", i + 1);
    cli_json_num(&o, "apex", b->apex);
    cli_json_num(&o, "t_apex", b->t_apex);
    cli_json_num(&o, "v_in", b->v_in);
    cli_json_num(&o, "v_out", b->v_out);
    cli_json_num(&o, "phase", b->phase);
    cli_json_int(&o, "first_step", b->first_step);
    cli_json_int(&o, "contact_steps", b->contact_steps);
    cli_json_int(&o, "determined", i < S->determined);
    fputc('}', stdout);
  }
  fputs("]", stdout);
  cli_json_str(&j, "note", a->note ? a->note : "");
  cli_json_int(&j, "run_here", a->run_here);
  cli_json_str(&j, "source", a->model->source);
  cli_json_end(&j);
}

static void print_text(const impactfit_code_drop_answer *a) {
  const impactfit_code_model *md = a->model;
  const impactfit_drop_stats *S = &a->stats;
  const impactfit_drop_result *r = &S->exact;
  printf("# %s %s, model '%s', integrator %s, dt = %.6g s, effective mass %.6g kg (sphere over a plane)%s\n",
         md->code->name, a->version, md->model, a->integrator->name, a->dt, a->mass,
         a->run_here ? "" : " [formula only]");
  printf("# drop test: released from rest %.6g m above the plane, gravity %.6g m/s^2; at most %d bounces",
         a->params.height, a->gravity, a->params.bounces);
  if (a->params.min_height > 0.0)
    printf(", apexes above %.6g m", a->params.min_height);
  printf("; e read from the %s\n", a->params.reading == IMPACTFIT_DROP_SPEEDS ? "speeds (mean of v_out/v_in)"
                                                                              : "heights (h_n = e^(2n) h_0 fitted)");
  if (!a->reachable) {
    printf("# note: %s\n", a->note);
    return;
  }
  if (a->on == IMPACTFIT_CODE_DROP_FORWARD)
    printf("%s\n# %s = %.12g gives the bounce sequence:\n", a->input, md->param, a->value);
  else
    printf("# to get a fitted e = %.6g (on %s) type %s = %.12g:\n%s\n# the bounce sequence it gives:\n", a->e_asked,
           a->on == IMPACTFIT_CODE_DROP_RELEASE ? "this release's fit: its sequence is determined"
                                                : "the mean fit over the releases",
           md->param, a->value, a->input);
  printf("#   %3s %-14s %-10s %-12s %-12s %-10s %-8s %-5s %s\n", "n", "apex (m)", "t_apex (s)", "v_in (m/s)",
         "v_out (m/s)", "out/in", "phase", "steps", "determined");
  for (int i = 0; i < r->n; i++) {
    const impactfit_drop_bounce *b = &r->b[i];
    printf("#   %3d %-14.10g %-10.6g %-12.8g %-12.8g %-10.8f %-8.6f %-5ld %s\n", i + 1, b->apex, b->t_apex, b->v_in,
           b->v_out, b->v_out / b->v_in, b->phase, b->contact_steps, i < S->determined ? "yes" : "no");
  }
  printf("# ends: %s", impactfit_drop_end_name(r->end));
  if (r->end == IMPACTFIT_DROP_LOW)
    printf(" (the next apex %.6g m is below %.6g m)", r->low_apex, a->params.min_height);
  printf("; %d of %d bounces determined\n", S->determined, r->n);
  printf("# this release's fit: e = %.10f (heights %.10f, R^2 %.8f; speeds %.10f)\n", r->e_fit, r->e_heights, r->r2,
         r->e_speeds);
  printf("# over %d releases (one step of the first impact's travel): e mean %.10f, sd %.3g, from %.8f to %.8f "
         "(%d to %d bounces)\n",
         S->samples, S->e_mean, S->e_sd, S->e_min, S->e_max, S->n_min, S->n_max);
  if (a->note[0])
    printf("# note: %s\n", a->note);
}

int code_run_drop(const char *what, const code_drop_opts *d, const char *s_e, const char *s_value, int json,
                  impactfit_code_request *q) {
  impactfit_drop_params p;
  int rc = drop_params(what, d, &p);
  if (rc)
    return rc;
  if (s_e && s_value)
    return cli_input_error("%s: give --e (the fitted e you want) or --value (what you type), not both", what);
  if (s_e && (rc = cli_parse_double("--e", s_e, &q->e)))
    return rc;
  if (s_e && !(q->e > 0.0 && q->e < 1.0))
    return cli_input_error("--e: the restitution must be in (0, 1), got %.17g", q->e);
  if (s_value && (rc = cli_parse_double("--value", s_value, &q->value)))
    return rc;
  if (!s_e && !s_value && !q->model->param_input)
    return cli_input_error("%s: --drop: --e is required (the fitted e you want, 0 < e < 1), or --value to see what a "
                           "typed value gives",
                           what);
  impactfit_code_drop_answer a;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_code_drop(q, &p, d->releases, &a, &err);
  if (st)
    rc = cli_status_error(st, &err, what);
  else {
    if (json)
      print_json(&a);
    else
      print_text(&a);
    fflush(stdout);
    rc = ferror(stdout) ? cli_input_error("%s: cannot print the answer", what) : CLI_OK;
  }
  impactfit_code_drop_free(&a);
  return rc;
}
