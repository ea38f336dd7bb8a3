/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit check: recomputes every published formula's accuracy and impactfit's own targets, and
 * compares the measured figures with the committed expectations in tests/published/; the front end
 * of the report module (src/report, impactfit_report_check). */
#define _XOPEN_SOURCE 700 /* readlink */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit_report.h"

static const char *const help_text = cli_help_check; /* docs/cli/check.txt */

#ifndef IMPACTFIT_DATADIR_REL
#define IMPACTFIT_DATADIR_REL "share" /* CMAKE_INSTALL_DATADIR */
#endif

static int has_sweeps(const char *dir) {
  char path[4300];
  struct stat st;
  if ((size_t)snprintf(path, sizeof path, "%.4200s/sweeps", dir) >= sizeof path)
    return 0;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The data check reads (sweeps/, fits/, tests/published/, the committed headers): the current
 * directory when it is the repository's top, else an installed impactfit's BINDIR/../share/impactfit
 * (cmake --install puts them there). NULL when neither has them. */
static const char *default_src(char *buf, size_t size) {
  if (has_sweeps("."))
    return ".";
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return NULL;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash)
    return NULL;
  *slash = '\0';
  snprintf(buf, size, "%s/../%s/impactfit", exe, IMPACTFIT_DATADIR_REL);
  return has_sweeps(buf) ? buf : NULL;
}

int impactfit_cmd_check(int argc, char **argv) {
  const char *src = NULL, *only = NULL;
  int json = 0, help = 0, write = 0;
  cli_spec opts[] = {
      CLI_FLAG("json", &json),
      CLI_STR("src", &src),
      CLI_STR("topic", &only),
      CLI_FLAG("write-expectations", &write),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if (only && !impactfit_report_topic_known(only)) {
    const char *names[64];
    char list[1024] = "";
    size_t n = impactfit_report_topic_count() < 64 ? impactfit_report_topic_count() : 64;
    for (size_t i = 0; i < n; i++) {
      names[i] = impactfit_report_topic_name(i);
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    }
    const char *close = cli_suggest(only, strlen(only), names, n);
    if (close)
      return cli_input_error("--topic: unknown topic '%s' (did you mean '%s'? topics: %s)", only, close, list);
    return cli_input_error("--topic: unknown topic '%s' (topics: %s)", only, list);
  }
  char installed[4200];
  if (!src && !(src = default_src(installed, sizeof installed)))
    return cli_input_error("check: no sweeps/ in the current directory: run it from the repository's top, or give "
                           "--src DIR (the repository, or an installed impactfit's share/impactfit)");
  if (!has_sweeps(src))
    return cli_input_error("check: --src %s holds no sweeps/: give the repository's top, or an installed impactfit's "
                           "share/impactfit",
                           src);
  impactfit_report_options ro = {.src = src, .topic = only, .json = json, .write_expectations = write};
  return impactfit_report_check(&ro);
}
