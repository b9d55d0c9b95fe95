/* Shell commands run by a process started early: a program that confines
 * itself (oc_sandbox.h) starts it first, so the commands it asks for later
 * (a book's scripts, code its author trusts as a Makefile is trusted) run
 * with the rights the program had when it started, not its sandbox's. */
#ifndef OCTAVO_OC_SHELL_H
#define OCTAVO_OC_SHELL_H

/* Forks the process that will run oc_shell_run's commands. Call it before
 * confining the process, blocking signals, or starting any thread. It is stopped by
 * oc_shell_stop, or ends by itself when this process exits. 0, or -1
 * with errno (oc_shell_run then runs commands itself). */
int oc_shell_start(void);

/* Runs `/bin/sh -c cmd` in folder dir, with this process's standard
 * streams (flush them first) and SIGINT, SIGTERM and SIGHUP unblocked,
 * and waits for it: *status as waitpid(2)
 * gives it (exit status 127 when dir or /bin/sh cannot be entered).
 * Through the process oc_shell_start forked when there is one, else
 * forked from this one. 0, or -1 with errno when nothing could be run. */
int oc_shell_run(const char *dir, const char *cmd, int *status);

/* Ends the process oc_shell_start forked and waits for it. */
void oc_shell_stop(void);

#endif
