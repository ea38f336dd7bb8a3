/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sweep output module (sweep_io.h): a resume after a truncated journal, a damaged checksum,
 * shards merged, the sidecar read back and the hash-checked load of a fit file's data. The reference
 * in every case is an uninterrupted, unsharded run of the same sweep through the same runner: the
 * module's promise is that its files are byte-identical to it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "impactfit/impactfit.h"
#include "sweepio/sweepio_impl.h"
#include "testutil.h"

#define OK(cond, ...) CHECK((cond), __VA_ARGS__)

static const char *DEF = "[sweep]\nproblem = simulate\noutputs = e_out\n[fixed]\ntransition = A\n[axes]\n"
                         "n = list 1, 1.5\nc = linear 0.5, 3, 6\nv = log 0.5, 2, 3\n";
enum { BLOCK = 8 };
static char tmpdir[256];

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b) {
    b[n] = '\0';
    if (len)
      *len = (size_t)n;
  }
  return b;
}

static void spit(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(text, 1, len, f);
    fclose(f);
  }
}

static int same_file(const char *a, const char *b) {
  size_t la = 0, lb = 0;
  char *x = slurp(a, &la), *y = slurp(b, &lb);
  int same = x && y && la == lb && memcmp(x, y, la) == 0;
  free(x);
  free(y);
  return same;
}

static impactfit_sweep_run_params params(size_t first, size_t count, size_t shard, size_t shards) {
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = 2;
  rp.block = BLOCK;
  rp.work = BLOCK; /* one rows callback per block: one commit each with sync 0 */
  rp.first = first;
  rp.count = count;
  rp.shard = shard;
  rp.shards = shards;
  return rp;
}

/* Runs [first, first + count) (count 0: to the end) of a shard into an open output. */
static int run_into(const impactfit_sweep *s, impactfit_sweep_output *o, size_t first, size_t count, size_t shard,
                    size_t shards) {
  impactfit_sweep_run_params rp = params(first, count, shard, shards);
  impactfit_error err;
  impactfit_sweep_summary sum;
  int st = impactfit_sweep_run(s, &rp, impactfit_sweep_output_rows, impactfit_sweep_output_failure, o, &sum, &err);
  if (st)
    fprintf(stderr, "run: %s\n", err.message);
  return st;
}

static impactfit_sweep_output *open_out(const impactfit_sweep *s, const char *csv, int resume, size_t shard,
                                        size_t shards, int *status, impactfit_error *err) {
  impactfit_sweep_output_params p = impactfit_sweep_output_default_params();
  p.block = BLOCK;
  p.block_given = 1;
  p.resume = resume;
  p.shard = shard;
  p.shards = shards;
  p.sync_seconds = 0;
  impactfit_sweep_output *o = NULL;
  impactfit_error_clear(err);
  *status = impactfit_sweep_output_open(s, csv, &p, &o, err);
  return o;
}

/* A whole run of a shard into DIR/NAME.csv; returns the status of the finish. */
static int full_run(const impactfit_sweep *s, const char *csv, size_t shard, size_t shards) {
  impactfit_error err;
  int st;
  impactfit_sweep_output *o = open_out(s, csv, 0, shard, shards, &st, &err);
  if (st) {
    fprintf(stderr, "open %s: %s\n", csv, err.message);
    return st;
  }
  st = run_into(s, o, 0, 0, shard, shards);
  impactfit_sweep_output_run run = {2, 1, NULL};
  if (!st)
    st = impactfit_sweep_output_commit(o, &err) || impactfit_sweep_output_finish(o, &run, &err);
  impactfit_sweep_output_close(o);
  return st;
}

static void path(char *buf, size_t size, const char *name) { snprintf(buf, size, "%s/%s", tmpdir, name); }

/* The journal's commit lines: how many, and NEXT of each. */
static size_t commits(const char *journal, size_t *next, size_t max) {
  char *t = slurp(journal, NULL);
  size_t n = 0;
  for (char *p = t; p && (p = strstr(p, "\ncommit ")); p++)
    if (n < max)
      next[n++] = strtoul(p + 8, NULL, 10);
  free(t);
  return n;
}

static void test_resume_truncated(const impactfit_sweep *s, const char *ref_csv) {
  char dir[300], csv[400], journal[400];
  path(dir, sizeof dir, "resume");
  mkdir(dir, 0777);
  snprintf(csv, sizeof csv, "%s/sh.csv", dir);
  snprintf(journal, sizeof journal, "%s/sh.journal", dir);
  impactfit_error err;
  int st;
  impactfit_sweep_output *o = open_out(s, csv, 0, 0, 1, &st, &err);
  OK(st == 0 && o, "fresh open: %s", err.message);
  if (!o)
    return;
  OK(run_into(s, o, 0, 3 * BLOCK, 0, 1) == 0, "first part of the run");
  impactfit_sweep_output_close(o); /* a process that died: no finish */
  size_t next[16];
  size_t nc = commits(journal, next, 16);
  OK(nc == 3 && next[0] == BLOCK && next[1] == 2 * BLOCK && next[2] == 3 * BLOCK,
     "one commit per block: %zu commits, last NEXT %zu", nc, nc ? next[nc - 1] : 0);
  /* a kill in the middle of writing the last commit: cut the journal 5 bytes before its end */
  size_t len = 0;
  char *t = slurp(journal, &len);
  OK(t && truncate(journal, (off_t)(len - 5)) == 0, "truncate the journal");
  free(t);
  /* rows written after the surviving commit (they must be dropped): append garbage to the part file */
  char part[420];
  snprintf(part, sizeof part, "%s.part", csv);
  FILE *pf = fopen(part, "a");
  if (pf) {
    fputs("999,torn", pf);
    fclose(pf);
  }
  o = open_out(s, csv, 0, 0, 1, &st, &err);
  OK(st == IMPACTFIT_EINVAL && !o && strstr(err.message, "continue it with --resume"),
     "a journal without resume is refused: %s", err.message);
  o = open_out(s, csv, 1, 0, 1, &st, &err);
  OK(st == 0 && o, "resume: %s", err.message);
  if (!o)
    return;
  OK(impactfit_sweep_output_next(o) == 2 * BLOCK, "resume from the last intact commit: %zu, want %d",
     impactfit_sweep_output_next(o), 2 * BLOCK);
  impactfit_sweep_output_state os;
  impactfit_sweep_output_get_state(o, &os);
  OK(os.rows == 2 * BLOCK && os.sessions == 2, "state after resume: %zu rows, %zu sessions", os.rows, os.sessions);
  OK(run_into(s, o, impactfit_sweep_output_next(o), 0, 0, 1) == 0, "rest of the run");
  impactfit_sweep_output_run run = {2, 1, NULL};
  OK(impactfit_sweep_output_commit(o, &err) == 0 && impactfit_sweep_output_finish(o, &run, &err) == 0, "finish: %s",
     err.message);
  impactfit_sweep_output_close(o);
  OK(same_file(csv, ref_csv), "the resumed CSV is byte-identical to the uninterrupted run");
  OK(access(journal, F_OK) != 0 && access(part, F_OK) != 0, "journal and part file removed");
  /* the sidecar: sessions 2, the same counts as the reference's */
  impactfit_sweep_provenance a, b;
  char json[400], ref_json[400];
  snprintf(json, sizeof json, "%s/sh.json", dir);
  snprintf(ref_json, sizeof ref_json, "%.*s.json", (int)strlen(ref_csv) - 4, ref_csv);
  OK(impactfit_sweep_provenance_read(json, &a, &err) == 0, "read sidecar: %s", err.message);
  OK(impactfit_sweep_provenance_read(ref_json, &b, &err) == 0, "read reference sidecar: %s", err.message);
  OK(a.sessions == 2 && b.sessions == 1, "sessions %lld and %lld", a.sessions, b.sessions);
  OK(a.rows == 36 && a.points == 36 && a.rows == b.rows && a.failed == b.failed && a.rhs_evals == b.rhs_evals &&
         a.n_failures == b.n_failures && (long long)a.n_failures == a.failed,
     "counts: rows %lld, failed %lld/%lld, rhs %lld/%lld", a.rows, a.failed, b.failed, a.rhs_evals, b.rhs_evals);
  for (size_t i = 0; i < a.n_failures && i < b.n_failures; i++)
    OK(a.failures[i].index == b.failures[i].index && a.failures[i].status == b.failures[i].status &&
           strcmp(a.failures[i].message, b.failures[i].message) == 0,
       "failure %zu", i);
  OK(strcmp(a.hash, impactfit_sweep_hash(s)) == 0, "sidecar hash");
  impactfit_sweep_provenance_free(&a);
  impactfit_sweep_provenance_free(&b);
  /* where each session began: the second at the commit that survived (2 blocks), not before it */
  char *js = slurp(json, &len);
  char want[80];
  snprintf(want, sizeof want, "\"session_starts\": [0, %d],", 2 * BLOCK);
  OK(js && strstr(js, want), "the sidecar says %s", want);
  free(js);
  /* a second resume: nothing to do */
  o = open_out(s, csv, 1, 0, 1, &st, &err);
  impactfit_sweep_output_get_state(o, &os);
  OK(st == IMPACTFIT_SWEEP_COMPLETE && o && os.failed > 0, "resume of a finished output: %d (%s)", st, err.message);
  impactfit_sweep_output_close(o);
}

/* Flips one hex digit of the checksum of journal line `line` (0: the header). */
static void damage_checksum(const char *journal, int line) {
  size_t len = 0;
  char *t = slurp(journal, &len);
  char *p = t;
  for (int i = 0; p && i < line; i++)
    p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
  char *nl = p ? strchr(p, '\n') : NULL;
  if (nl) {
    nl[-1] = nl[-1] == '0' ? '1' : '0';
    spit(journal, t, len);
  }
  free(t);
}

static void test_checksum(const impactfit_sweep *s, const char *ref_csv) {
  char dir[300], csv[400], journal[400];
  path(dir, sizeof dir, "checksum");
  mkdir(dir, 0777);
  snprintf(csv, sizeof csv, "%s/sh.csv", dir);
  snprintf(journal, sizeof journal, "%s/sh.journal", dir);
  impactfit_error err;
  int st;
  impactfit_sweep_output *o = open_out(s, csv, 0, 0, 1, &st, &err);
  OK(st == 0 && o && run_into(s, o, 0, 2 * BLOCK, 0, 1) == 0, "first part of the run");
  impactfit_sweep_output_close(o);
  /* journal: header, session 1, [fail lines,] commit 8, ..., commit 16 (the last line) */
  size_t len = 0;
  char *t = slurp(journal, &len);
  int lines = 0;
  for (size_t i = 0; t && i < len; i++)
    lines += t[i] == '\n';
  free(t);
  /* the last commit's checksum damaged: it is not trusted, the run resumes from the one before */
  damage_checksum(journal, lines - 1);
  o = open_out(s, csv, 1, 0, 1, &st, &err);
  OK(st == 0 && o && impactfit_sweep_output_next(o) == BLOCK, "a damaged commit is skipped: next %zu (%s)",
     impactfit_sweep_output_next(o), err.message);
  OK(o && run_into(s, o, impactfit_sweep_output_next(o), 0, 0, 1) == 0, "rest of the run");
  impactfit_sweep_output_run run = {2, 1, NULL};
  OK(o && impactfit_sweep_output_commit(o, &err) == 0 && impactfit_sweep_output_finish(o, &run, &err) == 0, "finish");
  impactfit_sweep_output_close(o);
  OK(same_file(csv, ref_csv), "CSV after a damaged commit byte-identical to the uninterrupted run");

  /* the header's checksum damaged: refused with a clear error, nothing changed */
  o = open_out(s, csv, 0, 0, 1, &st, &err); /* a new run over the finished one (overwrites at finish) */
  OK(st == 0 && o && run_into(s, o, 0, BLOCK, 0, 1) == 0, "another interrupted run");
  impactfit_sweep_output_close(o);
  damage_checksum(journal, 0);
  o = open_out(s, csv, 1, 0, 1, &st, &err);
  OK(st == IMPACTFIT_EINVAL && !o && strstr(err.message, "sh.journal is not a journal of impactfit sweep") &&
         strstr(err.message, "first line is damaged"),
     "a damaged header is refused: %d %s", st, err.message);
  OK(access(journal, F_OK) == 0, "the refused journal is left in place");
}

static void test_merge(const impactfit_sweep *s, const char *ref_csv) {
  char dir[300], out[300], csv[500];
  path(dir, sizeof dir, "shards");
  path(out, sizeof out, "merged/deeper");
  mkdir(dir, 0777);
  for (size_t i = 0; i < 3; i++) {
    snprintf(csv, sizeof csv, "%s/sh.shard-%zu-of-3.csv", dir, i);
    OK(full_run(s, csv, i, 3) == 0, "shard %zu of 3", i);
  }
  const char *dirs[1] = {dir};
  impactfit_sweep_merge_result res;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_sweep_merge(dirs, 1, NULL, out, NULL, NULL, &res, &err);
  OK(st == 0, "merge: %s", err.message);
  snprintf(csv, sizeof csv, "%s/sh.csv", out);
  OK(strcmp(res.csv, csv) == 0 && res.shards == 3 && res.rows == 36 && strcmp(res.name, "sh") == 0,
     "merge result: %.200s %zu %zu", res.csv, res.shards, res.rows);
  OK(same_file(csv, ref_csv), "3 shards merged byte-identical to the unsharded CSV");
  impactfit_sweep_provenance a, b;
  char json[500], ref_json[400];
  snprintf(json, sizeof json, "%s/sh.json", out);
  snprintf(ref_json, sizeof ref_json, "%.*s.json", (int)strlen(ref_csv) - 4, ref_csv);
  OK(impactfit_sweep_provenance_read(json, &a, &err) == 0 && impactfit_sweep_provenance_read(ref_json, &b, &err) == 0,
     "sidecars: %s", err.message);
  OK(a.merged_shards == 3 && a.shards == 1 && a.shard == 0 && a.rows == b.rows && a.failed == b.failed &&
         a.rhs_evals == b.rhs_evals && a.n_failures == b.n_failures && res.failed == b.failed,
     "merged sidecar: shards %lld, failed %lld/%lld", a.merged_shards, a.failed, b.failed);
  for (size_t i = 0; i < a.n_failures && i < b.n_failures; i++)
    OK(a.failures[i].index == b.failures[i].index, "merged failure %zu in index order", i);
  impactfit_sweep_provenance_free(&a);
  impactfit_sweep_provenance_free(&b);
  /* a missing shard: refused, nothing written */
  char miss[300], from[600], to[600];
  path(miss, sizeof miss, "missing");
  mkdir(miss, 0777);
  for (int i = 0; i < 3; i += 2)
    for (int k = 0; k < 2; k++) {
      snprintf(from, sizeof from, "%s/sh.shard-%d-of-3.%s", dir, i, k ? "json" : "csv");
      snprintf(to, sizeof to, "%s/sh.shard-%d-of-3.%s", miss, i, k ? "json" : "csv");
      size_t l = 0;
      char *t = slurp(from, &l);
      spit(to, t, l);
      free(t);
    }
  const char *mdirs[1] = {miss};
  char out2[300];
  path(out2, sizeof out2, "merged2");
  st = impactfit_sweep_merge(mdirs, 1, NULL, out2, NULL, NULL, NULL, &err);
  OK(st == IMPACTFIT_EINVAL && strstr(err.message, "incomplete shard set: 1 of 3 shards of sh missing (1)") &&
         access(out2, F_OK) != 0,
     "a missing shard is refused: %s", err.message);
}

static void test_load(const impactfit_sweep *s, const char *ref_csv) {
  (void)s;
  char dir[300], ini[400], fit[400], json[400], csv[400];
  path(dir, sizeof dir, "fit");
  mkdir(dir, 0777);
  snprintf(ini, sizeof ini, "%s/sh.ini", dir);
  snprintf(fit, sizeof fit, "%s/fit.ini", dir);
  spit(ini, DEF, strlen(DEF));
  const char *fit_text = "[fit]\nname = t\nsweep = sh.ini\n[stage s]\ndata = sweep\nx = c\ny = e_out\n"
                         "form = polynomial\ndegree = 1\n";
  spit(fit, fit_text, strlen(fit_text));
  impactfit_fitfile *f = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  OK(impactfit_fitfile_load(fit, &f, &err) == 0, "fit file: %s", err.message);
  if (!f)
    return;
  impactfit_table *t = NULL;
  int st = impactfit_fitfile_load_data(f, dir, &t, &err);
  OK(st == IMPACTFIT_EIO && !t && strstr(err.message, "sh.json: run 'impactfit sweep"), "no data yet: %s", err.message);
  snprintf(csv, sizeof csv, "%s/sh.csv", dir);
  snprintf(json, sizeof json, "%s/sh.json", dir);
  impactfit_sweep *s2 = NULL;
  OK(impactfit_sweep_load(ini, &s2, &err) == 0 && full_run(s2, csv, 0, 1) == 0, "the sweep into the fit's dir");
  OK(same_file(csv, ref_csv), "same CSV");
  st = impactfit_fitfile_load_data(f, dir, &t, &err);
  OK(st == 0 && t && impactfit_table_rows(t) == 36, "load with the right hash: %s", err.message);
  impactfit_table_free(t);
  t = NULL;
  /* the sidecar rewritten without the spaces after ':' (a JSON writer's choice): still accepted */
  size_t len = 0;
  char *text = slurp(json, &len), *compact = malloc(len + 1);
  size_t k = 0;
  for (size_t i = 0; text && compact && i < len; i++)
    if (!(text[i] == ' ' && i > 0 && text[i - 1] == ':'))
      compact[k++] = text[i];
  spit(json, compact, k);
  st = impactfit_fitfile_load_data(f, dir, &t, &err);
  OK(st == 0 && t, "a sidecar in another JSON layout is read: %s", err.message);
  impactfit_table_free(t);
  t = NULL;
  /* a wrong hash: refused */
  char *h = strstr(text, "\"definition_xxh64\": \"");
  if (h) {
    char *d = h + strlen("\"definition_xxh64\": \"");
    *d = *d == 'a' ? 'b' : 'a';
  }
  spit(json, text, len);
  st = impactfit_fitfile_load_data(f, dir, &t, &err);
  OK(st == IMPACTFIT_EINVAL && !t && strstr(err.message, "sh.csv was not produced from the current") &&
         strstr(err.message, "definition hash differs"),
     "a sidecar with a wrong hash is refused: %d %s", st, err.message);
  free(text);
  free(compact);
  impactfit_sweep_free(s2);
  impactfit_fitfile_free(f);
}

/* The scheduler of a run over several processes (impactfit_sweep_tasks): three simulated processes
 * whose tasks finish in reverse order, their parts passed through byte copies as a transport would;
 * the CSV must be the reference's byte for byte, and the counts per process must add up. A task
 * that comes back short (its process stopped) ends the run with EINTR at the last complete task, and
 * a resume from there finishes it to the same CSV. */
/* A poll hook with its own context (poll_ctx): counts its calls. */
static int count_polls(void *ctx, size_t done, size_t failed) {
  (void)done, (void)failed;
  ++*(int *)ctx;
  return 0;
}

static void test_tasks(const impactfit_sweep *s, const char *ref_csv) {
  char dir[300], csv[400];
  path(dir, sizeof dir, "tasks");
  mkdir(dir, 0777);
  snprintf(csv, sizeof csv, "%s/sh.csv", dir);
  for (int interrupt = 1; interrupt >= 0; interrupt--) {
    impactfit_error err;
    int st;
    impactfit_sweep_output *o = open_out(s, csv, 1, 0, 1, &st, &err);
    OK(st == 0 && o, "open: %s", err.message);
    if (!o)
      return;
    impactfit_sweep_run_params rp = params(impactfit_sweep_output_next(o), 0, 0, 1);
    int polls = 0; /* the rows go to the parts, the hook gets its own context */
    rp.poll = count_polls;
    rp.poll_ctx = &polls;
    size_t per[3] = {0, 0, 0}, handed = 0, tasks = 0, last_count = 0, largest = 0;
    impactfit_sweep_tasks *t = NULL;
    OK(impactfit_sweep_tasks_new(s, &rp, 3, 1, o, per, &t, &err) == 0, "new: %s", err.message);
    while (t && !impactfit_sweep_tasks_stopping(t) && !impactfit_sweep_tasks_finished(t)) {
      impactfit_sweep_part *batch[3];
      size_t nb = 0;
      for (int w = 0; w < 3; w++)
        if ((batch[nb] = impactfit_sweep_tasks_claim(t, w))) {
          OK(batch[nb]->first == rp.first + handed, "tasks in increasing order, without gaps");
          handed += batch[nb++]->count;
        }
      for (size_t k = nb; k-- > 0;) { /* the last task handed out finishes first */
        impactfit_sweep_part *p = batch[k], copy;
        tasks++;
        last_count = p->count;
        largest = p->count > largest ? p->count : largest;
        memset(&copy, 0, sizeof copy);
        /* the 4th task comes back short (its process stopped) */
        impactfit_sweep_part_start(&copy, p->first, interrupt && tasks == 4 ? p->count - 1 : p->count);
        OK(impactfit_sweep_part_run(s, &rp, &copy, &err) == 0 && copy.covered == copy.count, "task run: %s",
           err.message);
        OK(impactfit_sweep_tasks_find(t, p->task, p->worker) == p && !impactfit_sweep_tasks_find(t, p->task, 9),
           "find the task's slot for its process only");
        OK(impactfit_sweep_part_reserve(p, copy.rows_len, copy.fails_len) == 0, "reserve");
        if (copy.rows_len) /* a transport's copy (a part without failures has no fails buffer) */
          memcpy(p->rows, copy.rows, copy.rows_len);
        if (copy.fails_len)
          memcpy(p->fails, copy.fails, copy.fails_len);
        p->covered = copy.covered;
        p->failed = copy.failed;
        impactfit_sweep_part_free(&copy);
        impactfit_sweep_tasks_done(t, p, 0);
      }
      impactfit_sweep_tasks_write(t);
    }
    OK(polls >= 3, "the poll hook got poll_ctx: %d calls", polls);
    int status = t ? impactfit_sweep_tasks_status(t) : -1;
    impactfit_sweep_tasks_free(t);
    impactfit_sweep_output_run run = {2, 3, per};
    if (interrupt) {
      OK(status == IMPACTFIT_EINTR && impactfit_sweep_output_next(o) > 0 && impactfit_sweep_output_next(o) < 36,
         "a short task stops the run: status %d, next %zu", status, impactfit_sweep_output_next(o));
      OK(impactfit_sweep_output_commit(o, &err) == 0, "commit: %s", err.message);
    } else {
      OK(status == 0 && per[0] + per[1] + per[2] == 36 - rp.first && per[0] && per[1] && per[2],
         "every point written once, by all three: %zu %zu %zu", per[0], per[1], per[2]);
      OK(tasks > 3 && last_count == 1 && largest <= 4, "guided sizes: %zu tasks, the largest %zu, the last %zu", tasks,
         largest, last_count);
      OK(impactfit_sweep_output_commit(o, &err) == 0 && impactfit_sweep_output_finish(o, &run, &err) == 0, "finish: %s",
         err.message);
    }
    impactfit_sweep_output_close(o);
  }
  OK(same_file(csv, ref_csv), "the CSV of the scheduled, interrupted and resumed run is the reference's");
}

static void test_parsers(void) {
  impactfit_sweep_provenance p;
  impactfit_error err;
  const char *bad[] = {"", "[]", "{\"generator\": \"impactfit sweep\"}",
                       "{\"generator\": \"other\", \"definition_xxh64\": \"0123456789abcdef\"}",
                       "{\"generator\": \"impactfit sweep\", \"definition_xxh64\": \"0123456789abcdeg\"}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    impactfit_error_clear(&err);
    int st = impactfit_sweep_provenance_parse(bad[i], strlen(bad[i]), "x.json", &p, &err);
    OK(st == IMPACTFIT_EPARSE && strncmp(err.message, "x.json", 6) == 0, "bad sidecar %zu refused: %s", i, err.message);
  }
  const char *good = "{\"generator\": \"impactfit sweep\", \"definition_xxh64\": \"0123456789abcdef\", \"rows\": 3,"
                     " \"failures\": [{\"index\": 2, \"status\": \"ENOSEP\", \"message\": \"m\"}]}";
  OK(impactfit_sweep_provenance_parse(good, strlen(good), "x.json", &p, &err) == 0 && p.rows == 3 && p.points == -1 &&
         p.n_failures == 1 && p.failures[0].index == 2 && p.failures[0].status == IMPACTFIT_ENOSEP,
     "minimal sidecar");
  impactfit_sweep_provenance_free(&p);
  impactfit__journal j;
  const char *junk = "impactfit-sweep-journal 1 version=1 definition=x block=1 shard=0/1 points=1 header=1\n";
  OK(impactfit__journal_parse(junk, strlen(junk), "j", &j, &err) == IMPACTFIT_EPARSE, "unchecked header refused");
  /* an output's NAME: the definition's base name without .ini */
  const char *names[][2] = {
      {"d/e.x/demo.ini", "demo"}, {"demo.ini.ini", "demo.ini"}, {".ini", ".ini"}, {"a/b", "b"}, {"x.INI", "x.INI"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    impactfit_sweep *s = NULL;
    char buf[64];
    OK(impactfit_sweep_parse(DEF, strlen(DEF), names[i][0], &s, &err) == 0 &&
           impactfit_sweep_output_name(s, buf, sizeof buf) == strlen(names[i][1]) && strcmp(buf, names[i][1]) == 0,
       "output name of %s", names[i][0]);
    if (i == 0)
      OK(impactfit_sweep_output_name(s, buf, 3) == 4 && strcmp(buf, "de") == 0, "output name cut: %s", buf);
    impactfit_sweep_free(s);
  }
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/test_sweepio.XXXXXX");
  if (!mkdtemp(tmpdir))
    return 1;
  impactfit_sweep *s = NULL;
  impactfit_error err;
  if (impactfit_sweep_parse(DEF, strlen(DEF), "sh.ini", &s, &err)) {
    fprintf(stderr, "parse: %s\n", err.message);
    return 1;
  }
  char refdir[300], ref[400];
  path(refdir, sizeof refdir, "ref");
  mkdir(refdir, 0777);
  snprintf(ref, sizeof ref, "%s/sh.csv", refdir);
  OK(full_run(s, ref, 0, 1) == 0, "reference run");
  /* the reference itself: the header and 36 rows in index order, some failed (ENOSEP) */
  char *t = slurp(ref, NULL);
  size_t rows = 0;
  for (char *p = t ? strchr(t, '\n') : NULL; p && p[1]; p = strchr(p + 1, '\n'))
    OK((size_t)strtoul(p + 1, NULL, 10) == rows++, "row %zu in order", rows);
  OK(rows == 36 && t && strstr(t, "ENOSEP"), "reference: %zu rows with failures", rows);
  free(t);
  test_resume_truncated(s, ref);
  test_checksum(s, ref);
  test_merge(s, ref);
  test_load(s, ref);
  test_tasks(s, ref);
  test_parsers();
  impactfit_sweep_free(s);
  if (!tu_failures) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
      fprintf(stderr, "note: could not remove %s\n", tmpdir);
  }
  printf("test_sweepio: %d checks, %d failures\n", tu_checks, tu_failures);
  return tu_failures != 0;
}
