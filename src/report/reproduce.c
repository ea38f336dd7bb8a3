/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reproduction run of the report module (impactfit_report.h): every topic of topics.def in
 * report order into one report; the command `impactfit reproduce` (src/cli/cmd_reproduce.c) is its
 * front end. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "impactfit_report.h"
#include "progress.h"
#include "report.h"
#include "tools.h"

static const struct {
  const char *name;
  int (*fn)(const topic_opts *, report *);
  const char *summary;
} topics[] = {
#define X(name, fn, summary) {name, fn, summary},
#include "topics.def"
#undef X
};

size_t impactfit_report_topic_count(void) { return sizeof topics / sizeof topics[0]; }
const char *impactfit_report_topic_name(size_t i) { return i < impactfit_report_topic_count() ? topics[i].name : NULL; }
const char *impactfit_report_topic_summary(size_t i) {
  return i < impactfit_report_topic_count() ? topics[i].summary : NULL;
}

int impactfit_report_topic_known(const char *name) {
  for (size_t i = 0; name && i < impactfit_report_topic_count(); i++)
    if (strcmp(topics[i].name, name) == 0)
      return 1;
  return 0;
}

int report_topic_run(size_t i, const topic_opts *o, report *r) { return topics[i].fn(o, r); }

/* CPU seconds (user + system) of this process and of its finished children (the DEM codes) so far */
static double cpu_seconds(void) {
  struct rusage a, b;
  getrusage(RUSAGE_SELF, &a);
  getrusage(RUSAGE_CHILDREN, &b);
  return (double)(a.ru_utime.tv_sec + a.ru_stime.tv_sec + b.ru_utime.tv_sec + b.ru_stime.tv_sec) +
         1e-6 * (double)(a.ru_utime.tv_usec + a.ru_stime.tv_usec + b.ru_utime.tv_usec + b.ru_stime.tv_usec);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

void impactfit_report_remove_stage(const char *out, long pid) {
  char stage[4096];
  snprintf(stage, sizeof stage, "%s/.impactfit-tmp.%ld", out, pid);
  /* a process killed a moment ago may still be closing a file in it: try again for up to 1 s */
  for (int i = 0; i < 100 && access(stage, F_OK) == 0; i++) {
    nftw(stage, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
    if (access(stage, F_OK) == 0)
      nanosleep(&(struct timespec){0, 10000000L}, NULL);
  }
}

int impactfit_report_run(const impactfit_report_options *opt) {
  const char *out = opt->out, *src = opt->src, *only = opt->topic;
  int quick = opt->quick, quiet = opt->quiet;
  int rc;
  report *r = report_open(out, 1);
  if (!r)
    return CLI_INPUT;
  cli_progress prog;
  size_t ntopics = only ? 1 : sizeof topics / sizeof topics[0], done = 0;
  cli_progress_start(&prog, "reproduce", "topics", ntopics, 0, quiet);
  topic_opts o = {.srcdir = src, .outdir = out, .quick = quick, .log = quiet ? NULL : stderr, .progress = &prog};
  double t0 = omp_get_wtime(), c0 = cpu_seconds();
  for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++) {
    if (only && strcmp(topics[i].name, only) != 0)
      continue;
    double ti = omp_get_wtime(), ci = cpu_seconds();
    cli_progress_clear(&prog);
    if (o.log)
      fprintf(o.log, "impactfit reproduce: %s (%s)...\n", topics[i].name, topics[i].summary);
    cli_progress_note(&prog, topics[i].name);
    report_set_topic(r, topics[i].name);
    if ((rc = topics[i].fn(&o, r))) {
      cli_progress_end(&prog);
      report_discard(r);
      return rc;
    }
    cli_progress_clear(&prog);
    if (o.log)
      fprintf(o.log, "impactfit reproduce: %s done in %.1f s\n", topics[i].name, omp_get_wtime() - ti);
    /* wall and CPU time: on a machine shared with other work the wall time grows, the CPU time does not */
    report_timing(r, "%s: %.1f s wall, %.1f s CPU", topics[i].name, omp_get_wtime() - ti, cpu_seconds() - ci);
    cli_progress_update(&prog, ++done, 0);
    /* the test hook IMPACTFIT_TEST_HOLD_AFTER (progress.h): after N topics, before the report is
     * written, wait for the signal a test sends (the default action ends this process) */
    if (cli_test_hold_due(done))
      cli_test_hold_wait(NULL);
  }
  cli_progress_end(&prog);
  double wall = omp_get_wtime() - t0;
  report_timing(r, "topics: %.1f s wall, %.1f s CPU (%d threads, %d cores)", wall, cpu_seconds() - c0,
                omp_get_max_threads(), omp_get_num_procs());
  char title[128];
  snprintf(title, sizeof title, "impactfit: reproduction of the published results%s", quick ? " (quick grids)" : "");
  if ((rc = report_close(r, title, wall)))
    return rc;
  printf("impactfit reproduce: wrote %s/REPORT.md in %.1f s wall time (%d threads)\n", out, wall,
         omp_get_max_threads());
  return CLI_OK;
}
