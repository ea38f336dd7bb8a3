/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fault injection for tests/cli/test_hpc.sh (LD_PRELOAD): with CRASH_RENAME_TO=SUFFIX the process
 * kills itself with SIGKILL when it is about to rename a file onto a name ending in SUFFIX; with
 * CRASH_UNLINK=SUFFIX, when it is about to remove such a file. This lands a "power loss" exactly
 * between the steps of the sweep's finish (JSON written, part file renamed, journal removed).
 * With FULL_AFTER=N, writes to a file whose name ends in ".csv.part" fail with ENOSPC once N bytes
 * have been written to it by this process (a full disk). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

__attribute__((visibility("default"))) int rename(const char *from, const char *to) {
  const char *want = getenv("CRASH_RENAME_TO");
  if (want && *want && ends_with(to, want))
    kill(getpid(), SIGKILL);
  int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
  return real(from, to);
}

__attribute__((visibility("default"))) int unlink(const char *path) {
  const char *want = getenv("CRASH_UNLINK");
  if (want && *want && ends_with(path, want))
    kill(getpid(), SIGKILL);
  int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
  return real(path);
}

__attribute__((visibility("default"))) ssize_t write(int fd, const void *buf, size_t n) {
  static size_t written = 0;
  ssize_t (*real)(int, const void *, size_t) = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
  const char *limit = getenv("FULL_AFTER");
  if (limit && *limit) {
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t l = readlink(link, path, sizeof path - 1);
    if (l > 0) {
      path[l] = '\0';
      if (ends_with(path, ".csv.part")) {
        if (written + n > (size_t)strtoull(limit, NULL, 10)) {
          errno = ENOSPC;
          return -1;
        }
        written += n;
      }
    }
  }
  return real(fd, buf, n);
}
