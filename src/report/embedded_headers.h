/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The generated headers (include/impactfit/generated/) that the CLI's topics #include, as they
 * were when this program was built: `impactfit check` compares them with the committed headers of
 * the source tree it is pointed at (--src), so that a stale build fails instead of checking old
 * constants. */
#ifndef IMPACTFIT_CLI_EMBEDDED_HEADERS_H
#define IMPACTFIT_CLI_EMBEDDED_HEADERS_H

#include <stddef.h>

size_t cli_embedded_header_count(void);
/* The i-th header: the topic whose source includes it, its file name, its bytes. 0, or -1 past the end. */
int cli_embedded_header(size_t i, const char **topic, const char **name, const char **text, size_t *len);

#endif
