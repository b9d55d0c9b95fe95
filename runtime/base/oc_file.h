/* Reading files the one way every part of Octavo does: whole, and only
 * when the path names a regular file (a FIFO, a device or a folder is
 * refused without blocking on it). */
#ifndef OCTAVO_OC_FILE_H
#define OCTAVO_OC_FILE_H

#include <stddef.h>
#include <stdio.h>

/* Reads a regular file whole: malloc'd, NUL-terminated, its length in
 * *len. NULL with errno set when it cannot (missing, not a regular file
 * (EISDIR), I/O). */
char *oc_read_file(const char *path, size_t *len);

/* Opens a regular file for reading without blocking on anything else (a
 * FIFO, a device): the descriptor (blocking again), or -1 with errno set
 * (EISDIR for what is not a regular file). oc_fopen_regular wraps it in a
 * FILE for the readers that take one (fonts, images, zoneinfo). */
int oc_open_regular(const char *path);
FILE *oc_fopen_regular(const char *path);

/* Why a read failed, for a message: errno EISDIR (what oc_read_file and
 * oc_open_regular give for anything but a regular file) as "not a regular
 * file (a FIFO, a device or a folder)", anything else as strerror. */
const char *oc_file_error(int err);

#endif
