/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit fit: runs the stages of a fit file on a sweep's CSV and writes a generated C header. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"
#include "progress.h"

static const char *const help_text = cli_help_fit; /* docs/cli/fit.txt */

/* Opens o at path and writes text to its temporary file (committed later by the caller). */
static int write_text(cli_out *o, const char *path, const char *text, size_t len) {
  int rc = cli_out_open(o, path);
  if (rc)
    return rc;
  fwrite(text, 1, len, o->f);
  return 0;
}

static void report(const impactfit_fitfile *f) {
  printf("fit %s: sweep %s (%zu points)\n", impactfit_fitfile_name(f), impactfit_fitfile_sweep_path(f),
         impactfit_sweep_point_count(impactfit_fitfile_sweep(f)));
  for (size_t i = 0; i < impactfit_fitfile_stage_count(f); i++) {
    impactfit_fit_stage st;
    impactfit_fitfile_stage(f, i, &st);
    impactfit_fit_objective obj = st.spec->objective;
    printf("stage %s: %s(%s%s%s) by form %s, %s%s residuals%s%s, %zu rows used%s\n", st.name, st.y, st.x,
           st.x2 ? ", " : "", st.x2 ? st.x2 : "", st.spec->form->name,
           obj == IMPACTFIT_FIT_MINIMAX_ABSOLUTE || obj == IMPACTFIT_FIT_MINIMAX_RELATIVE ? "minimax of " : "",
           obj == IMPACTFIT_FIT_RELATIVE || obj == IMPACTFIT_FIT_MINIMAX_RELATIVE ? "relative" : "absolute",
           st.weights ? ", trapezoid weights" : "", st.spec->ridge > 0.0 ? ", ridge-regularised" : "",
           st.rows_used - st.rows_failed, st.rows_failed ? " (failed rows skipped)" : "");
    for (size_t g = 0; g < st.n_groups; g++) {
      const impactfit_fit_result *r = &st.results[g];
      if (st.group)
        printf("  %s = %.10g:", st.group, st.group_values[g]);
      else
        printf(" ");
      for (size_t j = 0; j < r->n_params; j++)
        printf(" %s = %.10g +- %.2g", r->names[j], r->value[j], r->se[j]);
      printf("; rms %.3g, max abs %.3g, max rel %.3g", r->rms, r->max_abs, r->max_rel);
      if (impactfit_fitfile_exact(f))
        printf(", mean abs %.3g, mean rel %.3g", r->mean_abs, r->mean_rel);
      if (r->n_params == 2)
        printf(", corr %.6f", r->corr[0][1]);
      printf("\n");
    }
  }
}

typedef struct fit_progress {
  cli_progress p;
  const impactfit_fitfile *f;
  size_t stage;
  int quiet, started;
} fit_progress;

/* One progress line per stage: its groups. */
static void on_fit_progress(void *ctx, size_t stage, size_t stages, size_t group, size_t groups) {
  fit_progress *fp = ctx;
  if (!fp->started || stage != fp->stage) {
    impactfit_fit_stage st;
    impactfit_fitfile_stage(fp->f, stage, &st);
    char label[200];
    snprintf(label, sizeof label, "fit %s, stage %s (%zu/%zu)", impactfit_fitfile_name(fp->f), st.name, stage + 1,
             stages);
    cli_progress_end(&fp->p);
    cli_progress_start(&fp->p, label, "groups", groups, 0, fp->quiet);
    fp->stage = stage;
    fp->started = 1;
  }
  cli_progress_update(&fp->p, group, 0);
}

int impactfit_cmd_fit(int argc, char **argv) {
  const char *data_dir = ".", *header_dir = NULL, *tables = NULL;
  int help = 0, quiet = 0;
  cli_spec opts[] = {
      CLI_STR("data", &data_dir),
      CLI_STR("header-dir", &header_dir),
      CLI_STR("tables", &tables),
      CLI_FLAG("quiet", &quiet),
  };
  const char *pos[1];
  size_t npos = 0;
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, pos, 1, &npos);
  if (rc || help)
    return rc;
  if (npos != 1)
    return cli_input_error("fit: expected one fit file (see 'impactfit fit --help')");
  if (!header_dir) /* next to the data: a fit never overwrites the committed headers unless asked */
    header_dir = data_dir;
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_fitfile *f = NULL;
  int st = impactfit_fitfile_load(pos[0], &f, &err);
  if (st)
    return cli_status_error(st == IMPACTFIT_EIO ? IMPACTFIT_EINVAL : st, &err, "fit");
  char path[4096];
  impactfit_table *t = NULL;
  char *text = NULL;
  size_t len = 0, nouts = 0, nopen = 0;
  cli_out *outs = NULL;
  /* the data must come from this very definition: the library checks the sidecar's hash */
  if ((st = impactfit_fitfile_load_data(f, data_dir, &t, &err))) {
    rc = cli_status_error(st == IMPACTFIT_EIO ? IMPACTFIT_EINVAL : st, &err, "fit");
    goto out;
  }
  fit_progress fp;
  memset(&fp, 0, sizeof fp);
  fp.f = f;
  fp.quiet = quiet;
  impactfit_fitfile_set_progress(f, on_fit_progress, &fp);
  st = impactfit_fitfile_run(f, t, &err);
  cli_progress_end(&fp.p);
  if (st) {
    rc = cli_status_error(st, &err, "fit");
    goto out;
  }
  if ((st = impactfit_codegen_header(f, &text, &len, &err))) {
    rc = cli_status_error(st, &err, "fit");
    goto out;
  }
  char dir[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s.h", cli_trim_dir(header_dir, dir, sizeof dir),
                       impactfit_fitfile_name(f)) >= sizeof path) {
    rc = cli_input_error("fit: header path too long");
    goto out;
  }
  /* Every output is written to its temporary file before any is renamed into place, so that an
   * unwritable --tables directory does not leave a new header behind a failed run. */
  nouts = 1 + (tables ? impactfit_fitfile_stage_count(f) : 0);
  if (!(outs = calloc(nouts, sizeof *outs))) {
    rc = cli_input_error("fit: out of memory");
    goto out;
  }
  if ((rc = cli_mkdir_p(header_dir)) || (tables && (rc = cli_mkdir_p(tables))))
    goto out;
  if ((rc = write_text(&outs[0], path, text, len)))
    goto out;
  nopen = 1;
  for (size_t i = 1; i < nouts; i++) {
    impactfit_fit_stage stg;
    impactfit_fitfile_stage(f, i - 1, &stg);
    char *tt;
    size_t tl;
    if ((st = impactfit_table_to_csv(stg.table, &tt, &tl, &err))) {
      rc = cli_status_error(st, &err, "fit");
      goto out;
    }
    snprintf(path, sizeof path, "%s/%s_%s.csv", cli_trim_dir(tables, dir, sizeof dir), impactfit_fitfile_name(f),
             stg.name);
    rc = write_text(&outs[i], path, tt, tl);
    free(tt);
    if (rc)
      goto out;
    nopen = i + 1;
  }
  for (size_t i = 0; i < nouts; i++) {
    if ((rc = cli_out_commit(&outs[i]))) {
      nopen = 0;
      for (size_t j = i + 1; j < nouts; j++)
        cli_out_abort(&outs[j]);
      goto out;
    }
  }
  nopen = 0;
  /* the fitted constants only once they are in their files: a failed run prints nothing */
  report(f);
  for (size_t i = 0; i < nouts; i++)
    printf("wrote %s\n", outs[i].path);
out:
  for (size_t i = 0; i < nopen; i++)
    cli_out_abort(&outs[i]);
  free(outs);
  free(text);
  impactfit_table_free(t);
  impactfit_fitfile_free(f);
  return rc;
}
