/* Replays inputs through a fuzz target's entry point without libFuzzer, so
 * that everything the fuzzers found (tests/fuzz/regress/<target>/) and
 * their seeds run in every build, and under valgrind: each argument is a
 * file or a folder of files (not recursive, in name order). Exits 0 when
 * every input ran; a bug the input triggers aborts or is reported by the
 * sanitizer or valgrind, and an input that runs past REGRESS_SECONDS (a
 * hang: the fuzzers' timeout is 20 s, this leaves room for valgrind) fails
 * naming itself. */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oc_alloc.h"
#include "oc_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static size_t ran;
static const char *current;

enum { REGRESS_SECONDS = 120 };

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "regress: an input hangs (more than 120 s): ";
  ssize_t r = write(2, msg, sizeof msg - 1);
  r += write(2, current, strlen(current));
  r += write(2, "\n", 1);
  (void)r;
  _exit(1);
}

static void run_file(const char *path) {
  size_t len;
  char *data = oc_read_file(path, &len);
  if (!data) {
    fprintf(stderr, "regress: cannot read %s\n", path);
    exit(2);
  }
  /* libFuzzer hands a copy of exactly len bytes: no terminator to lean on */
  uint8_t *copy = oc_malloc(len ? len : 1);
  memcpy(copy, data, len);
  free(data);
  current = path;
  alarm(REGRESS_SECONDS);
  LLVMFuzzerTestOneInput(copy, len);
  alarm(0);
  free(copy);
  ran++;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv) {
  signal(SIGALRM, on_alarm);
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "regress: no such file or folder: %s\n", argv[i]);
      return 2;
    }
    if (!S_ISDIR(st.st_mode)) {
      run_file(argv[i]);
      continue;
    }
    struct dirent **names;
    int n = scandir(argv[i], &names, NULL, by_name);
    for (int k = 0; k < n; k++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
      if (names[k]->d_name[0] != '.' && stat(path, &st) == 0 &&
          S_ISREG(st.st_mode))
        run_file(path);
      free(names[k]);
    }
    free(names);
  }
  printf("%zu inputs replayed\n", ran);
  return 0;
}
