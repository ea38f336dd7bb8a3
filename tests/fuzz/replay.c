/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A main for the fuzz harnesses built without libFuzzer: runs the harness once on every file named
 * on the command line or found in a directory named there (one level, sorted by name), so that the
 * committed corpus and every input that once crashed are checked by ctest in ordinary builds. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    return 1;
  }
  size_t cap = 4096, n = 0;
  unsigned char *buf = malloc(cap);
  for (;;) {
    if (!buf) {
      fclose(f);
      fprintf(stderr, "replay: out of memory\n");
      return 1;
    }
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap)
      break;
    unsigned char *nb = realloc(buf, cap *= 2);
    if (!nb)
      free(buf);
    buf = nb;
  }
  fclose(f);
  /* an exact-size copy, so that ASan sees a read past the input's end */
  unsigned char *exact = malloc(n ? n : 1);
  if (!exact) {
    free(buf);
    return 1;
  }
  memcpy(exact, buf, n);
  free(buf);
  LLVMFuzzerTestOneInput(exact, n);
  free(exact);
  return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  int bad = 0;
  size_t total = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
      bad = 1;
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      bad |= run_file(argv[i]);
      total++;
      continue;
    }
    DIR *d = opendir(argv[i]);
    if (!d) {
      fprintf(stderr, "replay: cannot open %s\n", argv[i]);
      bad = 1;
      continue;
    }
    char **names = NULL;
    size_t nn = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.')
        continue;
      if (nn == cap) {
        cap = cap ? 2 * cap : 64;
        char **nb = realloc(names, cap * sizeof *nb);
        if (!nb)
          break;
        names = nb;
      }
      names[nn++] = strdup(e->d_name);
    }
    closedir(d);
    if (nn)
      qsort(names, nn, sizeof *names, by_name);
    for (size_t k = 0; k < nn; k++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
      struct stat fs;
      if (names[k] && stat(path, &fs) == 0 && S_ISREG(fs.st_mode)) {
        bad |= run_file(path);
        total++;
      }
      free(names[k]);
    }
    free(names);
  }
  printf("replay: %zu inputs, %s\n", total, bad ? "errors" : "no crash");
  return bad;
}
