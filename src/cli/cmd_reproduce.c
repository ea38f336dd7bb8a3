/* impactfit reproduce: regenerates every published table and figure into reports/REPORT.md. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "impactfit/impactfit.h"
#include "progress.h"
#include "report.h"

static const char *help_text =
    "usage: impactfit reproduce [--quick] [--out DIR] [--src DIR] [--topic NAME] [--quiet]\n\n"
    "Runs every topic (the papers' sweeps and fits, the regenerated generated headers, the audits of\n"
    "the published formulas) and writes DIR/REPORT.md with its figures (gnuplot: SVG and PNG) and\n"
    "DIR/claims.json. The wall time is printed at the end. The fitted generated headers are\n"
    "regenerated: a full run rewrites one in SRC/include/impactfit/generated/ that differs from\n"
    "what the code makes and says so; --quick writes it to DIR and reports the difference.\n\n"
    "  --quick       coarse grids (a few minutes on 2 cores)\n"
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
