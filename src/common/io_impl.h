/* SPDX-License-Identifier: GPL-3.0-or-later */
/* General input/output utilities shared by every module (not installed): the INI reader, the file
 * reader, XXH64, strict number parsing and %.17g printing. Numbers are parsed and printed in the C
 * locale whatever the host program set with setlocale(LC_NUMERIC, ...): a definition file, a CSV
 * and a generated header read and write the same bytes under "de_DE" as under "C". */
#ifndef IMPACTFIT_COMMON_IO_IMPL_H
#define IMPACTFIT_COMMON_IO_IMPL_H

#include <stddef.h>

#include "impactfit/common.h"

/* ---- INI files (inih with a line-counting reader) ----
 * fn is called for every key: section and name as in the file, value trimmed (inline comments
 * after " ;" removed), line the file line, continuation 1 when the line is an indented
 * continuation of the previous key. It returns 0 or a status with a message in err (without a
 * location); impactfit__ini_parse then fails with "NAME:LINE: message". Syntax errors, lines longer
 * than IMPACTFIT__INI_MAX_LINE characters and NUL bytes are EPARSE. */
#define IMPACTFIT__INI_MAX_LINE 1000
typedef int (*impactfit__ini_fn)(void *user, const char *section, const char *name, const char *value, int line,
                                 int continuation, impactfit_error *err);
int impactfit__ini_parse(const char *text, size_t len, const char *name, impactfit__ini_fn fn, void *user,
                         impactfit_error *err);

/* Reads a whole file into a NUL-terminated buffer (free with free()); EIO with a message. */
int impactfit__read_file(const char *path, char **text, size_t *len, impactfit_error *err);

/* XXH64 (seed 0) of the bytes as 16 lower-case hex digits and a NUL. */
void impactfit__hash_hex(const void *data, size_t len, char out[17]);

/* Strict number (C locale): the whole string, finite; 0 or EPARSE with a message naming `what`. */
int impactfit__parse_number(const char *what, const char *s, double *out, impactfit_error *err);

/* strtod in the C locale (the host's LC_NUMERIC is ignored). */
double impactfit__strtod_c(const char *s, char **end);

/* 1 if s is a C identifier. */
int impactfit__identifier(const char *s);

/* DIR/NAME into buf (snprintf's return value): without the doubled slash of a DIR that ends in one
 * ("out/" + "x.csv" -> "out/x.csv"). */
int impactfit__path_join(char *buf, size_t size, const char *dir, const char *name);
/* A path as it reads best in a message: "./" and "//" dropped, "a/../" collapsed where a is a
 * plain directory name ("fits/../sweeps/x.ini" -> "sweeps/x.ini"). Lexical only: the file opened
 * is the original path (a symlinked directory may make the two differ). */
void impactfit__path_tidy(const char *path, char *buf, size_t size);

/* Writes %.17g of v (C locale; -0 as 0) into buf (at least 32 bytes); returns the length. */
int impactfit__fmt_g17(char *buf, double v);

/* snprintf in the C locale (the host's LC_NUMERIC is ignored); for the writers of numbers that
 * others read back (CSV rows, generated headers). */
int impactfit__snprintf_c(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Switches the calling thread to the C numeric locale (for writers that print with fprintf) and
 * returns the previous per-thread locale, to be given back to impactfit__locale_pop. */
void *impactfit__locale_push(void);
void impactfit__locale_pop(void *previous);

#endif
