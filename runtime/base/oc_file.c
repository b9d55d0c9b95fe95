/* Reading a whole file (oc_file.h): configs, Markdown, templates, data
 * files, style sheets, theme sources and test cases. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oc_alloc.h"
#include "oc_file.h"

int oc_open_regular(const char *path) {
  /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
   * writer forever; fstat then refuses anything but a regular file. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return -1;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      (uint64_t)st.st_size >= SIZE_MAX) {
    close(fd);
    errno = EISDIR;
    return -1;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0)
    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

FILE *oc_fopen_regular(const char *path) {
  int fd = oc_open_regular(path);
  if (fd < 0)
    return NULL;
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    int saved = errno;
    close(fd);
    errno = saved;
  }
  return f;
}

char *oc_read_file(const char *path, size_t *len) {
  int fd = oc_open_regular(path);
  if (fd < 0)
    return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return NULL;
  }
  size_t size = (size_t)st.st_size;
  char *buf = oc_malloc(size + 1);
  size_t got = 0;
  while (got < size) {
    ssize_t r = read(fd, buf + got, size - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      int saved = errno;
      free(buf);
      close(fd);
      errno = saved;
      return NULL;
    }
    if (r == 0)
      break; /* the file shrank while we read it */
    got += (size_t)r;
  }
  close(fd);
  buf[got] = 0;
  *len = got;
  return buf;
}

const char *oc_file_error(int err) {
  return err == EISDIR ? "not a regular file (a FIFO, a device or a folder)"
                       : strerror(err);
}
