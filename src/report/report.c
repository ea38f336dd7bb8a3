/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report of `impactfit reproduce` and `impactfit check` (see report.h). */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "tools.h"
#include "impactfit/impact.h"
#include "progress.h"
#include "impactfit/surrogate.h"
#include "impactfit/version.h"
#include <omp.h>

typedef struct target {
  char topic[64];
  char what[160];
  char detail[512];
  int ok;
} target;

typedef struct headline {
  char published[256], claimed[160], measured[768];
  size_t at; /* md_len when recorded: the row links to the "## " section before it */
} headline;

struct report {
  char outdir[2048];
  /* Every file goes to outdir/.impactfit-tmp.PID first and moves into outdir when the report is
   * complete (report_close); a failed run removes it (report_discard). So a failed or interrupted
   * reproduce never leaves figures or data that could pass for a result, nor overwrites part of an
   * earlier complete report. */
  char stage[2100];
  int write_files;
  char topic[64];
  char *md;
  size_t md_len, md_cap;
  claim *claims;
  size_t nclaims, cap_claims;
  target *targets;
  size_t ntargets, cap_targets;
  headline *headlines;
  size_t nheadlines;
  int figure_failures;
  int nfigures; /* figures drawn so far: numbers them */
  char *times;  /* timings.txt: wall times, kept out of REPORT.md so that runs are byte-identical */
  size_t times_len;
};

report *report_open(const char *outdir, int write_files) {
  report *r = calloc(1, sizeof *r);
  if (!r) {
    cli_input_error("out of memory");
    return NULL;
  }
  r->write_files = write_files;
  snprintf(r->outdir, sizeof r->outdir, "%s", outdir ? outdir : ".");
  if (write_files && cli_mkdir_p(r->outdir) != 0) {
    free(r);
    return NULL;
  }
  snprintf(r->stage, sizeof r->stage, "%s/.impactfit-tmp.%ld", r->outdir, (long)getpid());
  if (write_files && mkdir(r->stage, 0777) != 0) {
    cli_input_error("cannot create %s: %s", r->stage, strerror(errno));
    free(r);
    return NULL;
  }
  return r;
}

/* Moves (commit) or removes (!commit) every staged file, then removes the staging directory.
 * Returns 0 or CLI_INPUT with the error printed. */
static int unstage(report *r, int commit) {
  if (!r->write_files)
    return 0;
  DIR *d = opendir(r->stage);
  int rc = 0;
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
        continue;
      char from[4096], to[4096];
      snprintf(from, sizeof from, "%s/%s", r->stage, e->d_name);
      snprintf(to, sizeof to, "%s/%s", r->outdir, e->d_name);
      if (commit && !rc && rename(from, to) != 0)
        rc = cli_input_error("cannot move %s to %s: %s", from, to, strerror(errno));
      if (!commit || rc)
        remove(from);
    }
    closedir(d);
  }
  rmdir(r->stage);
  return rc;
}

int report_writes_files(const report *r) { return r->write_files; }

void report_set_topic(report *r, const char *topic) { snprintf(r->topic, sizeof r->topic, "%s", topic); }

void report_md(report *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int need = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (need < 0)
    return;
  if (r->md_len + (size_t)need + 1 > r->md_cap) {
    size_t cap = r->md_cap ? r->md_cap : 4096;
    while (cap < r->md_len + (size_t)need + 1)
      cap *= 2;
    char *p = realloc(r->md, cap);
    if (!p)
      return;
    r->md = p;
    r->md_cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(r->md + r->md_len, r->md_cap - r->md_len, fmt, ap);
  va_end(ap);
  r->md_len += (size_t)need;
}

FILE *report_data(report *r, const char *name) {
  if (!r->write_files)
    return NULL;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", r->stage, name);
  FILE *f = fopen(path, "w");
  if (!f)
    fprintf(stderr, "impactfit: warning: cannot write %s: %s\n", path, strerror(errno));
  return f;
}

/* Runs `gnuplot file` in dir; 0 on success. */
static int run_gnuplot(const char *dir, const char *file) {
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    if (chdir(dir) != 0)
      _exit(127);
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      dup2(devnull, STDOUT_FILENO);
      dup2(devnull, STDERR_FILENO);
    }
    execlp("gnuplot", "gnuplot", file, (char *)NULL);
    _exit(127);
  }
  int status;
  if (waitpid(pid, &status, 0) < 0)
    return -1;
  return (WIFEXITED(status) && WEXITSTATUS(status) == 0) ? 0 : -1;
}

/* One style for every figure: colour-blind-safe colours (Okabe & Ito), each linetype with its own
 * marker, reference lines in black, the legend outside the plot area (never on the data). */
static const char *figure_style = "set grid lc rgb '#d0d0d0'\nset key outside right top samplen 3 spacing 1.1\n"
                                  "set linetype 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.55\n"
                                  "set linetype 2 lc rgb '#D55E00' lw 2 pt 5 ps 0.55\n"
                                  "set linetype 3 lc rgb '#009E73' lw 2 pt 9 ps 0.7\n"
                                  "set linetype 4 lc rgb '#CC79A7' lw 2 pt 13 ps 0.7\n"
                                  "set linetype 5 lc rgb '#E69F00' lw 2 pt 11 ps 0.7\n"
                                  "set linetype 6 lc rgb '#56B4E9' lw 2 pt 4 ps 0.6\n"
                                  "set linetype 7 lc rgb '#000000' lw 2 pt 6 ps 0.6\n"
                                  "set linetype 8 lc rgb '#882255' lw 2 pt 8 ps 0.6\n"
                                  "set linetype 9 lc rgb '#117733' lw 2 pt 10 ps 0.6\n"
                                  "set linetype 10 lc rgb '#44AA99' lw 2 pt 12 ps 0.6\n"
                                  "set linetype 11 lc rgb '#999933' lw 2 pt 2 ps 0.6\n"
                                  "set linetype 12 lc rgb '#332288' lw 2 pt 1 ps 0.6\n"
                                  "set linetype 13 lc rgb '#AA4499' lw 2 pt 3 ps 0.6\n"
                                  "set linetype 14 lc rgb '#661100' lw 2 pt 14 ps 0.6\n"
                                  "set linetype cycle 14\n";

/* The plot script with every curve drawn `with lines` given a few markers (`with linespoints
 * pointnumber 12`): curves that lie on top of each other stay distinguishable by their markers. A
 * reference line (a diagonal, a claimed level) is written `w lines` and keeps no markers. NULL for a
 * script that names gnuplot's Symbol font: the SVG terminal writes {/Symbol a} as the letter "a" in
 * a font browsers do not map to Greek, so the figures write their letters in UTF-8 (α, not
 * {/Symbol a}; the scripts run with `set encoding utf8`). */
static char *with_markers(const char *script) {
  if (strstr(script, "/Symbol")) {
    fprintf(stderr, "impactfit: warning: a figure script uses gnuplot's Symbol font; write the letter in UTF-8\n");
    return NULL;
  }
  size_t n = strlen(script), cap = 2 * n + 64, k = 0;
  char *out = malloc(cap);
  if (!out)
    return NULL;
  for (size_t i = 0; i < n;) {
    if (k + 32 >= cap) {
      cap *= 2;
      char *p = realloc(out, cap);
      if (!p) {
        free(out);
        return NULL;
      }
      out = p;
    }
    if (i > 0 && script[i - 1] == ' ' && strncmp(script + i, "w l", 3) == 0 &&
        (script[i + 3] == ' ' || script[i + 3] == ',' || script[i + 3] == '\n' || script[i + 3] == 0)) {
      memcpy(out + k, "w lp pn 12", 10);
      k += 10;
      i += 3;
    } else
      out[k++] = script[i++];
  }
  out[k] = 0;
  return out;
}

/* Runs the staged script name.gp (ok: it was written) and references the figure in the report, or
 * says it could not be drawn. */
static int draw_figure(report *r, const char *name, const char *caption, int ok) {
  char gpname[1024];
  snprintf(gpname, sizeof gpname, "%s.gp", name);
  /* a figure is a paragraph of its own: after a table row or a line of text without a blank line,
   * markdown would put the image into the table's last cell or into that paragraph */
  if (r->md_len && r->md[r->md_len - 1] != '\n')
    report_md(r, "\n");
  if (r->md_len > 1 && r->md[r->md_len - 2] != '\n')
    report_md(r, "\n");
  if (ok && run_gnuplot(r->stage, gpname) == 0) {
    r->nfigures++;
    report_md(r, "![Figure %d: %s](%s.svg)\n\n*Figure %d (`%s`).* %s\n\n", r->nfigures, name, name, r->nfigures, name,
              caption);
    return 0;
  }
  r->figure_failures++;
  report_md(r,
            "*Figure %s could not be drawn (gnuplot failed; its script and data are in the report "
            "directory).* %s\n\n",
            name, caption);
  return -1;
}

int report_figure(report *r, const char *name, const char *caption, const char *script) {
  if (!r->write_files)
    return 0;
  char gp[4096];
  snprintf(gp, sizeof gp, "%s/%s.gp", r->stage, name);
  char *body = with_markers(script);
  FILE *f = body ? fopen(gp, "w") : NULL;
  int ok = 0;
  if (f) {
    fprintf(f,
            "# generated by impactfit %s: gnuplot %s.gp makes %s.svg and %s.png\n"
            "set encoding utf8\nset terminal svg size 820,520 dynamic enhanced font 'sans,12'\n"
            "set output '%s.svg'\n%s%s\n"
            "set terminal pngcairo size 1025,650 enhanced font 'sans,11'\n"
            "set output '%s.png'\nreplot\nunset output\n",
            IMPACTFIT_VERSION_STRING, name, name, name, name, figure_style, body, name);
    ok = (fclose(f) == 0);
  }
  free(body);
  return draw_figure(r, name, caption, ok);
}

void report_claim(report *r, const claim *c) {
  if (r->nclaims == r->cap_claims) {
    size_t cap = r->cap_claims ? 2 * r->cap_claims : 32;
    claim *p = realloc(r->claims, cap * sizeof *p);
    if (!p)
      return;
    r->claims = p;
    r->cap_claims = cap;
  }
  claim *d = &r->claims[r->nclaims++];
  *d = *c;
  snprintf(d->topic, sizeof d->topic, "%s", r->topic);
}

void report_claim_f(report *r, const char *id, const char *source, const char *what, double claimed, double measured,
                    const char *unit, int verdict, double drift_tol, double drift_abs, const char *how) {
  claim c;
  memset(&c, 0, sizeof c);
  snprintf(c.id, sizeof c.id, "%s", id);
  snprintf(c.source, sizeof c.source, "%s", source);
  snprintf(c.what, sizeof c.what, "%s", what);
  c.claimed = claimed;
  c.measured = measured;
  snprintf(c.unit, sizeof c.unit, "%s", unit);
  /* an accuracy claim holds when the measured error does not exceed it (0.1 % slack for the
   * rounding of the published figure) */
  c.verdict = verdict != REPORT_AT_MOST ? verdict : isnan(claimed) ? -1 : (measured <= claimed * 1.001);
  c.drift_tol = drift_tol;
  c.drift_abs = drift_abs;
  snprintf(c.how, sizeof c.how, "%s", how);
  report_claim(r, &c);
}

void report_target(report *r, const char *what, int ok, const char *fmt, ...) {
  if (r->ntargets == r->cap_targets) {
    size_t cap = r->cap_targets ? 2 * r->cap_targets : 16;
    target *p = realloc(r->targets, cap * sizeof *p);
    if (!p)
      return;
    r->targets = p;
    r->cap_targets = cap;
  }
  target *t = &r->targets[r->ntargets++];
  snprintf(t->topic, sizeof t->topic, "%s", r->topic);
  snprintf(t->what, sizeof t->what, "%s", what);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->detail, sizeof t->detail, fmt, ap);
  va_end(ap);
  t->ok = ok;
}

void report_headline(report *r, const char *published, const char *claimed, const char *fmt, ...) {
  headline *p = realloc(r->headlines, (r->nheadlines + 1) * sizeof *p);
  if (!p)
    return;
  r->headlines = p;
  headline *h = &p[r->nheadlines++];
  snprintf(h->published, sizeof h->published, "%s", published);
  snprintf(h->claimed, sizeof h->claimed, "%s", claimed);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(h->measured, sizeof h->measured, fmt, ap);
  va_end(ap);
  h->at = r->md_len;
}

double report_claim_value(const report *r, const char *id) {
  for (size_t i = r->nclaims; i-- > 0;)
    if (!strcmp(r->claims[i].topic, r->topic) && !strcmp(r->claims[i].id, id))
      return r->claims[i].measured;
  return NAN;
}

size_t report_claim_count(const report *r) { return r->nclaims; }
const claim *report_claim_at(const report *r, size_t i) { return i < r->nclaims ? &r->claims[i] : NULL; }
size_t report_target_count(const report *r) { return r->ntargets; }
int report_target_at(const report *r, size_t i, const char **topic, const char **what, const char **detail) {
  if (i >= r->ntargets)
    return -1;
  *topic = r->targets[i].topic;
  *what = r->targets[i].what;
  *detail = r->targets[i].detail;
  return r->targets[i].ok;
}

static void md_number(FILE *f, double v, const char *unit) {
  if (isnan(v))
    fputs("—", f);
  else
    fprintf(f, "%.4g%s%s", v, unit[0] && strcmp(unit, "%") ? " " : "", unit);
}

/* A table cell: '|' escaped, so that "max |e_out - e|" stays in one cell. */
static void md_cell(FILE *f, const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '|')
      fputc('\\', f);
    fputc(*p, f);
  }
}

static const char *verdict_text(int v) { return v == 1 ? "holds" : v == 0 ? "does not hold" : "—"; }

void report_claim_json(struct cli_json *j, const claim *c, const char *no_verdict) {
  cli_json_str(j, "topic", c->topic);
  cli_json_str(j, "id", c->id);
  cli_json_str(j, "source", c->source);
  cli_json_str(j, "what", c->what);
  cli_json_num_g17(j, "claimed", c->claimed);
  cli_json_num_g17(j, "measured", c->measured);
  cli_json_str(j, "unit", c->unit);
  cli_json_str(j, "verdict", c->verdict == 1 ? "holds" : c->verdict == 0 ? "does not hold" : no_verdict);
  cli_json_str(j, "how", c->how);
  cli_json_str(j, "kind", c->kind == CLAIM_CODE_BEHAVIOUR ? "code behaviour" : "figure");
}

void report_timing(report *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int need = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (need < 0)
    return;
  char *p = realloc(r->times, r->times_len + (size_t)need + 2);
  if (!p)
    return;
  r->times = p;
  va_start(ap, fmt);
  vsnprintf(p + r->times_len, (size_t)need + 1, fmt, ap);
  va_end(ap);
  r->times_len += (size_t)need;
  p[r->times_len++] = '\n';
  p[r->times_len] = 0;
}

/* The papers the report's sections rest on: a section whose heading names `match` cites them. */
static const struct source {
  const char *match; /* substring of a "## " heading */
  const char *cite;  /* full reference (markdown) */
  const char *doi;
} sources[] = {
    {"Poursina & Nikravesh",
     "M. Poursina, P. E. Nikravesh, *Optimal damping coefficient for a class of continuous contact models*, "
     "Multibody System Dynamics 50 (2020) 169–195",
     "10.1007/s11044-020-09746-y"},
    {"Zhang et al.",
     "J. Zhang, C. Huang, L. Zhao, J. Di, G. He, W. Li, *Continuous contact force model with an arbitrary damping "
     "term exponent: Model and discussion*, Mechanical Systems and Signal Processing 159 (2021) 107808",
     "10.1016/j.ymssp.2021.107808"},
    {"Ramaswamy & Humbert",
     "D. A. Ramaswamy, J. S. Humbert, *A continuous contact force model for highly damped impacts of arbitrary "
     "material and geometry* (extended abstract, University of Colorado Boulder; no journal, year or DOI given)",
     NULL},
    {"Jönsson",
     "A. Jönsson, J. Bathelt, G. Broman, *Implications of modelling one-dimensional impact by using a spring and "
     "damper element*, Proceedings of the IMechE, Part K: Journal of Multi-body Dynamics 219 (2005) 1–9",
     "10.1243/146441905X9926"},
    {"Hunt–Crossley",
     "K. H. Hunt, F. R. E. Crossley, *Coefficient of restitution interpreted as damping in vibroimpact*, "
     "Journal of Applied Mechanics 42 (1975) 440–445",
     "10.1115/1.3423596"},
    {"Hunt–Crossley",
     "H. M. Lankarani, P. E. Nikravesh, *A contact force model with hysteresis damping for impact analysis of "
     "multibody systems*, Journal of Mechanical Design 112 (1990) 369–376",
     "10.1115/1.2912617"},
    {"Hunt–Crossley",
     "S. Hu, X. Guo, *A dissipative contact force model for impact analysis in multibody dynamics*, Multibody "
     "System Dynamics 35 (2015) 131–151",
     "10.1007/s11044-015-9453-z"},
    {"Hunt–Crossley",
     "P. Flores, M. Machado, M. T. Silva, J. M. Martins, *On the continuous contact force models for soft "
     "materials in multibody dynamics*, Multibody System Dynamics 25 (2011) 357–375",
     "10.1007/s11044-010-9237-4"},
    {"DEM codes",
     "Y. Tsuji, T. Tanaka, T. Ishida, *Lagrangian numerical simulation of plug flow of cohesionless particles in "
     "a horizontal pipe*, Powder Technology 71 (1992) 239–250",
     "10.1016/0032-5910(92)88030-L"},
};

/* An anchor for a heading: lower-case ASCII letters and digits, other runs become one '-'. */
static void slug(const char *title, char *out, size_t cap) {
  size_t k = 0;
  int dash = 0;
  for (const unsigned char *p = (const unsigned char *)title; *p && k + 2 < cap; p++) {
    unsigned char ch = *p;
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
      if (dash && k)
        out[k++] = '-';
      out[k++] = (char)ch;
      dash = 0;
    } else if (ch >= 'A' && ch <= 'Z') {
      if (dash && k)
        out[k++] = '-';
      out[k++] = (char)(ch - 'A' + 'a');
      dash = 0;
    } else
      dash = 1;
  }
  out[k] = 0;
}

/* The anchors of the report's own sections (written by write_markdown), which a heading's slug must
 * not take. */
static const char *const fixed_anchors[] = {"summary", "contents", "claims", "code-behaviours", "targets", "sources"};

/* A heading's anchor, unique in the report: its slug, with "-2", "-3", ... when an earlier heading or
 * one of the fixed anchors has it. `used`/`nused` collect the anchors given so far (one pass). */
static void unique_slug(const char *title, char *out, size_t cap, char (*used)[128], size_t *nused, size_t max) {
  char base[128];
  slug(title, base, sizeof base);
  snprintf(out, cap, "%s", base);
  for (int k = 2;; k++) {
    int taken = 0;
    for (size_t i = 0; i < sizeof fixed_anchors / sizeof fixed_anchors[0] && !taken; i++)
      taken = !strcmp(out, fixed_anchors[i]);
    for (size_t i = 0; i < *nused && !taken; i++)
      taken = !strcmp(out, used[i]);
    if (!taken)
      break;
    snprintf(out, cap, "%.100s-%d", base, k);
  }
  if (*nused < max)
    snprintf(used[(*nused)++], 128, "%.127s", out);
}

/* Markdown link text that shows `text` as it is: the brackets escaped, so that an unbalanced one
 * ("e ∈ [0.01, 1)") cannot end the link early. */
static void md_link_text(FILE *f, const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '[' || *p == ']' || *p == '\\')
      fputc('\\', f);
    fputc(*p, f);
  }
}

/* Copies `body` to f; before every "## "/"### " heading an anchor <a id="slug">, and after a "## "
 * heading the sources it names, linked to their DOIs. toc: write only the contents list instead. */
static void md_body(FILE *f, const char *body, int toc) {
  const char *p = body;
  int sec = 0;
  char(*used)[128] = calloc(512, sizeof *used); /* the anchors given so far */
  size_t nused = 0;
  while (used && p && *p) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    int level = (len > 3 && strncmp(p, "## ", 3) == 0) ? 2 : (len > 4 && strncmp(p, "### ", 4) == 0) ? 3 : 0;
    if (level) {
      char title[512], id[160];
      size_t tl = len - (size_t)(level + 1) < sizeof title - 1 ? len - (size_t)(level + 1) : sizeof title - 1;
      memcpy(title, p + level + 1, tl);
      title[tl] = 0;
      unique_slug(title, id, sizeof id, used, &nused, 512);
      if (level == 2)
        sec++;
      if (toc) {
        fputs(level == 3 ? "  - [" : "- [", f);
        md_link_text(f, title);
        fprintf(f, "](#%s)\n", id);
      } else {
        fprintf(f, "<a id=\"%s\"></a>\n\n%.*s\n\n", id, (int)len, p);
        if (level == 2) {
          int any = 0;
          for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
            if (!strstr(title, sources[i].match))
              continue;
            fputs(any ? "; " : "**Source:** ", f);
            if (sources[i].doi)
              fprintf(f, "[%s](https://doi.org/%s)", sources[i].cite, sources[i].doi);
            else
              fputs(sources[i].cite, f);
            any = 1;
          }
          if (any)
            fputs(".\n\n", f);
        }
      }
    } else if (!toc)
      fprintf(f, "%.*s%s", (int)len, p, nl ? "\n" : "");
    p = nl ? nl + 1 : NULL;
  }
  free(used);
}

/* The anchor of the "## " section that contains offset `at` of the body (the slugs as md_body gives
 * them); "contents" when there is none. */
static void section_anchor(const char *body, size_t at, char *out, size_t cap) {
  char(*used)[128] = calloc(512, sizeof *used);
  size_t nused = 0;
  snprintf(out, cap, "contents");
  for (const char *p = body; used && p && *p && (size_t)(p - body) < at;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    int level = (len > 3 && strncmp(p, "## ", 3) == 0) ? 2 : (len > 4 && strncmp(p, "### ", 4) == 0) ? 3 : 0;
    if (level) {
      char title[512], id[160];
      size_t tl = len - (size_t)(level + 1) < sizeof title - 1 ? len - (size_t)(level + 1) : sizeof title - 1;
      memcpy(title, p + level + 1, tl);
      title[tl] = 0;
      unique_slug(title, id, sizeof id, used, &nused, 512);
      if (level == 2)
        snprintf(out, cap, "%s", id);
    }
    p = nl ? nl + 1 : NULL;
  }
  free(used);
}

/* A claims table: the claims of one kind. */
static void claims_table(FILE *f, const report *r, int kind) {
  if (kind == CLAIM_CODE_BEHAVIOUR)
    fputs("| topic | code and versions | behaviour | the code intends | measured | as intended | how measured |\n"
          "|---|---|---|---|---|---|---|\n",
          f);
  else
    fputs("| topic | source | figure | claimed | measured | verdict | how measured |\n|---|---|---|---|---|---|---|\n",
          f);
  for (size_t i = 0; i < r->nclaims; i++) {
    const claim *c = &r->claims[i];
    if (c->kind != kind)
      continue;
    fprintf(f, "| %s | ", c->topic);
    md_cell(f, c->source);
    fputs(" | ", f);
    md_cell(f, c->what);
    fputs(" | ", f);
    md_number(f, c->claimed, c->unit);
    fputs(" | ", f);
    md_number(f, c->measured, c->unit);
    fprintf(f, " | %s | ",
            kind == CLAIM_CODE_BEHAVIOUR ? (c->verdict == 1   ? "yes"
                                            : c->verdict == 0 ? "no"
                                                              : "—")
                                         : verdict_text(c->verdict));
    md_cell(f, c->how);
    fputs(" |\n", f);
  }
}

/* The whole report as markdown (REPORT.md): the summary (the headline rows, the counts) and the
 * contents first, then the topics, then every claim, the targets and the sources. */
static void write_markdown(FILE *f, const report *r, const char *title) {
  size_t hold = 0, fail = 0, nfig = 0, code = 0, code_ok = 0, met = 0;
  for (size_t i = 0; i < r->nclaims; i++) {
    const claim *c = &r->claims[i];
    if (c->kind == CLAIM_CODE_BEHAVIOUR) {
      code++;
      code_ok += c->verdict == 1;
    } else {
      nfig++;
      hold += c->verdict == 1, fail += c->verdict == 0;
    }
  }
  for (size_t i = 0; i < r->ntargets; i++)
    met += r->targets[i].ok != 0;
  /* the title, then the summary at once: the first screen is the findings (the provenance line follows
   * them) */
  fprintf(f, "# %s\n\n<a id=\"summary\"></a>\n\n## Summary of findings\n\n", title);
  if (r->nheadlines) {
    fputs("| published | claimed | measured by impactfit |\n|---|---|---|\n", f);
    for (size_t i = 0; i < r->nheadlines; i++) {
      const headline *h = &r->headlines[i];
      char anchor[160];
      section_anchor(r->md ? r->md : "", h->at, anchor, sizeof anchor);
      fputs("| [", f);
      md_link_text(f, h->published);
      fprintf(f, "](#%s) | %s | %s |\n", anchor, h->claimed, h->measured);
    }
    fputs("\n", f);
  }
  fprintf(f,
          "Published figures: %zu measured, %zu hold, %zu do not hold, %zu have no published value to judge "
          "([all of them](#claims)).",
          nfig, hold, fail, nfig - hold - fail);
  if (code)
    fprintf(f,
            " DEM codes: %zu behaviours measured against what the code intends (the restitution typing e "
            "gives), %zu as intended, %zu not ([all of them](#code-behaviours)).",
            code, code_ok, code - code_ok);
  if (r->ntargets)
    fprintf(f, " impactfit's own accuracy targets: %zu of %zu met ([all of them](#targets)).", met, r->ntargets);
  fprintf(f,
          "\n\nGenerated by impactfit %s: every number here was computed in this run (the run's wall times are in "
          "`timings.txt`, so that two runs give byte-identical reports); published figures are quoted with their "
          "source ([Sources](#sources)).",
          IMPACTFIT_VERSION_STRING);
  fputs("\n\n<a id=\"contents\"></a>\n\n## Contents\n\n- [Summary of findings](#summary)\n", f);
  if (r->md)
    md_body(f, r->md, 1);
  fputs("- [Published claims and impactfit's figures](#claims)\n", f);
  if (code)
    fputs("- [DEM codes: behaviours measured against what the code intends](#code-behaviours)\n", f);
  if (r->ntargets)
    fputs("- [impactfit's own accuracy targets](#targets)\n", f);
  fputs("- [Sources](#sources)\n\n", f);
  if (r->md)
    md_body(f, r->md, 0);
  fputs("\n<a id=\"claims\"></a>\n\n## Published claims and impactfit's figures\n\n", f);
  claims_table(f, r, CLAIM_PUBLISHED);
  if (code) {
    fputs("\n<a id=\"code-behaviours\"></a>\n\n## DEM codes: behaviours measured against what the code intends\n\n"
          "What typing the restitution e into a DEM code gives, against what the code intends (e itself): these "
          "are not published figures, and the summary counts them apart.\n\n",
          f);
    claims_table(f, r, CLAIM_CODE_BEHAVIOUR);
  }
  if (r->ntargets) {
    fprintf(f, "\n<a id=\"targets\"></a>\n\n## impactfit's own accuracy targets\n\n"
               "| topic | target | met | detail |\n|---|---|---|---|\n");
    for (size_t i = 0; i < r->ntargets; i++) {
      fprintf(f, "| %s | ", r->targets[i].topic);
      md_cell(f, r->targets[i].what);
      fprintf(f, " | %s | ", r->targets[i].ok ? "yes" : "**no**");
      md_cell(f, r->targets[i].detail);
      fputs(" |\n", f);
    }
  }
  fputs("\n<a id=\"sources\"></a>\n\n## Sources\n\n", f);
  for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
    if (sources[i].doi)
      fprintf(f, "- %s. [doi:%s](https://doi.org/%s)\n", sources[i].cite, sources[i].doi, sources[i].doi);
    else
      fprintf(f, "- %s.\n", sources[i].cite);
  }
}

static const char *html_head =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>\n"
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;line-height:1.5;margin:0 auto;"
    "max-width:76rem;padding:1rem 1.5rem;color:#1b1b1b;overflow-wrap:break-word}\n"
    "h1{font-size:1.7rem}h2{font-size:1.35rem;border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2.2rem}"
    "h3{font-size:1.1rem}\n"
    "table{border-collapse:collapse;font-size:.82rem;margin:.8rem 0;width:100%%}\n"
    ".table{overflow-x:auto}\n"
    "th,td{border:1px solid #ccc;padding:.25rem .4rem;vertical-align:top;overflow-wrap:break-word;hyphens:auto}"
    "th{background:#f3f3f3}\n"
    "tr:nth-child(even) td{background:#fafafa}\n"
    "@media (min-width:60rem){h1+p+h2+.table td:first-child{min-width:16rem}}\n"
    "code{font-size:.9em;background:#f4f4f4;padding:0 .15em;overflow-wrap:anywhere}\n"
    "pre{overflow-x:auto;white-space:pre-wrap;background:#f4f4f4;padding:.5rem}\n"
    "img{display:block;max-width:100%%;height:auto;margin:1rem auto 0}\n"
    "a{color:#0b5cad}\n"
    "</style>\n</head>\n<body>\n";

/* REPORT.md rendered as a page (GitHub-flavoured markdown through cmark-gfm, its table extension). */
static int write_html(FILE *f, const char *md, size_t len, const char *title) {
  cmark_gfm_core_extensions_ensure_registered();
  cmark_parser *p = cmark_parser_new(CMARK_OPT_UNSAFE);
  cmark_syntax_extension *table = cmark_find_syntax_extension("table");
  if (!p || !table) {
    if (p)
      cmark_parser_free(p);
    return -1;
  }
  cmark_parser_attach_syntax_extension(p, table);
  cmark_parser_feed(p, md, len);
  cmark_node *doc = cmark_parser_finish(p);
  char *html = doc ? cmark_render_html(doc, CMARK_OPT_UNSAFE, cmark_parser_get_syntax_extensions(p)) : NULL;
  int rc = html ? 0 : -1;
  if (html) {
    fprintf(f, html_head, title);
    /* every table in a box of its own that scrolls sideways on a narrow screen, so that the page
     * itself never does */
    for (const char *q = html; *q;) {
      const char *t = strstr(q, "<table>"), *e = strstr(q, "</table>");
      const char *next = t && (!e || t < e) ? t : e;
      if (!next) {
        fputs(q, f);
        break;
      }
      fwrite(q, 1, (size_t)(next - q), f);
      fputs(next == t ? "<div class=\"table\"><table>" : "</table></div>", f);
      q = next + (next == t ? 7 : 8);
    }
    fputs("</body>\n</html>\n", f);
    cmark_get_default_mem_allocator()->free(html);
  }
  if (doc)
    cmark_node_free(doc);
  cmark_parser_free(p);
  return rc;
}

/* Writes outdir/name with the len bytes at text (atomically). */
static int write_file(const char *outdir, const char *name, const char *text, size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", outdir, name);
  cli_out o;
  int rc = cli_out_open(&o, path);
  if (rc)
    return rc;
  if (len)
    fwrite(text, 1, len, o.f);
  return cli_out_commit(&o);
}

int report_close(report *r, const char *title, double wall_seconds) {
  /* figures and data first: REPORT.md, index.html and claims.json, written last, mark a complete report */
  int rc = unstage(r, 1);
  if (r->write_files && !rc) {
    char *md = NULL, *html = NULL;
    size_t md_len = 0, html_len = 0;
    FILE *m = open_memstream(&md, &md_len);
    if (m) {
      write_markdown(m, r, title);
      fclose(m);
    }
    FILE *h = md ? open_memstream(&html, &html_len) : NULL;
    int hok = h && write_html(h, md, md_len, title) == 0;
    if (h)
      fclose(h);
    if (!md || !hok)
      rc = cli_input_error("cannot render the report: out of memory");
    if (!rc)
      rc = write_file(r->outdir, "REPORT.md", md, md_len);
    if (!rc)
      rc = write_file(r->outdir, "index.html", html, html_len);
    free(md);
    free(html);
    report_timing(r, "total: %.1f s wall time", wall_seconds);
    if (!rc)
      rc = write_file(r->outdir, "timings.txt", r->times, r->times_len);
    char path[4096];
    cli_out o;
    snprintf(path, sizeof path, "%s/claims.json", r->outdir);
    if (!rc && (rc = cli_out_open(&o, path)) == 0) {
      for (size_t i = 0; i < r->nclaims; i++) {
        const claim *c = &r->claims[i];
        cli_json j;
        cli_json_begin(&j, o.f);
        report_claim_json(&j, c, "—");
        cli_json_end(&j);
      }
      rc = cli_out_commit(&o);
    }
  }
  report_discard(r);
  return rc;
}

void report_discard(report *r) {
  if (!r)
    return;
  unstage(r, 0);
  free(r->md);
  free(r->claims);
  free(r->targets);
  free(r->headlines);
  free(r->times);
  free(r);
}

int report_figure_panels(report *r, const char *name, const char *caption, int width, int height, const char *script) {
  if (!r->write_files)
    return 0;
  char gp[4096];
  snprintf(gp, sizeof gp, "%s/%s.gp", r->stage, name);
  char *body = with_markers(script);
  FILE *f = body ? fopen(gp, "w") : NULL;
  int ok = 0;
  if (f) {
    fprintf(f,
            "# generated by impactfit %s: gnuplot %s.gp makes %s.svg and %s.png (the panels are drawn\n"
            "# once per terminal: replot would repeat only the last one)\n"
            "set encoding utf8\nset terminal svg size %d,%d dynamic enhanced font 'sans,12'\n"
            "set output '%s.svg'\n%s%s\nunset output\n"
            "set terminal pngcairo size %d,%d enhanced font 'sans,11'\n"
            "set output '%s.png'\n%s\nunset output\n",
            IMPACTFIT_VERSION_STRING, name, name, name, (int)(0.8 * width), (int)(0.8 * height), name, figure_style,
            body, width, height, name, body);
    ok = (fclose(f) == 0);
  }
  free(body);
  return draw_figure(r, name, caption, ok);
}

int report_header(report *r, const topic_opts *o, const char *name, const char *text, size_t len) {
  char path[4096], what[200];
  snprintf(path, sizeof path, "%s/include/impactfit/generated/%s", o->srcdir, name);
  snprintf(what, sizeof what, "include/impactfit/generated/%s is what the code regenerates", name);
  FILE *c = fopen(path, "rb");
  char *old = malloc(len + 1);
  size_t got = (c && old) ? fread(old, 1, len + 1, c) : 0;
  if (c)
    fclose(c);
  int same = old && got == len && memcmp(old, text, len) == 0;
  free(old);
  if (same) {
    report_target(r, what, 1, "regenerated: byte-identical");
    return 0;
  }
  if (o->quick || o->check) {
    FILE *f = report_data(r, name); /* for a diff against the committed one */
    if (f) {
      fwrite(text, 1, len, f);
      fclose(f);
    }
    report_target(r, what, 0,
                  "regenerated: DIFFERS from the committed header (the report directory has the new one; "
                  "a full `impactfit reproduce` rewrites it)");
    return 0;
  }
  cli_out out;
  int rc = cli_out_open(&out, path);
  if (rc)
    return rc;
  fwrite(text, 1, len, out.f);
  if ((rc = cli_out_commit(&out)))
    return rc;
  if (o->log)
    fprintf(o->log, "impactfit reproduce: %s changed: rewrote %s (review it with git diff)\n", name, path);
  report_target(r, what, 1, "regenerated: differed from the committed header, rewritten (review it with git diff)");
  return 0;
}

int report_surrogate(report *r, const topic_opts *o, const char *which) {
  impactfit_surrogate_spec sp;
  char cmd[256], name[64];
  const int none[4] = {INT_MIN, INT_MIN, INT_MIN, INT_MIN};
  int rc = cli_surrogate_spec(which, none, NAN, INT_MIN, &sp, cmd, sizeof cmd);
  if (rc)
    return rc;
  snprintf(name, sizeof name, "%s_surrogate.h", sp.name);
  impactfit_surrogate *s = NULL;
  impactfit_surrogate_report rep;
  impactfit_error err;
  impactfit_error_clear(&err);
  double t0 = omp_get_wtime();
  char what[96];
  snprintf(what, sizeof what, "rebuilding %s", name); /* the builder reports no progress: what, and how long */
  cli_progress_step(o->progress, what, "", 0);
  int st = impactfit_surrogate_build(&sp, &s, &rep, &err);
  cli_progress_step_end(o->progress);
  if (st)
    return cli_status_error(st, &err, name);
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  int ok = m && !impactfit_surrogate_write_header(s, &rep, cmd, m, NULL);
  if (m)
    fclose(m);
  impactfit_surrogate_free(s);
  rc = ok ? report_header(r, o, name, buf, len) : cli_input_error("cannot write %s: out of memory", name);
  free(buf);
  if (o->log && !rc)
    fprintf(o->log, "impactfit reproduce: %s rebuilt in %.1f s\n", name, omp_get_wtime() - t0);
  return rc;
}
