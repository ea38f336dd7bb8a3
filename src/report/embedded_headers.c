/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The generated headers compiled into this program, byte for byte (embedded_headers.h). The
 * assembler's .incbin copies each file into read-only data; src/report/CMakeLists.txt makes this
 * object depend on the headers, so a rebuild refreshes the copies together with the code that
 * #includes them. */
#include "embedded_headers.h"

#include <string.h>

#ifndef IMPACTFIT_GENERATED_DIR
#error "IMPACTFIT_GENERATED_DIR: the absolute path of include/impactfit/generated (src/report/CMakeLists.txt)"
#endif

#define EMBED(sym, file)                                       \
  __asm__(".section .rodata\n"                                 \
          ".balign 16\n"                                       \
          ".hidden " #sym "\n"                                 \
          ".globl " #sym "\n" #sym ":\n"                       \
          ".incbin \"" IMPACTFIT_GENERATED_DIR "/" file "\"\n" \
          ".hidden " #sym "_end\n"                             \
          ".globl " #sym "_end\n" #sym "_end:\n"               \
          ".byte 0\n"                                          \
          ".previous\n");                                      \
  extern const char sym[], sym##_end[]

EMBED(cli_hdr_copt_surrogate, "copt_surrogate.h");
EMBED(cli_hdr_poursina2020, "poursina2020.h");
EMBED(cli_hdr_dem_damping, "dem_damping.h");
EMBED(cli_hdr_zhang2021, "zhang2021.h");
EMBED(cli_hdr_zhang_a_surrogate, "zhang_a_surrogate.h");
EMBED(cli_hdr_zhang_c_surrogate, "zhang_c_surrogate.h");
EMBED(cli_hdr_ramaswamy_eps, "ramaswamy_eps.h");
EMBED(cli_hdr_ramaswamy_dtau, "ramaswamy_dtau.h");
EMBED(cli_hdr_accuracy, "accuracy.h");

/* topic, header: the headers each topic's source #includes (topic_copt.c, topic_dem.c, topic_zhang.c,
 * topic_ramaswamy.c, topic_accuracy.c; the --help texts quote accuracy.h) */
static const struct {
  const char *topic, *name;
  const char *begin, *end;
} table[] = {
    {"copt", "copt_surrogate.h", cli_hdr_copt_surrogate, cli_hdr_copt_surrogate_end},
    {"copt", "poursina2020.h", cli_hdr_poursina2020, cli_hdr_poursina2020_end},
    {"dem", "dem_damping.h", cli_hdr_dem_damping, cli_hdr_dem_damping_end},
    {"zhang", "zhang2021.h", cli_hdr_zhang2021, cli_hdr_zhang2021_end},
    {"zhang", "zhang_a_surrogate.h", cli_hdr_zhang_a_surrogate, cli_hdr_zhang_a_surrogate_end},
    {"zhang", "zhang_c_surrogate.h", cli_hdr_zhang_c_surrogate, cli_hdr_zhang_c_surrogate_end},
    {"ramaswamy", "ramaswamy_eps.h", cli_hdr_ramaswamy_eps, cli_hdr_ramaswamy_eps_end},
    {"ramaswamy", "ramaswamy_dtau.h", cli_hdr_ramaswamy_dtau, cli_hdr_ramaswamy_dtau_end},
    {"accuracy", "accuracy.h", cli_hdr_accuracy, cli_hdr_accuracy_end},
};

size_t cli_embedded_header_count(void) { return sizeof table / sizeof table[0]; }

int cli_embedded_header(size_t i, const char **topic, const char **name, const char **text, size_t *len) {
  if (i >= cli_embedded_header_count())
    return -1;
  *topic = table[i].topic;
  *name = table[i].name;
  *text = table[i].begin;
  *len = (size_t)(table[i].end - table[i].begin);
  return 0;
}
