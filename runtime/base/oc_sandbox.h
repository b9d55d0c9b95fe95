/* Confinement: a process gives up, for good, every file-system access but
 * the folders it names, and the network, through Linux's Landlock. Defence
 * in depth for a program that reads files from anyone: a path bug that
 * slips past its own checks meets the kernel's refusal (EACCES).
 * Best effort: a kernel without Landlock (or valgrind, which does not know
 * its system calls) leaves the process as it was, and says why. */
#ifndef OCTAVO_OC_SANDBOX_H
#define OCTAVO_OC_SANDBOX_H

#include <stddef.h>

typedef struct oc_sandbox {
  /* Files or folders read (folders: listed too), with all beneath them. */
  const char *const *read;
  size_t nread;
  /* Folders where files, folders and symbolic links are read, created,
   * replaced, renamed and removed. Neither list allows executing a file,
   * making devices, FIFOs or sockets. */
  const char *const *write;
  size_t nwrite;
  /* 0: use the kernel's ABI; else at most this one (to test older ABIs'
   * rulesets on a newer kernel). */
  int max_abi;
} oc_sandbox;

/* The Landlock ABI version the kernel offers (1, 2, ...), 0 when none. */
int oc_sandbox_abi(void);

/* Restricts the calling process, and every process it starts from now on,
 * to the access sb grants: everything else on the file system, TCP bind
 * and connect (ABI 4 and later), signals to processes outside the
 * sandbox and abstract Unix sockets (ABI 6 and later) are refused. It
 * cannot be undone. Landlock restricts the calling thread only: call it
 * before any thread starts. Files already open are not affected. A path
 * that does not exist is skipped. The rights of a newer ABI than the
 * kernel's are left out, as the kernel's documentation asks.
 * Returns the ABI used, or 0 when nothing was restricted, with why
 * (a sentence without a final period) in why[0..nwhy). */
int oc_sandbox_restrict(const oc_sandbox *sb, char *why, size_t nwhy);

#endif
