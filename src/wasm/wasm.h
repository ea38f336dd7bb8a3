/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The WebAssembly module's own functions (docs/WEB.md): the exported entry points (entry.c,
 * registry.c, curves.c; each returns a malloc'd JSON text that the caller frees with
 * impactfit_wasm_free) and the small JSON writer they share (json.c). */
#ifndef IMPACTFIT_WASM_H
#define IMPACTFIT_WASM_H

#include <stdio.h>

#include "impactfit/common.h"
#include "impactfit/stepper.h"

/* entry.c */
int impactfit_wasm_command(const char *words);
void impactfit_wasm_free(char *text);
/* registry.c: every call of the code registry (codes.h) */
char *impactfit_wasm_registry(void);
char *impactfit_wasm_lookup(const char *words);
/* The stepper an engine runs for a request given as "key=value" lines (code, version, model,
 * integrator, dt, v, mass, radius, m2, r2, value, and set=NAME=V1,V2,... per setting), the request's
 * speed in *v. Returns 0 or EINVAL with the registry's message. */
int impactfit__wasm_engine_stepper(const char *words, impactfit_stepper *st, double *v, impactfit_error *err);
/* 1 when st takes no fixed steps (continuous time: the law integrated exactly; registry.c) */
int impactfit__wasm_stepper_continuous(const impactfit_stepper *st);
/* curves.c */
char *impactfit_wasm_engine_curve(const char *words);

/* json.c: a JSON text in memory (open_memstream) */
typedef struct wasm_json {
  FILE *f;
  char *text;
  size_t size;
  int first; /* no comma before the next member or element */
} wasm_json;
int wasm_json_open(wasm_json *j);                                 /* 0, or -1 when out of memory */
char *wasm_json_close(wasm_json *j);                              /* the text (malloc'd), NULL when out of memory */
void wasm_json_key(wasm_json *j, const char *key);                /* "key": (a comma before it when needed) */
void wasm_json_begin(wasm_json *j, char bracket);                 /* '{' or '[' (after a key or as an element) */
void wasm_json_end(wasm_json *j, char bracket);                   /* '}' or ']' */
void wasm_json_str(wasm_json *j, const char *key, const char *v); /* key NULL: an array element */
void wasm_json_num(wasm_json *j, const char *key, double v);      /* shortest text; null if not finite */
void wasm_json_int(wasm_json *j, const char *key, long v);
/* {"ok":0,"status":"EINVAL","error":"..."} as a malloc'd text */
char *wasm_json_error(int status, const char *message);

#endif
