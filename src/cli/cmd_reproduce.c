/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit reproduce: regenerates every published table and figure into reports/REPORT.md. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "impactfit/impactfit.h"
#include "progress.h"
#include "report.h"

static const char *help_text =
    "usage: impactfit reproduce [--quick] [--out DIR] [--src DIR] [--topic NAME] [--quiet]\n\n"
    "Runs every topic (the papers' sweeps and fits, the regenerated generated headers, the audits of\n"
    "the published formulas) and writes DIR/REPORT.md with its figures (gnuplot: SVG and PNG) and\n"
    "DIR/claims.json, the same report as a page DIR/index.html, and the wall times in DIR/timings.txt\n"
    "(REPORT.md, index.html and claims.json depend only on the results: two runs give identical files).\n"
    "The wall time is printed at the end. The fitted generated headers are\n"
    "regenerated: a full run rewrites one in SRC/include/impactfit/generated/ that differs from\n"
    "what the code makes and says so; --quick writes it to DIR and reports the difference.\n\n"
    "  --quick       coarse grids (about 15 s on 2 cores)\n"
    "  --out DIR     report directory, default reports\n"
    "  --src DIR     the repository (sweeps/, fits/, include/impactfit/generated/), default .\n"
    "  --topic NAME  run one topic only (see the list below)\n"
    "  --quiet       no progress (the topic log lines and, on a terminal, the progress line)\n\n"
    "Topics:\n";

static const struct {
  const char *name;
  int (*fn)(const topic_opts *, report *);
  const char *summary;
} topics[] = {
#define X(name, fn, summary) {name, fn, summary},
#include "topics.def"
#undef X
};

static int run(const char *out, const char *src, const char *only, int quick, int quiet);

/* The report is staged in OUT/.impactfit-tmp.PID (report.c). So that no exit path leaves it behind
 * (an error, Ctrl-C, SIGTERM, a crash), the work runs in a child process; this process waits for it,
 * passes SIGINT/SIGTERM/SIGHUP on, removes the child's staging directory whatever happened, and then
 * ends the way the child did (its exit status, or the same signal). */
static volatile sig_atomic_t forwarded_child;

static void forward_signal(int sig) {
  if (forwarded_child > 0)
    kill((pid_t)forwarded_child, sig);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

int impactfit_cmd_reproduce(int argc, char **argv) {
  const char *out = "reports", *src = ".", *only = NULL;
  int quick = 0, help = 0, quiet = 0;
  cli_opt opts[] = {
      {"quick", OPT_FLAG, &quick, 0},
      {"quiet", OPT_FLAG, &quiet, 0},
      {"out", OPT_STRING, &out, 0},
      {"src", OPT_STRING, &src, 0},
      {"topic", OPT_STRING, &only, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++)
      printf("  %-16s %s\n", topics[i].name, topics[i].summary);
    return CLI_OK;
  }
  int found = !only;
  for (size_t i = 0; i < sizeof topics / sizeof topics[0] && !found; i++)
    found = strcmp(topics[i].name, only) == 0;
  if (!found)
    return cli_input_error("--topic: unknown topic '%s' (see 'impactfit reproduce --help')", only);
  fflush(stdout);
  fflush(stderr);
  static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction sa, old[3];
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; i++)
    sigaction(sigs[i], &sa, &old[i]);
  pid_t child = fork();
  if (child < 0)
    return cli_input_error("reproduce: cannot start: %s", strerror(errno));
  if (child == 0) {
    for (int i = 0; i < 3; i++)
      signal(sigs[i], SIG_DFL);
    int rc_child = run(out, src, only, quick, quiet);
    fflush(stdout);
    fflush(stderr);
    _exit(rc_child);
  }
  forwarded_child = child;
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR)
    ;
  forwarded_child = 0;
  char stage[4096];
  snprintf(stage, sizeof stage, "%s/.impactfit-tmp.%ld", out, (long)child);
  nftw(stage, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
  for (int i = 0; i < 3; i++)
    sigaction(sigs[i], &old[i], NULL);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    fprintf(stderr, "impactfit: error: reproduce: stopped by %s; its temporary files in %s were removed\n",
            sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal", out);
    signal(sig, SIG_DFL);
    raise(sig);
    return 128 + sig;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : CLI_NUMERIC;
}

static int run(const char *out, const char *src, const char *only, int quick, int quiet) {
  int rc;
  report *r = report_open(out, 1);
  if (!r)
    return CLI_INPUT;
  cli_progress prog;
  size_t ntopics = only ? 1 : sizeof topics / sizeof topics[0], done = 0;
  cli_progress_start(&prog, "reproduce", "topics", ntopics, 0, quiet);
  topic_opts o = {src, out, quick, 0, quiet ? NULL : stderr, &prog};
  double t0 = omp_get_wtime();
  for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++) {
    if (only && strcmp(topics[i].name, only) != 0)
      continue;
    double ti = omp_get_wtime();
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
    report_timing(r, "%s: %.1f s", topics[i].name, omp_get_wtime() - ti);
    cli_progress_update(&prog, ++done, 0);
  }
  cli_progress_end(&prog);
  double wall = omp_get_wtime() - t0;
  char title[128];
  snprintf(title, sizeof title, "impactfit: reproduction of the published results%s", quick ? " (quick grids)" : "");
  if ((rc = report_close(r, title, wall)))
    return rc;
  printf("impactfit reproduce: wrote %s/REPORT.md in %.1f s wall time (%d threads)\n", out, wall,
         omp_get_max_threads());
  return CLI_OK;
}
