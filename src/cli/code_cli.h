/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The command of the code registry (`impactfit dem` and `impactfit engine`, one command: cmd_code.c): its
 * printers of answers (code_print.c) and of the registry (code_list.c). CLI only. */
#ifndef IMPACTFIT_CLI_CODE_CLI_H
#define IMPACTFIT_CLI_CODE_CLI_H

#include <stddef.h>

#include "impactfit/codes.h"

/* How the points of a request are printed. */
typedef struct code_printer {
  const char *what; /* the command's name for messages: "dem" or "engine" */
  const impactfit_code_model *md;
  int json, csv, table; /* table: several points in text */
  int forward, single;  /* --value (or neither); one point */
  int head_done;        /* a table's heading is printed */
  size_t failed;
} code_printer;

/* impactfit_code_point_fn: prints one point of the grid (or its failure) */
int code_print_point(void *ctx, size_t index, const impactfit_code_request *q, double x, int status,
                     const impactfit_code_answer *a, const impactfit_error *err);

/* --list: the codes (code NULL, not brief, not json), a code's models, one line per model (brief) or
 * one JSON object per model. */
void code_print_list(const impactfit_code *code, int json, int brief);

/* --drop H and its options (code_drop.c): a drop test on the request's model. */
typedef struct code_drop_opts {
  double height, peak, t_max; /* m, m, s */
  int bounces, releases;
  const char *reading; /* "heights" (NULL) or "speeds" */
} code_drop_opts;

/* The drop test of q's model: --e (one value) or --value (or the settings' own), text or JSON. */
int code_run_drop(const char *what, const code_drop_opts *d, const char *s_e, const char *s_value, int json,
                  impactfit_code_request *q);

#endif
