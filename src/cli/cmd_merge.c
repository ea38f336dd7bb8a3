/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit merge: joins the shards of a sweep (impactfit sweep --shard I/N) into the CSV and JSON
 * an unsharded run writes (the library's impactfit_sweep_merge, sweep_io.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"
#include "progress.h"

static const char *const help_text = cli_help_merge; /* docs/cli/merge.txt */

/* The progress line, started at the merge's first report (once the output is open). */
typedef struct merge_progress {
  cli_progress p;
  int quiet, started;
} merge_progress;

static void on_progress(void *ctx, const char *name, size_t rows, size_t total) {
  merge_progress *mp = ctx;
  if (!mp->started) {
    char label[300];
    snprintf(label, sizeof label, "merge %s", name);
    cli_progress_start(&mp->p, label, "rows", total, 0, mp->quiet);
    mp->started = 1;
  }
  cli_progress_update(&mp->p, rows, 0);
}

int impactfit_cmd_merge(int argc, char **argv) {
  const char *out_dir = NULL, *want = NULL;
  int help = 0, quiet = 0;
  cli_spec opts[] = {
      CLI_STR("out", &out_dir),
      CLI_STR("name", &want),
      CLI_FLAG("quiet", &quiet),
  };
  const char *pos[256];
  size_t npos = 0;
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, pos, 256, &npos);
  if (rc || help)
    return rc;
  if (npos == 0)
    return cli_input_error("merge: expected the directories holding the shards (see 'impactfit merge --help')");
  if (!out_dir && npos > 1)
    return cli_input_error("merge: the shards are in %zu directories: give --out DIR for the merged files", npos);
  if (!out_dir) /* one directory: the merged files go next to the shards, as an unsharded run writes them */
    out_dir = pos[0];
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_sweep_merge_result res;
  merge_progress mp;
  memset(&mp, 0, sizeof mp);
  mp.quiet = quiet;
  int st = impactfit_sweep_merge(pos, npos, want, out_dir, on_progress, &mp, &res, &err);
  if (mp.started)
    cli_progress_end(&mp.p);
  if (st) /* refusals name the merge; failed writes and allocations name the file */
    return cli_input_error("%s%s", st == IMPACTFIT_EIO || st == IMPACTFIT_ENOMEM ? "" : "merge: ", err.message);
  printf("merge %s: %zu shards, %zu rows, %lld failed -> %s\n", res.name, res.shards, res.rows, res.failed, res.csv);
  return CLI_OK;
}
