/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit check: recomputes every published formula's accuracy and impactfit's own targets, and
 * compares the measured figures with the committed expectations in tests/published/; the front end
 * of the report module (src/report, impactfit_report_check). */
#include <stdio.h>

#include "cli.h"
#include "impactfit_report.h"

static const char *help_text =
    "usage: impactfit check [--json] [--src DIR] [--topic NAME] [--write-expectations]\n\n"
    "Recomputes, on modest grids, the real accuracy of every published formula and impactfit's own\n"
    "accuracy targets, and prints for each figure the claimed value (where the paper makes one), the\n"
    "measured value and the verdict (holds / does not hold). A published claim that does not hold is\n"
    "a finding, not a failure. check fails (exit 1) when a measured figure has changed from its\n"
    "committed expectation in DIR/tests/published/<topic>.ini, or when one of impactfit's own\n"
    "targets is missed. A target of the topics that compile generated headers in (copt, dem, zhang):\n"
    "each generated header the program was built with\n"
    "(include/impactfit/generated/) is byte for byte the one committed in DIR, so that a stale\n"
    "build fails instead of checking old constants.\n\n"
    "  --json                one JSON object per figure, then one summary object\n"
    "  --src DIR             the repository, default .\n"
    "  --topic NAME          one topic only\n"
    "  --write-expectations  (re)write tests/published/<topic>.ini from this run's figures\n";

int impactfit_cmd_check(int argc, char **argv) {
  const char *src = ".", *only = NULL;
  int json = 0, help = 0, write = 0;
  cli_opt opts[] = {
      {"json", OPT_FLAG, &json, 0},
      {"src", OPT_STRING, &src, 0},
      {"topic", OPT_STRING, &only, 0},
      {"write-expectations", OPT_FLAG, &write, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (only && !impactfit_report_topic_known(only))
    return cli_input_error("--topic: unknown topic '%s' (see 'impactfit reproduce --help')", only);
  impactfit_report_options ro = {.src = src, .topic = only, .json = json, .write_expectations = write};
  return impactfit_report_check(&ro);
}
