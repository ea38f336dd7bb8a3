/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness: the readers of a sweep's files on disk (src/sweepio): the journal of an interrupted run
 * (impactfit__journal_parse, what a resume trusts) and the JSON sidecar (impactfit_sweep_provenance_parse,
 * what a resume, a merge and a fit's hash check trust). Byte 0 picks the reader (even: journal, odd:
 * sidecar), the rest is the file. Checked beyond "no crash": a refusal is an input error naming the file;
 * an accepted journal has a header whose fields were read, at most IMPACTFIT_SWEEP_MAX_LISTED failures,
 * and its state is the one its last checked commit line states (the harness finds that line again on its
 * own: the last "commit ..." line whose XXH64 matches before the first bad line); an accepted sidecar has
 * the generator and a 16-hex-digit hash. Seeds: tests/fuzz/corpus/sweepio. */
#define _POSIX_C_SOURCE 200809L /* dup, dprintf */
#include <xxhash.h>

#include "fuzz.h"
#include "impactfit/sweep_io.h"
#include "sweepio/sweepio_impl.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_init();
  return 0;
}

/* Independent of the reader: the checked lines in order, up to the first bad one; the NEXT of the last
 * checked line starting with "commit " that has six fields. Returns the number of checked lines. */
static size_t last_commit(const char *p, size_t len, int *have, unsigned long long *next) {
  size_t lines = 0;
  *have = 0;
  const char *end = p + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl || (size_t)(nl - p) >= 2047 || memchr(p, '\0', (size_t)(nl - p)))
      break;
    size_t l = (size_t)(nl - p);
    if (l < 18 || p[l - 18] != ' ' || p[l - 17] != '#')
      break;
    char want[17], got[17];
    snprintf(want, sizeof want, "%016llx", (unsigned long long)XXH64(p, l - 18, 0));
    memcpy(got, p + l - 16, 16);
    got[16] = '\0';
    if (strcmp(want, got) != 0)
      break;
    char line[2048];
    memcpy(line, p, l - 18);
    line[l - 18] = '\0';
    unsigned long long a, b;
    size_t c, d;
    long long e;
    double w;
    int status, off = 0;
    if (lines == 0) {
      /* the header: the reader's own check refuses a bad one */
    } else if (sscanf(line, "fail %zu %d %n", &c, &status, &off) == 2 && off > 0) {
      /* a failure */
    } else if (sscanf(line, "commit %llu %llu %zu %zu %lld %lf", &a, &b, &c, &d, &e, &w) == 6) {
      *have = 1;
      *next = a;
    } else if (strncmp(line, "session ", 8) != 0) {
      break; /* the reader stops at an unknown record too */
    }
    lines++;
    p = nl + 1;
  }
  return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (data[0] % 2 == 0) {
    impactfit__journal j;
    int st = impactfit__journal_parse(text, len, "fuzzjournal", &j, &err);
    if (st) {
      fuzz_check_refusal(st, &err, "fuzzjournal");
      return 0;
    }
    FUZZ_ASSERT(j.nfail <= IMPACTFIT_SWEEP_MAX_LISTED, "%zu failures listed", j.nfail);
    FUZZ_ASSERT(j.version[0] && j.hash[0], "header without version or hash");
    int have = 0;
    unsigned long long next = 0;
    size_t lines = last_commit(text, len, &have, &next);
    FUZZ_ASSERT(lines >= 1, "accepted without a checked header line");
    FUZZ_ASSERT(have == j.have_commit, "commit found %d, reader says %d", have, j.have_commit);
    FUZZ_ASSERT(!have || (unsigned long long)j.next == next, "last commit NEXT %llu, reader says %zu", next, j.next);
    for (size_t i = 0; i < j.nfail; i++)
      FUZZ_ASSERT(j.fail[i].message && !strchr(j.fail[i].message, '\n'), "failure message %zu", i);
    impactfit__journal_free(&j);
  } else {
    impactfit_sweep_provenance p;
    int st = impactfit_sweep_provenance_parse(text, len, "fuzzsidecar", &p, &err);
    if (st) {
      fuzz_check_refusal(st, &err, "fuzzsidecar");
      FUZZ_ASSERT(p.failures == NULL && p.n_failures == 0, "a refused sidecar left failures");
      return 0;
    }
    FUZZ_ASSERT(strcmp(p.generator, "impactfit sweep") == 0, "generator %s", p.generator);
    FUZZ_ASSERT(strlen(p.hash) == 16 && strspn(p.hash, "0123456789abcdef") == 16, "hash %s", p.hash);
    FUZZ_ASSERT(p.n_failures <= IMPACTFIT_SWEEP_MAX_LISTED, "%zu failures", p.n_failures);
    for (size_t i = 0; i < p.n_failures; i++)
      FUZZ_ASSERT(p.failures[i].message != NULL, "failure %zu without message", i);
    impactfit_sweep_provenance_free(&p);
  }
  return 0;
}
