/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The JSON writer of the WebAssembly module's own answers (wasm.h): numbers as the CLI's --json
 * writes them (the shortest text that reads back to the same double), strings escaped as it does. */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/common.h"
#include "wasm.h"

int wasm_json_open(wasm_json *j) {
  memset(j, 0, sizeof *j);
  j->first = 1;
  j->f = open_memstream(&j->text, &j->size);
  return j->f ? 0 : -1;
}

char *wasm_json_close(wasm_json *j) {
  if (!j->f)
    return NULL;
  int bad = ferror(j->f);
  fclose(j->f);
  j->f = NULL;
  if (bad) {
    free(j->text);
    return NULL;
  }
  return j->text;
}

static void sep(wasm_json *j) {
  if (!j->first)
    fputc(',', j->f);
  j->first = 0;
}

static void quoted(FILE *f, const char *v) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(v ? v : ""); *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

void wasm_json_key(wasm_json *j, const char *key) {
  sep(j);
  if (key) {
    quoted(j->f, key);
    fputc(':', j->f);
  }
}

void wasm_json_begin(wasm_json *j, char bracket) {
  fputc(bracket, j->f);
  j->first = 1;
}

void wasm_json_end(wasm_json *j, char bracket) {
  fputc(bracket, j->f);
  j->first = 0;
}

void wasm_json_str(wasm_json *j, const char *key, const char *v) {
  wasm_json_key(j, key);
  quoted(j->f, v);
}

void wasm_json_num(wasm_json *j, const char *key, double v) {
  wasm_json_key(j, key);
  char buf[IMPACTFIT_SHORTEST_SIZE];
  fputs(isfinite(v) ? impactfit_format_shortest(v, buf) : "null", j->f);
}

void wasm_json_int(wasm_json *j, const char *key, long v) {
  wasm_json_key(j, key);
  fprintf(j->f, "%ld", v);
}

char *wasm_json_error(int status, const char *message) {
  wasm_json j;
  if (wasm_json_open(&j))
    return NULL;
  wasm_json_begin(&j, '{');
  wasm_json_int(&j, "ok", 0);
  wasm_json_str(&j, "status", impactfit_status_name(status));
  wasm_json_str(&j, "error", message);
  wasm_json_end(&j, '}');
  return wasm_json_close(&j);
}
