/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one function of inih that the library calls (src/common/io.c), for the WebAssembly build:
 * Debian's source package of inih could not be fetched from the archive here, so the module carries
 * its own parser, ini_compat.c, which behaves as Debian 12's libinih 55 as configured (ini.h's
 * defaults): tests/test_ini_compat.c feeds the same texts to both and compares every handler call. */
#ifndef IMPACTFIT_WASM_INI_H
#define IMPACTFIT_WASM_INI_H

/* name = value handler: nonzero on success */
typedef int (*ini_handler)(void *user, const char *section, const char *name, const char *value);
/* fgets-like reader */
typedef char *(*ini_reader)(char *str, int num, void *stream);

#ifdef IMPACTFIT_INI_COMPAT_NAME
#define ini_parse_stream IMPACTFIT_INI_COMPAT_NAME
#endif
/* Parses the lines `reader` returns; calls handler for every name = value (and every continuation
 * line); returns 0, or the number of the first line with an error. */
int ini_parse_stream(ini_reader reader, void *stream, ini_handler handler, void *user);

#endif
