/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit check: recomputes every published formula's accuracy and impactfit's own targets, and
 * compares the measured figures with the committed expectations in tests/published/; the front end
 * of the report module (src/report, impactfit_report_check). */
#include <stdio.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit_report.h"

static const char *const help_text = cli_help_check; /* docs/cli/check.txt */

int impactfit_cmd_check(int argc, char **argv) {
  const char *src = ".", *only = NULL;
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
  if (only && !impactfit_report_topic_known(only))
    return cli_input_error("--topic: unknown topic '%s' (see 'impactfit reproduce --help')", only);
  impactfit_report_options ro = {.src = src, .topic = only, .json = json, .write_expectations = write};
  return impactfit_report_check(&ro);
}
