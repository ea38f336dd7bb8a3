/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals of the sweepio module (not installed): the journal's reader, shared by the output's resume
 * and the fuzz harness, and small file helpers shared by output, merge and load. */
#ifndef IMPACTFIT_SWEEPIO_IMPL_H
#define IMPACTFIT_SWEEPIO_IMPL_H

#include <stddef.h>

#include "impactfit/sweep_io.h"

#define IMPACTFIT__JOURNAL_MAGIC "impactfit-sweep-journal 1"

/* A journal as read: its header line, and the last good commit with the failures recorded before it. */
typedef struct impactfit__journal {
  size_t block, shard, shards, points, header;
  char version[64], hash[32];
  int have_commit;
  size_t next, rows, failed, sessions;
  size_t *starts; /* starts[k]: the points done (committed) when session k + 1 began ("session K from=P";
                     0 when the journal of an older version did not say) */
  unsigned long long bytes;
  long long rhs;
  double wall;
  impactfit_sweep_failure *fail; /* at most IMPACTFIT_SWEEP_MAX_LISTED */
  size_t nfail;
} impactfit__journal;

/* Reads a journal's text (see sweep_io.h): lines up to the first torn, unchecked or unknown one. The
 * first line must be a valid header: EPARSE ("NAME is not a journal ...") otherwise; ENOMEM. */
int impactfit__journal_parse(const char *text, size_t len, const char *name, impactfit__journal *j,
                             impactfit_error *err);
void impactfit__journal_free(impactfit__journal *j);

/* Checks a journal line (without its '\n'); on success cuts it at " #" and returns 1. */
int impactfit__journal_line_ok(char *line);

/* fsync of a directory, so that a created or renamed entry survives a power loss. */
void impactfit__sync_dir(const char *dir);

/* mkdir -p; 0 or EIO "cannot create PATH: reason". */
int impactfit__mkdir_p(const char *path, impactfit_error *err);

#endif
