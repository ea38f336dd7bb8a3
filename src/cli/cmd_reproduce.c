/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit reproduce: regenerates every published table and figure into reports/REPORT.md; the
 * front end of the report module (src/report, impactfit_report_run). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit_report.h"

static const char *const help_text = cli_help_reproduce; /* docs/cli/reproduce.txt */

/* The report is staged in OUT/.impactfit-tmp.PID (src/report/report.c). So that no exit path leaves it behind
 * (an error, Ctrl-C, SIGTERM, a crash), the work runs in a child process; this process waits for it,
 * passes SIGINT/SIGTERM/SIGHUP on, removes the child's staging directory whatever happened, and then
 * ends the way the child did (its exit status, or the same signal). */
static volatile sig_atomic_t forwarded_child;

/* The child leads its own process group, so that a signal reaches what it runs too (gnuplot, the
 * DEM codes), which would otherwise go on writing into the staging directory. */
static void forward_signal(int sig) {
  if (forwarded_child > 0)
    kill(-(pid_t)forwarded_child, sig);
}

int impactfit_cmd_reproduce(int argc, char **argv) {
  const char *out = "reports", *src = ".", *only = NULL;
  int quick = 0, help = 0, quiet = 0;
  cli_spec opts[] = {
      CLI_FLAG("quick", &quick), CLI_FLAG("quiet", &quiet), CLI_STR("out", &out),
      CLI_STR("src", &src),      CLI_STR("topic", &only),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), NULL, &help, NULL, 0, NULL);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    for (size_t i = 0; i < impactfit_report_topic_count(); i++)
      printf("  %-16s %s\n", impactfit_report_topic_name(i), impactfit_report_topic_summary(i));
    return CLI_OK;
  }
  if (only && !impactfit_report_topic_known(only))
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
    setpgid(0, 0);
    for (int i = 0; i < 3; i++)
      signal(sigs[i], SIG_DFL);
    impactfit_report_options ro = {.src = src, .out = out, .topic = only, .quick = quick, .quiet = quiet};
    int rc_child = impactfit_report_run(&ro);
    fflush(stdout);
    fflush(stderr);
    _exit(rc_child);
  }
  setpgid(child, child); /* also here: a signal may come before the child has run setpgid */
  forwarded_child = child;
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR)
    ;
  forwarded_child = 0;
  if (WIFSIGNALED(status)) /* what the child ran must not outlive it (it waits for them otherwise) */
    kill(-child, SIGKILL);
  impactfit_report_remove_stage(out, (long)child);
  for (int i = 0; i < 3; i++)
    sigaction(sigs[i], &old[i], NULL);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    fprintf(stderr, "impactfit: error: reproduce: stopped by %s; its temporary files in %s were removed\n",
            sig == SIGINT    ? "SIGINT"
            : sig == SIGTERM ? "SIGTERM"
            : sig == SIGHUP  ? "SIGHUP"
                             : "a signal",
            out);
    signal(sig, SIG_DFL);
    raise(sig);
    return 128 + sig;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : CLI_NUMERIC;
}
