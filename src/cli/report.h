/* The report of `impactfit reproduce` and the audit of `impactfit check` (CLI side).
 *
 * A topic (one per paper or theme, listed in topics.def) computes its numbers with the library and
 * records them here:
 *   - markdown text and tables for reports/REPORT.md (report_md);
 *   - data files and gnuplot figures, written as SVG and PNG (report_data, report_figure);
 *   - claims: a published or impactfit's own figure, the measured value, and a verdict
 *     (report_claim). `check` compares each measured value with its committed expectation in
 *     tests/published/<topic>.ini, so that a change in any measured figure is noticed;
 *   - targets: impactfit's own accuracy requirements (e.g. a surrogate's 1e-6), which fail `check`
 *     when missed (report_target).
 * In check mode no files are written: report_data returns NULL and report_figure does nothing, so
 * topics write data only `if (f)`.
 */
#ifndef IMPACTFIT_CLI_REPORT_H
#define IMPACTFIT_CLI_REPORT_H

#include <stdio.h>

#include "impactfit/common.h"

typedef struct topic_opts {
  const char *srcdir; /* repository root: sweeps/, fits/, include/impactfit/generated/ */
  const char *outdir; /* reports/ (reproduce) */
  int quick;          /* coarse grids (reproduce --quick, tests) */
  int check;          /* check mode: modest grids, no files, no regenerated headers */
  FILE *log;          /* progress lines (stderr), NULL for quiet */
  struct cli_progress *progress; /* the command's progress line (progress.h) or NULL: a long topic
                                  * calls cli_progress_tick(progress) in its loops to keep the
                                  * elapsed time ticking */
} topic_opts;

typedef struct report report;

/* write_files = 0: check mode. Returns NULL (error printed) when outdir cannot be created. */
report *report_open(const char *outdir, int write_files);
int report_writes_files(const report *r);

/* Appends markdown to the report body. */
void report_md(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Opens outdir/name for writing (a data file for a figure); NULL in check mode or on error. */
FILE *report_data(report *r, const char *name);

/* Writes outdir/<name>.gp = terminal setup + `script` (gnuplot commands that read the data files by
 * their names), runs gnuplot in outdir to make <name>.svg and <name>.png, and adds the figure with
 * its caption to the markdown. Returns 0, or −1 when gnuplot failed (recorded in the report). */
int report_figure(report *r, const char *name, const char *caption, const char *script);

/* As report_figure, for a script that draws several panels (set multiplot ... unset multiplot):
 * gnuplot's replot repeats only a multiplot's last panel, so the script is run once for the SVG and
 * once for the PNG, at width × height pixels (the SVG at 0.8 of that). */
int report_figure_panels(report *r, const char *name, const char *caption, int width, int height,
                         const char *script);

typedef struct claim {
  char topic[64];       /* set by report_claim from the current topic */
  char id[64];          /* stable identifier within the topic, e.g. "rh-eps-max" */
  char source[160];     /* "Ramaswamy & Humbert, Eq. (6)" or "impactfit" */
  char what[256];       /* what the figure is */
  double claimed;       /* the published figure, NaN when the paper gives none */
  double measured;      /* impactfit's figure */
  char unit[16];        /* "%", "", "m", ... */
  int verdict;          /* 1 holds, 0 does not hold, −1 no claim to judge */
  char how[256];        /* how it was measured (grid, tolerance, method) */
  double drift_tol;     /* relative change of `measured` that check tolerates (0: 1e-6) */
  double drift_abs;     /* absolute change tolerated as well (figures at rounding level, 0: none) */
} claim;

/* Records a claim of the current topic. */
void report_claim(report *r, const claim *c);
/* An accuracy target of impactfit itself: ok = 0 fails `check`. */
void report_target(report *r, const char *what, int ok, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The topic subsequent claims belong to (set by the commands). */
void report_set_topic(report *r, const char *topic);

size_t report_claim_count(const report *r);
const claim *report_claim_at(const report *r, size_t i);
size_t report_target_count(const report *r);
int report_target_at(const report *r, size_t i, const char **topic, const char **what, const char **detail);

/* Writes outdir/REPORT.md (title, body, claims table) and outdir/claims.json; frees r. */
int report_close(report *r, const char *title, double wall_seconds);
void report_discard(report *r);

/* The topics: X(name, function, summary) in topics.def; each function returns 0 or a status
 * (error printed). */
#define X(name, fn, summary) int fn(const topic_opts *o, report *r);
#include "topics.def"
#undef X

#endif
