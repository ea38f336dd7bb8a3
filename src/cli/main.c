/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — command-line program: dispatches to the subcommands listed in commands.def. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "impactfit/impactfit.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
#define X(name, fn, summary) {name, fn, summary},
#include "commands.def"
#undef X
};

static void usage(FILE *f) {
  fprintf(f, "usage: impactfit <command> [options]\n"
             "       impactfit --help | --version\n\n"
             "impactfit turns a coefficient of restitution into the damping constants of continuous\n"
             "contact-force models f = k d^n + c d^m d', exactly, and audits the published formulas.\n\n"
             "commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n'impactfit <command> --help' describes a command's options.\n"
             "Exit status: 0 success, 1 numerical failure (no convergence, no separation),\n"
             "2 invalid input.\n");
}

int main(int argc, char **argv) {
  if (argc < 2)
    return cli_input_error("no command given (see 'impactfit --help')");
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return CLI_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("impactfit %s\n", impactfit_version());
    return CLI_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(argv[1], commands[i].name) == 0)
      return commands[i].run(argc, argv);
  const char *names[sizeof commands / sizeof commands[0] + 2];
  size_t n = 0;
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    names[n++] = commands[i].name;
  names[n++] = "--help"; /* the program's own options are words one mistypes too */
  names[n++] = "--version";
  const char *close = cli_suggest(argv[1], strlen(argv[1]), names, n);
  if (close)
    return cli_input_error("unknown command '%s' (did you mean '%s'? see 'impactfit --help')", argv[1], close);
  return cli_input_error("unknown command '%s' (see 'impactfit --help')", argv[1]);
}
