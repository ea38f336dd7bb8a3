/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report module (static library impactfit_report, src/report; not installed, not part of
 * libimpactfit): the reproduction of the published results (`impactfit reproduce`) and their audit
 * against the committed expectations (`impactfit check`). The program's commands are front ends
 * that parse the options and call these functions; the module itself uses only the public library
 * headers impactfit/NAME.h, the support library impactfit_tools (tools.h, progress.h, roller_table.h)
 * and its own headers. The topics are listed in topics.def (one file topic_<name>.c each, report.h).
 *
 * The functions print their errors ("impactfit: error: ...") and return the program's exit codes
 * (tools.h): CLI_OK, CLI_NUMERIC (a numerical failure, a changed figure or a missed target) or
 * CLI_INPUT (invalid input, an unreadable or unwritable file). */
#ifndef IMPACTFIT_REPORT_API_H
#define IMPACTFIT_REPORT_API_H

#include <stddef.h>

typedef struct impactfit_report_options {
  const char *src;        /* the repository (sweeps/, fits/, include/impactfit/generated/, tests/published/) */
  const char *out;        /* reproduce: the report directory */
  const char *topic;      /* one topic only (a name of topics.def), NULL: all of them */
  int quick;              /* reproduce: coarse grids */
  int quiet;              /* reproduce: no progress lines */
  int json;               /* check: one JSON object per figure, then a summary object */
  int write_expectations; /* check: (re)write tests/published/<topic>.ini from this run */
} impactfit_report_options;

/* The topics in report order: name and one-line summary; i < impactfit_report_topic_count(). */
size_t impactfit_report_topic_count(void);
const char *impactfit_report_topic_name(size_t i);
const char *impactfit_report_topic_summary(size_t i);
/* 1 when name is a topic of topics.def, 0 otherwise. */
int impactfit_report_topic_known(const char *name);

/* Runs the topics (all, or o->topic) and writes o->out/REPORT.md, index.html, claims.json and
 * timings.txt (report.h), staged in o->out/.impactfit-tmp.<pid>; prints the wall time on stdout.
 * The caller runs it in a child process and removes the stage afterwards whatever happened
 * (impactfit_report_remove_stage), so that no exit path leaves it behind. */
int impactfit_report_run(const impactfit_report_options *o);
/* Removes o->out's staging directory of the process pid (see impactfit_report_run), if any. */
void impactfit_report_remove_stage(const char *out, long pid);

/* Recomputes the topics (all, or o->topic) on their modest grids, prints one line (or JSON object)
 * per claim and per target, and compares each measured figure with its expectation in
 * o->src/tests/published/<topic>.ini (or rewrites that file, o->write_expectations). CLI_NUMERIC
 * when a figure changed or a target was missed. */
int impactfit_report_check(const impactfit_report_options *o);

#endif
