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

#include "cli.h"
#include "impactfit/impact.h"
#include "impactfit/surrogate.h"
#include "impactfit/version.h"
#include <omp.h>

typedef struct target {
  char topic[64];
  char what[160];
  char detail[512];
  int ok;
} target;

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
  int figure_failures;
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

/* Runs the staged script name.gp (ok: it was written) and references the figure in the report, or
 * says it could not be drawn. */
static int draw_figure(report *r, const char *name, const char *caption, int ok) {
  char gpname[1024];
  snprintf(gpname, sizeof gpname, "%s.gp", name);
  if (ok && run_gnuplot(r->stage, gpname) == 0) {
    report_md(r, "![%s](%s.svg)\n\n*Figure %s.* %s\n\n", name, name, name, caption);
    return 0;
  }
  r->figure_failures++;
  report_md(r, "*Figure %s could not be drawn (gnuplot failed; its script and data are in the report "
               "directory).* %s\n\n",
            name, caption);
  return -1;
}

int report_figure(report *r, const char *name, const char *caption, const char *script) {
  if (!r->write_files)
    return 0;
  char gp[4096];
  snprintf(gp, sizeof gp, "%s/%s.gp", r->stage, name);
  FILE *f = fopen(gp, "w");
  int ok = 0;
  if (f) {
    fprintf(f,
            "# generated by impactfit %s: gnuplot %s.gp makes %s.svg and %s.png\n"
            "set terminal svg size 820,520 dynamic enhanced font 'sans,12'\n"
            "set output '%s.svg'\nset grid\nset key outside right top\n%s\n"
            "set terminal pngcairo size 1025,650 enhanced font 'sans,11'\n"
            "set output '%s.png'\nreplot\nunset output\n",
            IMPACTFIT_VERSION_STRING, name, name, name, name, script, name);
    ok = (fclose(f) == 0);
  }
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

static const char *verdict_text(int v) { return v == 1 ? "holds" : v == 0 ? "does not hold" : "—"; }

int report_close(report *r, const char *title, double wall_seconds) {
  /* figures and data first: REPORT.md and claims.json, written last, mark a complete report */
  int rc = unstage(r, 1);
  if (r->write_files && !rc) {
    char path[4096];
    snprintf(path, sizeof path, "%s/REPORT.md", r->outdir);
    cli_out o;
    if ((rc = cli_out_open(&o, path)) == 0) {
      FILE *f = o.f;
      fprintf(f, "# %s\n\nGenerated by impactfit %s; wall time %.1f s. Every number below was computed by "
                 "impactfit in this run; published figures are quoted with their source.\n\n",
              title, IMPACTFIT_VERSION_STRING, wall_seconds);
      if (r->md)
        fwrite(r->md, 1, r->md_len, f);
      fprintf(f, "\n## Published claims and impactfit's figures\n\n"
                 "| topic | source | figure | claimed | measured | verdict | how measured |\n"
                 "|---|---|---|---|---|---|---|\n");
      for (size_t i = 0; i < r->nclaims; i++) {
        const claim *c = &r->claims[i];
        fprintf(f, "| %s | %s | %s | ", c->topic, c->source, c->what);
        md_number(f, c->claimed, c->unit);
        fputs(" | ", f);
        md_number(f, c->measured, c->unit);
        fprintf(f, " | %s | %s |\n", verdict_text(c->verdict), c->how);
      }
      if (r->ntargets) {
        fprintf(f, "\n## impactfit's own accuracy targets\n\n| topic | target | met | detail |\n|---|---|---|---|\n");
        for (size_t i = 0; i < r->ntargets; i++)
          fprintf(f, "| %s | %s | %s | %s |\n", r->targets[i].topic, r->targets[i].what,
                  r->targets[i].ok ? "yes" : "**no**", r->targets[i].detail);
      }
      rc = cli_out_commit(&o);
    }
    snprintf(path, sizeof path, "%s/claims.json", r->outdir);
    if (!rc && (rc = cli_out_open(&o, path)) == 0) {
      for (size_t i = 0; i < r->nclaims; i++) {
        const claim *c = &r->claims[i];
        cli_json j;
        cli_json_begin(&j, o.f);
        cli_json_str(&j, "topic", c->topic);
        cli_json_str(&j, "id", c->id);
        cli_json_str(&j, "source", c->source);
        cli_json_str(&j, "what", c->what);
        cli_json_num(&j, "claimed", c->claimed);
        cli_json_num(&j, "measured", c->measured);
        cli_json_str(&j, "unit", c->unit);
        cli_json_str(&j, "verdict", verdict_text(c->verdict));
        cli_json_str(&j, "how", c->how);
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
  free(r);
}

int report_figure_panels(report *r, const char *name, const char *caption, int width, int height,
                         const char *script) {
  if (!r->write_files)
    return 0;
  char gp[4096];
  snprintf(gp, sizeof gp, "%s/%s.gp", r->stage, name);
  FILE *f = fopen(gp, "w");
  int ok = 0;
  if (f) {
    fprintf(f,
            "# generated by impactfit %s: gnuplot %s.gp makes %s.svg and %s.png (the panels are drawn\n"
            "# once per terminal: replot would repeat only the last one)\n"
            "set terminal svg size %d,%d dynamic enhanced font 'sans,12'\n"
            "set output '%s.svg'\nset grid\nset key outside right top\n%s\nunset output\n"
            "set terminal pngcairo size %d,%d enhanced font 'sans,11'\n"
            "set output '%s.png'\n%s\nunset output\n",
            IMPACTFIT_VERSION_STRING, name, name, name, (int)(0.8 * width), (int)(0.8 * height), name, script,
            width, height, name, script);
    ok = (fclose(f) == 0);
  }
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
    report_target(r, what, 0, "regenerated: DIFFERS from the committed header (the report directory has the new one; "
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
  int st = impactfit_surrogate_build(&sp, &s, &rep, &err);
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
