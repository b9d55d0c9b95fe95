/* Landlock confinement (oc_sandbox.h). The rules: a ruleset "handles" every
 * access right the kernel knows, which denies them all; then one rule per
 * path grants back, beneath that path, read (read files, list folders) or
 * write (read, plus make folders, regular files and symbolic links,
 * write, truncate, remove, and rename or link between folders: Landlock's
 * REFER). Symbolic links, because Landlock asks for the right to make one
 * to rename one (a link someone left in an output folder); a link made
 * there gives nothing, since what is opened through it is checked where
 * it leads. Nothing grants executing a file, making devices, FIFOs or
 * sockets, or device ioctls, so those are refused everywhere; TCP bind and
 * connect are handled with no rule, so refused; from ABI 6 the process cannot
 * signal processes outside its sandbox nor reach abstract Unix sockets. glibc
 * has no wrappers for the three system calls: syscall(2) is the documented way.
 */
#define _GNU_SOURCE
#include "oc_sandbox.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifdef __linux__
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static void say(char *why, size_t nwhy, const char *fmt, ...) {
  if (!nwhy)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, nwhy, fmt, ap);
  va_end(ap);
}

#if defined(__linux__) && defined(SYS_landlock_create_ruleset)

/* What Debian 12's kernel headers (Linux 6.1, ABI 2) do not define yet.
 * The values are the kernel's ABI and never change. */
#define LL_FS_TRUNCATE (1ULL << 14)        /* ABI 3 */
#define LL_NET_BIND_TCP (1ULL << 0)        /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1)     /* ABI 4 */
#define LL_FS_IOCTL_DEV (1ULL << 15)       /* ABI 5 */
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)        /* ABI 6 */

/* struct landlock_ruleset_attr as ABI 6 has it; older kernels are given
 * the prefix they know (the kernel takes the size as the version). */
typedef struct ll_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
} ll_ruleset_attr;

#define LL_FS_ABI1                                                             \
  (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |                \
   LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR |                \
   LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |            \
   LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |                \
   LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |                \
   LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |              \
   LANDLOCK_ACCESS_FS_MAKE_SYM)

/* The rights a rule on a file (not a folder) may carry. */
#define LL_FS_FILE                                                             \
  (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |                \
   LANDLOCK_ACCESS_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)

#define LL_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_WRITE                                                               \
  (LL_READ | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |   \
   LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR |              \
   LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SYM |                 \
   LANDLOCK_ACCESS_FS_REFER | LL_FS_TRUNCATE)

int oc_sandbox_abi(void) {
  long v = syscall(SYS_landlock_create_ruleset, NULL, 0,
                   LANDLOCK_CREATE_RULESET_VERSION);
  return v > 0 ? (int)v : 0;
}

/* Grants `access` beneath path (masked to what the ruleset handles, and
 * to file rights when path is not a folder). 1 granted, 0 skipped (no
 * such path), -1 failed (errno set). */
static int add_path(int ruleset, const char *path, uint64_t access,
                    uint64_t handled) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT || errno == ENOTDIR || errno == EACCES ||
                   errno == ELOOP
               ? 0
               : -1;
  struct stat st;
  int rc = -1;
  if (fstat(fd, &st) == 0) {
    struct landlock_path_beneath_attr pb = {0};
    pb.parent_fd = fd;
    pb.allowed_access = access & handled;
    if (!S_ISDIR(st.st_mode))
      pb.allowed_access &= LL_FS_FILE;
    rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
                 &pb, 0) == 0
             ? 1
             : -1;
  }
  int err = errno;
  close(fd);
  errno = err;
  return rc;
}

int oc_sandbox_restrict(const oc_sandbox *sb, char *why, size_t nwhy) {
  int abi = oc_sandbox_abi();
  if (abi <= 0) {
    say(why, nwhy, "%s",
        errno == ENOSYS       ? "this kernel (or valgrind) has no Landlock"
        : errno == EOPNOTSUPP ? "Landlock is turned off in this kernel"
                              : strerror(errno));
    return 0;
  }
  if (sb->max_abi > 0 && abi > sb->max_abi)
    abi = sb->max_abi;
  ll_ruleset_attr attr = {LL_FS_ABI1, 0, 0};
  size_t size = sizeof attr.handled_access_fs;
  if (abi >= 2)
    attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3)
    attr.handled_access_fs |= LL_FS_TRUNCATE;
  if (abi >= 4) {
    attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
    size = offsetof(ll_ruleset_attr, scoped);
  }
  if (abi >= 5)
    attr.handled_access_fs |= LL_FS_IOCTL_DEV;
  if (abi >= 6) {
    attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
    size = sizeof attr;
  }
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) {
    say(why, nwhy, "cannot make a Landlock ruleset (ABI %d): %s", abi,
        strerror(errno));
    return 0;
  }
  int used = 0;
  for (size_t i = 0; i < sb->nread + sb->nwrite; i++) {
    bool w = i >= sb->nread;
    const char *path = w ? sb->write[i - sb->nread] : sb->read[i];
    if (add_path(ruleset, path, w ? LL_WRITE : LL_READ,
                 attr.handled_access_fs) < 0) {
      say(why, nwhy, "cannot add a Landlock rule for %s: %s", path,
          strerror(errno));
      goto done;
    }
  }
  /* Required of a process without CAP_SYS_ADMIN; a set-user-ID program
   * started from now on gains nothing either. */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    say(why, nwhy, "cannot set no_new_privs: %s", strerror(errno));
    goto done;
  }
  if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
    say(why, nwhy, "cannot enforce the Landlock ruleset (ABI %d): %s", abi,
        strerror(errno));
    goto done;
  }
  used = abi;
done:
  close(ruleset);
  return used;
}

#else

int oc_sandbox_abi(void) { return 0; }

int oc_sandbox_restrict(const oc_sandbox *sb, char *why, size_t nwhy) {
  (void)sb;
  say(why, nwhy, "Landlock is a Linux feature");
  return 0;
}

#endif
