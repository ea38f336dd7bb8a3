/* Fault injection for tests/cli/test_hpc.sh (LD_PRELOAD): with CRASH_RENAME_TO=SUFFIX the process
 * kills itself with SIGKILL when it is about to rename a file onto a name ending in SUFFIX; with
 * CRASH_UNLINK=SUFFIX, when it is about to remove such a file. This lands a "power loss" exactly
 * between the steps of the sweep's finish (JSON written, part file renamed, journal removed). */
#define _GNU_SOURCE
#include <dlfcn.h>
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
