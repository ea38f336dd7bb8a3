/* SPDX-License-Identifier: GPL-3.0-or-later */
/* simulate --law and zhang-alpha --law (law_cli.c): impacts through a force law of law.h with the
 * parameters k, n, c, m, and the damping that gives e. */
#ifndef IMPACTFIT_CLI_LAW_H
#define IMPACTFIT_CLI_LAW_H

/* 1 when --law (or --law=NAME) is among the arguments. */
int cli_law_given(int argc, char **argv);
/* The commands with --law; help_text is the command's --help. Return the exit status. */
int cli_simulate_law(int argc, char **argv, const char *help_text);
int cli_zhang_alpha_law(int argc, char **argv, const char *help_text);

#endif
