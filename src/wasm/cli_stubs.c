/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the commands of the WebAssembly module link but the browser has not: the durable sweep output
 * of --out DIR (src/cli/cmd_sweep.c, with the library's sweep_io.h and Jansson). The page never gives
 * --out; a caller that does gets the CLI's kind of message and exit status 2. */
#include "cli.h"
#include "sweep_exec.h"

int cli_sweep_execute(const impactfit_sweep *s, const cli_sweep_exec *x, int rank, int ranks) {
  (void)s;
  (void)rank;
  (void)ranks;
  return cli_input_error("%s: --out DIR is not available in the WebAssembly module (run the impactfit program)",
                         x->what);
}
