/* Internals of the sweep module shared with the fit module (not installed). */
#ifndef IMPACTFIT_SWEEP_IMPL_H
#define IMPACTFIT_SWEEP_IMPL_H

#include <stddef.h>

#include "impactfit/sweep.h"

/* ---- INI files (inih with a line-counting reader) ----
 * fn is called for every key: section and name as in the file, value trimmed (inline comments
 * after " ;" removed), line the file line, continuation 1 when the line is an indented
 * continuation of the previous key. It returns 0 or a status with a message in err (without a
 * location); impactfit__ini_parse then fails with "NAME:LINE: message". Syntax errors, lines longer
 * than IMPACTFIT__INI_MAX_LINE characters and NUL bytes are EPARSE. */
#define IMPACTFIT__INI_MAX_LINE 1000
typedef int (*impactfit__ini_fn)(void *user, const char *section, const char *name,
                                 const char *value, int line, int continuation, impactfit_error *err);
int impactfit__ini_parse(const char *text, size_t len, const char *name, impactfit__ini_fn fn,
                         void *user, impactfit_error *err);

/* Reads a whole file into a NUL-terminated buffer (free with free()); EIO with a message. */
int impactfit__read_file(const char *path, char **text, size_t *len, impactfit_error *err);

/* XXH64 (seed 0) of the bytes as 16 lower-case hex digits and a NUL. */
void impactfit__hash_hex(const void *data, size_t len, char out[17]);

/* Strict number: the whole string, finite; 0 or EPARSE with a message naming `what`. */
int impactfit__parse_number(const char *what, const char *s, double *out, impactfit_error *err);

/* 1 if s is a C identifier. */
int impactfit__sweep_identifier(const char *s);

/* impactfit_sweep_parse with a grid of at most max_points points (≤ 1e9, the public bound). The
 * parser checks every point, so a legal billion-point grid takes minutes to read: the fuzz harnesses
 * bound it to keep each input fast. */
int impactfit__sweep_parse_bounded(const char *text, size_t len, const char *name, double max_points,
                                   impactfit_sweep **out, impactfit_error *err);

/* Writes %.17g of v into buf (at least 32 bytes); returns the length. */
int impactfit__fmt_g17(char *buf, double v);

#endif
