/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the fuzz harnesses: the libFuzzer entry points and the checks every harness applies to
 * a parser's answer. A failed check calls abort(), which libFuzzer (and the replay main) report as
 * a crash with the input that caused it; only harnesses do this, never the library. */
#ifndef IMPACTFIT_FUZZ_H
#define IMPACTFIT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "impactfit/common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Where the harness reports: a copy of the original stderr, made in LLVMFuzzerInitialize before
 * libFuzzer's -close_fd_mask=3 closes descriptor 2 (which silences the CLI's error lines). */
static int fuzz_fd = 2;
static inline void fuzz_init(void) {
  int fd = dup(2);
  if (fd >= 0)
    fuzz_fd = fd;
}

#define FUZZ_ASSERT(cond, ...)                                          \
  do {                                                                  \
    if (!(cond)) {                                                      \
      dprintf(fuzz_fd, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      dprintf(fuzz_fd, __VA_ARGS__);                                    \
      dprintf(fuzz_fd, "\n");                                           \
      abort();                                                          \
    }                                                                   \
  } while (0)

/* A parser that refuses an input must say so as an input error (exit 2 in the CLI) or as an
 * allocation failure, with a message that names the input first. */
static inline void fuzz_check_refusal(int st, const impactfit_error *err, const char *name) {
  if (getenv("FUZZ_VERBOSE")) /* seeing why a seed is refused */
    dprintf(fuzz_fd, "refused: %s\n", err->message);
  FUZZ_ASSERT(st < 0, "status %d", st);
  FUZZ_ASSERT(impactfit_status_is_input_error(st) || st == IMPACTFIT_ENOMEM, "a parser returned %s: %s",
              impactfit_status_name(st), err->message);
  FUZZ_ASSERT(err->status == st, "error report status %d != %d", err->status, st);
  FUZZ_ASSERT(err->message[0] != '\0', "empty message");
  FUZZ_ASSERT(st == IMPACTFIT_ENOMEM || strncmp(err->message, name, strlen(name)) == 0, "message does not name %s: %s",
              name, err->message);
}

#endif
