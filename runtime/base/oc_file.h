/* Reading files the one way every part of Octavo does: whole, and only
 * when the path names a regular file (a FIFO, a device or a folder is
 * refused without blocking on it). */
#ifndef OCTAVO_OC_FILE_H
#define OCTAVO_OC_FILE_H

#include <stddef.h>

/* Reads a regular file whole: malloc'd, NUL-terminated, its length in
 * *len. NULL with errno set when it cannot (missing, not a regular file
 * (EISDIR), I/O). */
char *oc_read_file(const char *path, size_t *len);

#endif
