/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The entry point of the WebAssembly module (docs/WEB.md): the questions of the page are the CLI's
 * own commands, run by their own code (src/cli/cmd_*.c), so that their numbers, JSON keys and
 * one-line error messages are the CLI's. web/impactfit.js calls
 *
 *   impactfit_wasm_command("copt\n--n\n1.5\n--e\n0.7\n--json")
 *
 * with the words of a command line separated by newlines (a word may hold spaces: a model's name),
 * collects what the command prints on stdout (JSON lines with --json) and stderr ("impactfit: error:
 * ..."), and gets the CLI's exit status back (0, 1 numerical failure, 2 invalid input). The registry's
 * listing, the lookup of an entry and the pictures' numbers are in registry.c and curves.c. */
#define _GNU_SOURCE /* strdup */
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "wasm.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
} command;

/* the commands the module carries (src/wasm/CMakeLists.txt links these) */
static const command commands[] = {
    {"copt", impactfit_cmd_copt},     {"zhang-alpha", impactfit_cmd_zhang_alpha},
    {"hc-eps", impactfit_cmd_hc_eps}, {"simulate", impactfit_cmd_simulate},
    {"dem", impactfit_cmd_dem},       {"engine", impactfit_cmd_engine},
};
enum { N_COMMANDS = sizeof commands / sizeof commands[0], MAX_WORDS = 256 };

EMSCRIPTEN_KEEPALIVE int impactfit_wasm_command(const char *words) {
  if (!words)
    return cli_input_error("no command given");
  char *copy = strdup(words);
  char *argv[MAX_WORDS + 2];
  int argc = 0;
  argv[argc++] = "impactfit";
  int rc = 0;
  if (!copy)
    return cli_input_error("out of memory");
  for (char *p = copy; p && *p;) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    if (argc == MAX_WORDS + 1) {
      rc = cli_input_error("more than %d words on the command line", MAX_WORDS);
      break;
    }
    argv[argc++] = p;
    p = nl ? nl + 1 : NULL;
  }
  argv[argc] = NULL;
  if (!rc && argc < 2)
    rc = cli_input_error("no command given (see 'impactfit --help')");
  if (!rc) {
    const command *c = NULL;
    for (size_t i = 0; i < N_COMMANDS; i++)
      if (strcmp(argv[1], commands[i].name) == 0)
        c = &commands[i];
    rc = c ? c->run(argc, argv)
           : cli_input_error("unknown command '%s' (the page's commands: copt, zhang-alpha, hc-eps, simulate, dem, "
                             "engine)",
                             argv[1]);
  }
  fflush(stdout);
  fflush(stderr);
  free(copy);
  return rc;
}

EMSCRIPTEN_KEEPALIVE void impactfit_wasm_free(char *text) { free(text); }
