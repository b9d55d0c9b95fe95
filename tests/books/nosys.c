/* The tests' kernel without a feature: runs a program with some system
 * calls answering ENOSYS, as a kernel that lacks them does, through a
 * seccomp filter (no privilege needed, inherited by every child). It can
 * only take away: what publish does when Landlock or openat2 is missing
 * is tested on a kernel that has them (books_sandbox, books_serve_escape).
 *
 * usage: nosys landlock|openat2[,...] PROGRAM [ARG...]
 * Exit 77 where seccomp or the architecture is not known here. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char **argv) {
#if defined(ARCH) && defined(SYS_landlock_create_ruleset) &&                   \
    defined(SYS_openat2)
  if (argc < 3) {
    fprintf(stderr, "usage: nosys landlock|openat2[,...] PROGRAM [ARG...]\n");
    return 2;
  }
  long nrs[4];
  size_t n = 0;
  char names[256];
  snprintf(names, sizeof names, "%s", argv[1]);
  for (char *save, *name = strtok_r(names, ",", &save); name;
       name = strtok_r(NULL, ",", &save)) {
    if (!strcmp(name, "landlock") && n + 3 <= 4) {
      nrs[n++] = SYS_landlock_create_ruleset;
      nrs[n++] = SYS_landlock_add_rule;
      nrs[n++] = SYS_landlock_restrict_self;
    } else if (!strcmp(name, "openat2") && n < 4) {
      nrs[n++] = SYS_openat2;
    } else {
      fprintf(stderr, "nosys: unknown or too many: %s\n", name);
      return 2;
    }
  }
  struct sock_filter f[3 + 2 * 4 + 2];
  size_t k = 0;
  /* another architecture's calls (compat) have other numbers: left */
  f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                        offsetof(struct seccomp_data, arch));
  f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
  f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                        offsetof(struct seccomp_data, nr));
  for (size_t i = 0; i < n; i++) {
    f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                          (unsigned)nrs[i], 0, 1);
    f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
                                          SECCOMP_RET_ERRNO | ENOSYS);
  }
  f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  struct sock_fprog prog = {(unsigned short)k, f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    fprintf(stderr, "nosys: seccomp: %s\n", strerror(errno));
    return 77;
  }
  execvp(argv[2], argv + 2);
  fprintf(stderr, "nosys: %s: %s\n", argv[2], strerror(errno));
  return 127;
#else
  (void)argc;
  (void)argv;
  fprintf(stderr, "nosys: seccomp filters are not known on this machine\n");
  return 77;
#endif
}
