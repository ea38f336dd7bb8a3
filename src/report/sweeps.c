/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweeps of the report topics (report.h): a committed definition with one axis resampled, built
 * with the library's definition builder (sweep.h) instead of editing the definition's text; sweeps
 * and fits run as steps of the progress line. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/sweep.h"
#include "progress.h"
#include "report.h"

/* Copies what `full` fixes (parameters and options that differ from the problem's defaults, the
 * outputs when not all) into d. */
static int copy_fixed(const impactfit_sweep *full, impactfit_sweep_def *d, impactfit_error *err) {
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(full);
  int st = 0;
  for (size_t i = 0; i < pr->n_params && !st; i++) {
    double v = impactfit_sweep_param_value(full, i), def = pr->params[i].def;
    int is_default = !(pr->params[i].flags & IMPACTFIT_SWEEP_REQUIRED) && (v == def || (isnan(v) && isnan(def)));
    if (!impactfit_sweep_param_is_swept(full, i) && !is_default)
      st = impactfit_sweep_def_fixed(d, pr->params[i].name, v, err);
  }
  for (size_t j = 0; j < pr->n_options && !st; j++) {
    const char *v = impactfit_sweep_option_value(full, j);
    if (strcmp(v, pr->options[j].def) != 0)
      st = impactfit_sweep_def_option(d, pr->options[j].name, v, err);
  }
  const char *names[64];
  size_t n = 0;
  for (size_t k = 0; k < pr->n_outputs && k < 64; k++)
    if (impactfit_sweep_output_wanted(full, k))
      names[n++] = pr->outputs[k];
  if (!st && n < pr->n_outputs)
    st = impactfit_sweep_def_outputs(d, names, n, err);
  return st;
}

int report_sweep_with_axes(const impactfit_sweep *base, const char *label, const report_axis *axes, size_t n,
                           impactfit_sweep **out, impactfit_error *err) {
  impactfit_sweep_def *d = NULL;
  int st = impactfit_sweep_def_new(impactfit_sweep_get_problem(base), label, &d, err);
  if (!st)
    st = copy_fixed(base, d, err);
  for (size_t i = 0; i < n && !st; i++) {
    const report_axis *ax = &axes[i];
    if (ax->kind == IMPACTFIT_AXIS_LIST)
      st = impactfit_sweep_def_axis_values(d, ax->name, ax->values, ax->count, err);
    else
      st = impactfit_sweep_def_axis(d, ax->name, ax->kind, ax->start, ax->stop, ax->count, err);
  }
  if (!st)
    st = impactfit_sweep_def_build(d, out, err);
  impactfit_sweep_def_free(d);
  return st;
}

int report_sweep_variant(const impactfit_sweep *full, const char *label, const char *axis, size_t count,
                         impactfit_sweep **out, impactfit_error *err) {
  size_t n = impactfit_sweep_axis_count(full);
  report_axis *axes = calloc(n ? n : 1, sizeof *axes);
  if (!axes) {
    if (err) {
      err->status = IMPACTFIT_ENOMEM;
      snprintf(err->message, sizeof err->message, "out of memory");
    }
    return IMPACTFIT_ENOMEM;
  }
  int st = 0;
  for (size_t i = 0; i < n; i++) {
    const impactfit_sweep_axis *ax = impactfit_sweep_get_axis(full, i);
    int resample = strcmp(ax->name, axis) == 0;
    axes[i] = (report_axis){.name = ax->name,
                            .kind = ax->kind,
                            .start = ax->start,
                            .stop = ax->stop,
                            .count = resample ? count : ax->count,
                            .values = ax->values};
    if (resample && ax->kind == IMPACTFIT_AXIS_LIST && !st) {
      st = IMPACTFIT_EINVAL;
      if (err) {
        err->status = st;
        snprintf(err->message, sizeof err->message, "%.200s: the list axis %.100s cannot be resampled", label, axis);
      }
    }
  }
  if (!st)
    st = report_sweep_with_axes(full, label, axes, n, out, err);
  free(axes);
  return st;
}

int report_sweep_table(const topic_opts *o, const impactfit_sweep *s, impactfit_table **out,
                       impactfit_sweep_summary *summary, impactfit_error *err) {
  /* "sweep poursina2020_mass" for "sweeps/poursina2020_mass.ini (coarse: 8 values of n)" */
  const char *name = impactfit_sweep_name(s), *slash = strrchr(name, '/'), *dot = strstr(name, ".ini");
  if (slash && (!dot || slash < dot))
    name = slash + 1;
  dot = strstr(name, ".ini");
  char what[80];
  snprintf(what, sizeof what, "sweep %.*s", dot ? (int)(dot - name < 60 ? dot - name : 60) : 60, name);
  cli_progress_step(o->progress, what, "points", impactfit_sweep_point_count(s));
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  if (o->progress) {
    rp.poll = cli_progress_step_poll;
    rp.poll_ctx = o->progress;
  }
  int st = impactfit_sweep_run_table(s, &rp, out, summary, err);
  cli_progress_step_end(o->progress);
  return st;
}

typedef struct fit_step {
  cli_progress *p;
  const char *name;
  size_t stage; /* the stage of the step on the line; (size_t)-1 before the first */
} fit_step;

static void on_fit_group(void *ctx, size_t stage, size_t stages, size_t group, size_t groups) {
  fit_step *f = ctx;
  if (stage != f->stage) {
    char what[80];
    snprintf(what, sizeof what, "fit %.40s, stage %zu of %zu", f->name, stage + 1, stages);
    cli_progress_step(f->p, what, "groups", groups);
    f->stage = stage;
  }
  cli_progress_step_update(f->p, group);
}

int report_fit_table(const topic_opts *o, impactfit_fitfile *f, const impactfit_table *t, int flags,
                     impactfit_error *err) {
  fit_step fs = {o->progress, impactfit_fitfile_name(f), (size_t)-1};
  if (o->progress)
    impactfit_fitfile_set_progress(f, on_fit_group, &fs);
  int st = impactfit_fitfile_run_table(f, t, (unsigned)flags, err);
  impactfit_fitfile_set_progress(f, NULL, NULL);
  cli_progress_step_end(o->progress);
  return st;
}

void report_step_count(const topic_opts *o, size_t *done) {
  size_t d;
#pragma omp atomic capture
  d = ++*done;
  if (omp_get_thread_num() == 0) /* the main thread (the loops are not nested) */
    cli_progress_step_update(o->progress, d);
}
