/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Durable, resumable sweep output (sweep_io.h): the part file, its checksummed journal, the lock, the
 * commit, the resume and the finish with the JSON sidecar. */
#define _GNU_SOURCE /* flock, fdatasync */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "../common/common_impl.h"
#include "../common/io_impl.h"
#include "sweepio_impl.h"

struct impactfit_sweep_output {
  const impactfit_sweep *s;
  char csv[4096], part[4200], journal[4200], json[4200], dir[4096];
  int part_fd, jfd;
  /* identity of the result */
  char hash[17];
  size_t block, shard, shards, points;
  /* state: everything written (committed or pending) */
  size_t next, rows, failed;
  unsigned long long bytes;
  long long rhs;
  double wall_before, t_start, sync, last_sync;
  size_t sessions;
  size_t *starts;    /* starts[k]: the points done when session k + 1 began (the journal's "session K from=P") */
  size_t start_rows; /* where this process started */
  /* journal lines not written yet */
  char *pend;
  size_t pend_len, pend_cap;
  impactfit_sweep_failure *fail;
  size_t nfail;
  char error[600]; /* the reason of the last failed write */
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- small I/O helpers ---- */

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

void impactfit__sync_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}

static int set_error(impactfit_sweep_output *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int set_error(impactfit_sweep_output *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(o->error, sizeof o->error, fmt, ap);
  va_end(ap);
  return IMPACTFIT_EIO;
}

/* Appends one checksummed journal line "TEXT #XXH64\n" to the buffer. */
static int pend_line(impactfit_sweep_output *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int pend_line(impactfit_sweep_output *o, const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  void *loc = impactfit__locale_push(); /* WALL as %.6f in the C locale */
  int n = vsnprintf(line, sizeof line - 24, fmt, ap);
  impactfit__locale_pop(loc);
  va_end(ap);
  if (n < 0)
    return -1;
  if ((size_t)n >= sizeof line - 24)
    n = (int)(sizeof line - 25);
  /* no newline or '#' inside a record: messages are one line */
  for (int i = 0; i < n; i++)
    if ((unsigned char)line[i] < 0x20 || line[i] == '#')
      line[i] = ' ';
  n += snprintf(line + n, sizeof line - (size_t)n, " #%016llx\n", (unsigned long long)XXH64(line, (size_t)n, 0));
  if (o->pend_len + (size_t)n > o->pend_cap) {
    size_t cap = 2 * (o->pend_cap + (size_t)n);
    char *p = realloc(o->pend, cap);
    if (!p)
      return -1;
    o->pend = p;
    o->pend_cap = cap;
  }
  memcpy(o->pend + o->pend_len, line, (size_t)n);
  o->pend_len += (size_t)n;
  return 0;
}

static void add_failure(impactfit_sweep_failure *fail, size_t *nfail, size_t index, int status, const char *message) {
  if (*nfail >= IMPACTFIT_SWEEP_MAX_LISTED)
    return;
  impactfit_sweep_failure *f = &fail[*nfail];
  f->index = index;
  f->status = status;
  f->message = strdup(message ? message : "");
  if (f->message)
    (*nfail)++;
}

static int write_header_line(impactfit_sweep_output *o) {
  return pend_line(
      o, IMPACTFIT__JOURNAL_MAGIC " version=%s definition=%s block=%zu shard=%zu/%zu points=%zu header=%zu",
      impactfit_version(), o->hash, o->block, o->shard, o->shards, o->points, strlen(impactfit_sweep_csv_header(o->s)));
}

static int flush_pending(impactfit_sweep_output *o) {
  if (write_all(o->jfd, o->pend, o->pend_len) != 0 || fdatasync(o->jfd) != 0)
    return set_error(o, "cannot write %s: %s", o->journal, strerror(errno));
  o->pend_len = 0;
  return 0;
}

static double wall(const impactfit_sweep_output *o) { return o->wall_before + (now() - o->t_start); }

static int commit(impactfit_sweep_output *o) {
  if (fdatasync(o->part_fd) != 0)
    return set_error(o, "cannot write %s: %s", o->part, strerror(errno));
  if (pend_line(o, "commit %zu %llu %zu %zu %lld %.6f", o->next, o->bytes, o->rows, o->failed, o->rhs, wall(o)))
    return set_error(o, "out of memory");
  int st = flush_pending(o);
  o->last_sync = now();
  return st;
}

int impactfit_sweep_output_commit(impactfit_sweep_output *o, impactfit_error *err) {
  if (!o)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impactfit_sweep_output_commit: no output");
  if (commit(o))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "%s", o->error);
  return 0;
}

/* ---- callbacks ---- */

int impactfit_sweep_output_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  impactfit_sweep_output *o = ctx;
  if (first != o->next)
    return set_error(o, "internal error: rows from point %zu delivered after point %zu", first, o->next);
  if (write_all(o->part_fd, rows, len) != 0)
    return set_error(o, "cannot write %s: %s", o->part, strerror(errno));
  /* rows and right-hand-side evaluations: the last column of each row */
  for (const char *p = rows, *end = rows + len; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      break;
    const char *c = nl;
    while (c > p && c[-1] != ',')
      c--;
    /* rows need not be NUL-terminated (a part received from another process is not): the field is
     * copied out before strtoll reads it */
    char field[32];
    size_t fl = (size_t)(nl - c) < sizeof field - 1 ? (size_t)(nl - c) : sizeof field - 1;
    memcpy(field, c, fl);
    field[fl] = '\0';
    o->rhs += strtoll(field, NULL, 10);
    o->rows++;
    p = nl + 1;
  }
  o->bytes += len;
  o->next = first + count;
  if (now() - o->last_sync >= o->sync)
    return commit(o) ? IMPACTFIT_EIO : 0;
  return 0;
}

void impactfit_sweep_output_failure(void *ctx, size_t index, int status, const char *message) {
  impactfit_sweep_output *o = ctx;
  o->failed++;
  if (o->nfail < IMPACTFIT_SWEEP_MAX_LISTED) {
    add_failure(o->fail, &o->nfail, index, status, message);
    pend_line(o, "fail %zu %d %s", index, status, message ? message : "");
  }
}

/* ---- the journal's reader ---- */

int impactfit__journal_line_ok(char *line) {
  char *h = strrchr(line, '#');
  if (!h || h == line || h[-1] != ' ' || strlen(h + 1) != 16)
    return 0;
  char want[17];
  snprintf(want, sizeof want, "%016llx", (unsigned long long)XXH64(line, (size_t)(h - 1 - line), 0));
  if (strcmp(want, h + 1) != 0)
    return 0;
  h[-1] = '\0';
  return 1;
}

void impactfit__journal_free(impactfit__journal *j) {
  if (!j)
    return;
  for (size_t i = 0; i < j->nfail; i++)
    free(j->fail[i].message);
  free(j->fail);
  j->fail = NULL;
  j->nfail = 0;
  free(j->starts);
  j->starts = NULL;
}

/* One record after the header; 0 when it ends the journal. */
static int journal_record(impactfit__journal *j, const char *line, size_t *committed_fail) {
  size_t idx, next, rows, failed;
  int status, off = 0;
  unsigned long long bytes;
  long long rhs;
  double w;
  if (sscanf(line, "fail %zu %d %n", &idx, &status, &off) == 2 && off > 0) {
    add_failure(j->fail, &j->nfail, idx, status, line + off);
  } else if (sscanf(line, "commit %zu %llu %zu %zu %lld %lf", &next, &bytes, &rows, &failed, &rhs, &w) == 6) {
    j->have_commit = 1;
    j->next = next;
    j->bytes = bytes;
    j->rows = rows;
    j->failed = failed;
    j->rhs = rhs;
    j->wall = w;
    *committed_fail = j->nfail;
  } else if (strncmp(line, "session ", 8) == 0) {
    size_t k, from = 0;
    if (sscanf(line, "session %zu from=%zu", &k, &from) < 1)
      return 0;
    size_t *grown = realloc(j->starts, (j->sessions + 1) * sizeof *grown);
    if (!grown)
      return 0;
    j->starts = grown;
    j->starts[j->sessions++] = from;
  } else {
    return 0; /* an unknown record: treat as the end */
  }
  return 1;
}

int impactfit__journal_parse(const char *text, size_t len, const char *name, impactfit__journal *j,
                             impactfit_error *err) {
  memset(j, 0, sizeof *j);
  j->fail = calloc(IMPACTFIT_SWEEP_MAX_LISTED, sizeof *j->fail);
  if (!j->fail)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  void *loc = impactfit__locale_push(); /* sscanf of WALL */
  char line[2048];
  int n = 0, bad = 0;
  size_t committed_fail = 0;
  for (const char *p = text, *end = text + len; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t l = nl ? (size_t)(nl - p) : 0;
    /* a torn last line, a line longer than any record, a NUL byte: the end */
    if (!nl || l >= sizeof line - 1 || memchr(p, '\0', l))
      break;
    memcpy(line, p, l);
    line[l] = '\0';
    p = nl + 1;
    if (!impactfit__journal_line_ok(line))
      break;
    if (n++ == 0) {
      if (sscanf(line,
                 IMPACTFIT__JOURNAL_MAGIC " version=%63s definition=%31s block=%zu shard=%zu/%zu points=%zu header=%zu",
                 j->version, j->hash, &j->block, &j->shard, &j->shards, &j->points, &j->header) != 7)
        bad = 1;
      if (bad)
        break;
      continue;
    }
    if (!journal_record(j, line, &committed_fail))
      break;
  }
  impactfit__locale_pop(loc);
  /* failures recorded after the last commit belong to rows that were not committed */
  while (j->nfail > committed_fail) {
    j->nfail--;
    free(j->fail[j->nfail].message);
  }
  if (n == 0 || bad) {
    impactfit__journal_free(j);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE,
                           "%s is not a journal of impactfit sweep (or its first line is damaged)", name);
  }
  return 0;
}

/* ---- open ---- */

static int file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* resume without a journal: is DIR/NAME.csv with its sidecar already this sweep's result? */
static int already_complete(impactfit_sweep_output *o, int block_given) {
  if (!file_exists(o->csv))
    return 0;
  impactfit_sweep_provenance pv;
  if (impactfit_sweep_provenance_read(o->json, &pv, NULL))
    return 0;
  int same = strcmp(pv.hash, o->hash) == 0 && strcmp(pv.version, impactfit_version()) == 0 &&
             (pv.shards < 0 ? 1 : (size_t)pv.shards) == o->shards && (pv.shard < 0 || (size_t)pv.shard == o->shard) &&
             (!block_given || (size_t)pv.block == o->block) && pv.failed >= 0;
  if (same)
    o->failed = (size_t)pv.failed;
  impactfit_sweep_provenance_free(&pv);
  return same;
}

/* The message for a part file that a live process holds locked: never advice to delete it. */
static int live_writer(const impactfit_sweep_output *o, impactfit_error *err) {
  return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                         "%s is being written by another impactfit process that is still running (it holds the "
                         "file's lock): wait for it to finish, or stop it (SIGINT or SIGTERM saves its rows) and "
                         "continue with --resume; do not delete its files while it runs",
                         o->part);
}

static int lock_part(impactfit_sweep_output *o, impactfit_error *err) {
  if (flock(o->part_fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    return live_writer(o, err);
  return 0;
}

/* 1 when a live process holds the part file's lock (the file is left as it is). */
static int part_is_live(const impactfit_sweep_output *o) {
  int fd = open(o->part, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  int live = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close(fd); /* releases the lock if this took it */
  return live;
}

#define FAIL_IO(what) IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot write %s: %s", (what), strerror(errno))

/* A fresh run: new part file (header) and journal. */
static int start_fresh(impactfit_sweep_output *o, impactfit_error *err) {
  o->part_fd = open(o->part, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (o->part_fd < 0)
    return FAIL_IO(o->part);
  int rc = lock_part(o, err);
  if (rc)
    return rc;
  const char *hdr = impactfit_sweep_csv_header(o->s);
  if (ftruncate(o->part_fd, 0) != 0 || write_all(o->part_fd, hdr, strlen(hdr)) != 0 || fdatasync(o->part_fd) != 0)
    return FAIL_IO(o->part);
  o->bytes = strlen(hdr);
  o->jfd = open(o->journal, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (o->jfd < 0)
    return FAIL_IO(o->journal);
  free(o->starts);
  if (!(o->starts = calloc(1, sizeof *o->starts)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  o->sessions = 1;
  if (write_header_line(o) || pend_line(o, "session 1 from=0") || flush_pending(o))
    return FAIL_IO(o->journal);
  impactfit__sync_dir(o->dir);
  return 0;
}

static int read_journal(impactfit_sweep_output *o, impactfit__journal *j, impactfit_error *err) {
  FILE *f = fopen(o->journal, "rb");
  if (!f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot read %s: %s", o->journal, strerror(errno));
  size_t len = 0, cap = 1 << 16;
  char *text = malloc(cap);
  while (text) {
    len += fread(text + len, 1, cap - len, f);
    if (len < cap)
      break;
    char *t = realloc(text, cap *= 2);
    if (!t)
      free(text);
    text = t;
  }
  int rd = ferror(f);
  fclose(f);
  if (!text || rd) {
    free(text);
    return IMPACTFIT__FAIL(err, text ? IMPACTFIT_EIO : IMPACTFIT_ENOMEM, "cannot read %s", o->journal);
  }
  int st = impactfit__journal_parse(text, len, o->journal, j, err);
  free(text);
  if (st == IMPACTFIT_EPARSE)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s is not a journal of impactfit sweep (or its first line is damaged): delete it and %s to "
                           "start the sweep over",
                           o->journal, o->part);
  return st;
}

static const char *const HOW = "; delete it and the .csv.part file to start over";

/* The journal's identity against this run's. */
static int check_identity(impactfit_sweep_output *o, const impactfit__journal *j, size_t block, int block_given,
                          impactfit_error *err) {
  if (strcmp(j->hash, o->hash) != 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "cannot resume: %s has changed since the interrupted run (definition hash %s, the journal "
                           "%s "
                           "has %s)%s",
                           impactfit_sweep_name(o->s), o->hash, o->journal, j->hash, HOW);
  if (strcmp(j->version, impactfit_version()) != 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "cannot resume: %s was written by impactfit %s, this is %s (rows could differ)%s",
                           o->journal, j->version, impactfit_version(), HOW);
  if (j->shard != o->shard || j->shards != o->shards)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "cannot resume: %s is shard %zu/%zu, not %zu/%zu%s", o->journal,
                           j->shard, j->shards, o->shard, o->shards, HOW);
  if (block_given && j->block != block)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "cannot resume with --block %zu: the interrupted run used blocks of %zu points (rows depend "
                           "on it); omit --block",
                           block, j->block);
  if (j->points != o->points || j->header != strlen(impactfit_sweep_csv_header(o->s)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "cannot resume: %s describes another grid%s", o->journal, HOW);
  return 0;
}

/* Rewrites the journal compactly (header, failures, sessions, the commit) and atomically. */
static int rewrite_journal(impactfit_sweep_output *o, impactfit_error *err) {
  char tmp[4300];
  snprintf(tmp, sizeof tmp, "%s.tmp", o->journal);
  int tfd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (tfd < 0)
    return FAIL_IO(tmp);
  o->pend_len = 0;
  int bad = write_header_line(o);
  for (size_t i = 0; i < o->nfail && !bad; i++)
    bad = pend_line(o, "fail %zu %d %s", o->fail[i].index, o->fail[i].status, o->fail[i].message);
  for (size_t k = 0; k < o->sessions && !bad; k++)
    bad = pend_line(o, "session %zu from=%zu", k + 1, o->starts[k]);
  bad = bad || pend_line(o, "commit %zu %llu %zu %zu %lld %.6f", o->next, o->bytes, o->rows, o->failed, o->rhs,
                         o->wall_before);
  if (bad || write_all(tfd, o->pend, o->pend_len) != 0 || fsync(tfd) != 0 || close(tfd) != 0 ||
      rename(tmp, o->journal) != 0) {
    int e = errno;
    unlink(tmp);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot write %s: %s", o->journal, strerror(e));
  }
  o->pend_len = 0;
  impactfit__sync_dir(o->dir);
  o->jfd = open(o->journal, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (o->jfd < 0)
    return FAIL_IO(o->journal);
  return 0;
}

/* The part file holds the committed bytes (header first, ends with a row); cut it back to them. */
static int cut_part(impactfit_sweep_output *o, const impactfit__journal *j, impactfit_error *err) {
  const char *hdr = impactfit_sweep_csv_header(o->s);
  size_t hl = strlen(hdr);
  char *head = malloc(hl + 1);
  char last = 0;
  struct stat st;
  int ok = head && fstat(o->part_fd, &st) == 0 && (unsigned long long)st.st_size >= j->bytes && j->bytes >= hl &&
           pread(o->part_fd, head, hl, 0) == (ssize_t)hl && memcmp(head, hdr, hl) == 0 &&
           pread(o->part_fd, &last, 1, (off_t)j->bytes - 1) == 1 && last == '\n';
  free(head);
  if (!ok)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "cannot resume: %s does not hold the %llu bytes of rows its journal committed%s", o->part,
                           j->bytes, HOW);
  /* drop rows written after the last commit (and a torn row) */
  if (ftruncate(o->part_fd, (off_t)j->bytes) != 0 || fdatasync(o->part_fd) != 0 ||
      lseek(o->part_fd, 0, SEEK_END) != (off_t)j->bytes)
    return FAIL_IO(o->part);
  return 0;
}

static int resume(impactfit_sweep_output *o, size_t block, int block_given, impactfit_error *err) {
  impactfit__journal j;
  int rc = read_journal(o, &j, err);
  if (rc)
    return rc;
  if ((rc = check_identity(o, &j, block, block_given, err)))
    goto out;
  o->block = j.block;
  o->part_fd = open(o->part, O_RDWR | O_CLOEXEC);
  struct stat st;
  if (o->part_fd < 0 && errno == ENOENT && j.have_commit && j.next == o->points && stat(o->csv, &st) == 0 &&
      (unsigned long long)st.st_size == j.bytes) {
    /* killed after the part file became the CSV: only the journal's removal was left */
    if (unlink(o->journal) != 0) {
      rc = IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot remove %s: %s", o->journal, strerror(errno));
      goto out;
    }
    impactfit__sync_dir(o->dir);
    o->failed = j.failed;
    rc = IMPACTFIT_SWEEP_COMPLETE;
    goto out;
  }
  if (o->part_fd < 0 && !(errno == ENOENT && !j.have_commit)) {
    rc = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "cannot resume: cannot open %s: %s%s", o->part, strerror(errno), HOW);
    goto out;
  }
  if (o->part_fd >= 0 && (rc = lock_part(o, err)))
    goto out;
  if (!j.have_commit) { /* killed before the first commit: start over, same journal identity */
    if (o->part_fd >= 0)
      close(o->part_fd);
    o->part_fd = -1;
    rc = start_fresh(o, err);
    goto out;
  }
  if ((rc = cut_part(o, &j, err)))
    goto out;
  o->next = j.next;
  o->bytes = j.bytes;
  o->rows = j.rows;
  o->failed = j.failed;
  o->rhs = j.rhs;
  o->wall_before = j.wall;
  /* this session's start: the points committed before it (none of them is computed again) */
  free(o->starts);
  if (!(o->starts = malloc((j.sessions + 1) * sizeof *o->starts))) {
    rc = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    goto out;
  }
  for (size_t k = 0; k < j.sessions; k++)
    o->starts[k] = j.starts[k];
  o->starts[j.sessions] = j.rows;
  o->sessions = j.sessions + 1;
  /* the failures committed: the output's list */
  for (size_t i = 0; i < j.nfail; i++)
    o->fail[i] = j.fail[i];
  o->nfail = j.nfail;
  j.nfail = 0;
  rc = rewrite_journal(o, err);
out:
  impactfit__journal_free(&j);
  return rc;
}

impactfit_sweep_output_params impactfit_sweep_output_default_params(void) {
  impactfit_sweep_output_params p;
  memset(&p, 0, sizeof p);
  p.shards = 1;
  p.sync_seconds = 2.0;
  return p;
}

/* Paths and identity; 0 or EINVAL/ENOMEM. */
static int init_output(impactfit_sweep_output *o, const impactfit_sweep *s, const char *csv_path,
                       const impactfit_sweep_output_params *p, impactfit_error *err) {
  o->part_fd = o->jfd = -1;
  o->s = s;
  size_t cl = strlen(csv_path);
  if (cl >= sizeof o->csv)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "output path too long");
  if (cl < 5 || strcmp(csv_path + cl - 4, ".csv") != 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: the output's name must end in .csv", csv_path);
  snprintf(o->csv, sizeof o->csv, "%s", csv_path);
  snprintf(o->part, sizeof o->part, "%s.part", csv_path);
  snprintf(o->journal, sizeof o->journal, "%.*s.journal", (int)(cl - 4), csv_path);
  snprintf(o->json, sizeof o->json, "%.*s.json", (int)(cl - 4), csv_path);
  snprintf(o->dir, sizeof o->dir, "%s", csv_path);
  char *slash = strrchr(o->dir, '/');
  if (slash)
    *slash = '\0';
  else
    snprintf(o->dir, sizeof o->dir, ".");
  snprintf(o->hash, sizeof o->hash, "%s", impactfit_sweep_hash(s));
  o->block = impactfit_sweep_block_size(s, p->block);
  o->shard = p->shard;
  o->shards = p->shards ? p->shards : 1;
  if (o->shard >= o->shards)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "shard %zu of %zu: expected 0 <= shard < shards", o->shard,
                           o->shards);
  if (!(p->sync_seconds >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "sync_seconds: expected >= 0");
  o->points = impactfit_sweep_point_count(s);
  o->sync = p->sync_seconds;
  o->t_start = o->last_sync = now();
  o->fail = calloc(IMPACTFIT_SWEEP_MAX_LISTED, sizeof *o->fail);
  if (!o->fail)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  return 0;
}

int impactfit_sweep_output_open(const impactfit_sweep *s, const char *csv_path, const impactfit_sweep_output_params *p,
                                impactfit_sweep_output **out, impactfit_error *err) {
  if (out)
    *out = NULL;
  if (!s || !csv_path || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impactfit_sweep_output_open: NULL argument");
  impactfit_sweep_output_params def = impactfit_sweep_output_default_params();
  if (!p)
    p = &def;
  impactfit_sweep_output *o = calloc(1, sizeof *o);
  if (!o)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  int rc = init_output(o, s, csv_path, p, err);
  if (!rc && file_exists(o->journal)) {
    if (!p->resume && part_is_live(o))
      rc = live_writer(o, err);
    else if (!p->resume)
      rc = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s holds an interrupted run of this output: continue it with --resume, or delete it and %s "
                           "to start over",
                           o->journal, o->part);
    else
      rc = resume(o, o->block, p->block_given, err);
  } else if (!rc) {
    if (p->resume && already_complete(o, p->block_given))
      rc = IMPACTFIT_SWEEP_COMPLETE;
    else
      rc = start_fresh(o, err);
  }
  if (rc < 0) {
    impactfit_sweep_output_close(o);
    return rc;
  }
  o->start_rows = o->rows;
  *out = o;
  return rc;
}

/* ---- state ---- */

size_t impactfit_sweep_output_next(const impactfit_sweep_output *o) { return o ? o->next : 0; }
size_t impactfit_sweep_output_block(const impactfit_sweep_output *o) { return o ? o->block : 0; }
const char *impactfit_sweep_output_part_path(const impactfit_sweep_output *o) { return o ? o->part : ""; }
const char *impactfit_sweep_output_error(const impactfit_sweep_output *o) { return o ? o->error : ""; }

void impactfit_sweep_output_get_state(const impactfit_sweep_output *o, impactfit_sweep_output_state *st) {
  memset(st, 0, sizeof *st);
  if (!o)
    return;
  st->rows = o->rows;
  st->failed = o->failed;
  st->rhs_evals = o->rhs;
  st->sessions = o->sessions;
  st->rows_at_open = o->start_rows;
  st->listed = o->nfail;
  st->wall_seconds = wall(o);
}

int impactfit_sweep_output_failure_at(const impactfit_sweep_output *o, size_t i, size_t *index, int *status,
                                      const char **message) {
  if (!o || i >= o->nfail)
    return IMPACTFIT_EINVAL;
  if (index)
    *index = o->fail[i].index;
  if (status)
    *status = o->fail[i].status;
  if (message)
    *message = o->fail[i].message;
  return 0;
}

/* ---- the sidecar ---- */

static void json_string(FILE *f, const char *v) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

/* "tolerances" and "fixed": the parameters that are not swept (and the options). */
static void json_params(FILE *f, const impactfit_sweep *s, int tolerances_only, int options) {
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
  int first = 1;
  for (size_t i = 0; i < pr->n_params; i++)
    if ((!tolerances_only || (pr->params[i].flags & IMPACTFIT_SWEEP_TOLERANCE)) &&
        !impactfit_sweep_param_is_swept(s, i)) {
      fprintf(f, "%s\"%s\": %.17g", first ? "" : ", ", pr->params[i].name, impactfit_sweep_param_value(s, i));
      first = 0;
    }
  for (size_t j = 0; options && j < pr->n_options; j++) {
    fprintf(f, "%s\"%s\": ", first ? "" : ", ", pr->options[j].name);
    json_string(f, impactfit_sweep_option_value(s, j));
    first = 0;
  }
}

static void write_json(FILE *f, const impactfit_sweep_output *o, const impactfit_sweep_output_run *run, double w) {
  const impactfit_sweep *s = o->s;
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
  static const char *kinds[] = {"list", "linear", "log"};
  fprintf(f, "{\n  \"generator\": \"impactfit sweep\",\n  \"impactfit_version\": ");
  json_string(f, impactfit_version());
  fprintf(f, ",\n  \"definition\": ");
  json_string(f, impactfit_sweep_name(s));
  fprintf(f, ",\n  \"definition_xxh64\": \"%s\",\n  \"csv\": ", impactfit_sweep_hash(s));
  json_string(f, o->csv);
  fprintf(f, ",\n  \"problem\": ");
  json_string(f, pr->name);
  fprintf(f,
          ",\n  \"points\": %zu,\n  \"rows\": %zu,\n  \"failed\": %zu,\n  \"block\": %zu,\n  \"shard\": %zu,\n"
          "  \"shards\": %zu,\n  \"threads\": %d,\n  \"ranks\": %d,\n  \"sessions\": %zu,\n"
          "  \"wall_seconds\": %.6g,\n  \"rhs_evals\": %lld,\n",
          impactfit_sweep_point_count(s), o->rows, o->failed, o->block, o->shard, o->shards, run->threads, run->ranks,
          o->sessions, w, o->rhs);
  fprintf(f, "  \"session_starts\": [");
  for (size_t k = 0; k < o->sessions; k++)
    fprintf(f, "%s%zu", k ? ", " : "", o->starts ? o->starts[k] : 0);
  fprintf(f, "],\n");
  if (run->points_per_rank) {
    fprintf(f, "  \"points_per_rank\": [");
    for (int r = 0; r < run->ranks; r++)
      fprintf(f, "%s%zu", r ? ", " : "", run->points_per_rank[r]);
    fprintf(f, "],\n");
  }
  fprintf(f, "  \"tolerances\": {");
  json_params(f, s, 1, 0);
  fprintf(f, "},\n  \"fixed\": {");
  json_params(f, s, 0, 1);
  fprintf(f, "},\n  \"axes\": [");
  for (size_t a = 0; a < impactfit_sweep_axis_count(s); a++) {
    const impactfit_sweep_axis *ax = impactfit_sweep_get_axis(s, a);
    fprintf(f, "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"start\": %.17g, \"stop\": %.17g, \"count\": %zu}",
            a ? "," : "", ax->name, kinds[ax->kind], ax->start, ax->stop, ax->count);
  }
  fprintf(f, "\n  ],\n  \"outputs\": [");
  int first = 1;
  for (size_t k = 0; k < pr->n_outputs; k++)
    if (impactfit_sweep_output_wanted(s, k)) {
      fprintf(f, "%s\"%s\"", first ? "" : ", ", pr->outputs[k]);
      first = 0;
    }
  fprintf(f, "],\n  \"failures\": [");
  for (size_t i = 0; i < o->nfail; i++) {
    fprintf(f, "%s\n    {\"index\": %zu, \"status\": \"%s\", \"message\": ", i ? "," : "", o->fail[i].index,
            impactfit_status_name(o->fail[i].status));
    json_string(f, o->fail[i].message);
    fputc('}', f);
  }
  fprintf(f, "%s],\n  \"failures_not_listed\": %zu\n}\n", o->nfail ? "\n  " : "", o->failed - o->nfail);
}

/* ---- finish and close ---- */

int impactfit_sweep_output_finish(impactfit_sweep_output *o, const impactfit_sweep_output_run *run,
                                  impactfit_error *err) {
  if (!o || !run)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impactfit_sweep_output_finish: NULL argument");
  double w = wall(o);
  if (commit(o))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "%s", o->error);
  /* the sidecar through a temporary file of a fixed name (a killed finish leaves no stray file: the
   * next finish overwrites it; this process holds the lock on the part file) */
  char tmp[4300];
  snprintf(tmp, sizeof tmp, "%s.part", o->json);
  FILE *f = fopen(tmp, "w");
  if (!f)
    return FAIL_IO(tmp);
  void *loc = impactfit__locale_push();
  write_json(f, o, run, w);
  impactfit__locale_pop(loc);
  int bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
  if (fclose(f) != 0 || bad || rename(tmp, o->json) != 0) {
    int e = errno;
    unlink(tmp);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot write %s: %s", o->json, strerror(e));
  }
  if (rename(o->part, o->csv) != 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot rename %s to %s: %s", o->part, o->csv, strerror(errno));
  impactfit__sync_dir(o->dir);
  if (unlink(o->journal) != 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot remove %s: %s", o->journal, strerror(errno));
  impactfit__sync_dir(o->dir);
  return 0;
}

void impactfit_sweep_output_close(impactfit_sweep_output *o) {
  if (!o)
    return;
  if (o->part_fd >= 0)
    close(o->part_fd);
  if (o->jfd >= 0)
    close(o->jfd);
  for (size_t i = 0; o->fail && i < o->nfail; i++)
    free(o->fail[i].message);
  free(o->fail);
  free(o->pend);
  free(o->starts);
  free(o);
}
