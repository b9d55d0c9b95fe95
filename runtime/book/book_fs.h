/* The file-system layer of publishing (book_fs.c): paths the book names,
 * which must stay inside the book folder, and the output of an edition,
 * written to a temporary folder that replaces the previous output only
 * when the whole edition succeeded.
 *
 * Memory: paths returned live in the edition's arena; a bk_out's paths
 * too. Errors are reported through the edition's reporter. */
#ifndef OCTAVO_BOOK_FS_H
#define OCTAVO_BOOK_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "book.h"

/* Resolves rel (as written in the book: a content or image path, relative
 * to base_rel, a folder of the book such as "Contents") to an absolute
 * path inside the book. Refuses absolute paths, `..` that climbs out and
 * symbolic links that lead out of the book (reported at file:line:col, an
 * error). NULL when refused or missing (missing: *missing set, nothing
 * reported). */
const char *bk_book_path(bk_edition *e, const char *base_rel, const char *rel,
                         const char *file, unsigned line, unsigned col,
                         bool *missing);

/* Output: files go under a temporary folder next to the final one. */
typedef struct bk_out {
  const char *final_dir; /* BOOK/Output/<edition> */
  const char *tmp_dir;   /* BOOK/Output/.<edition>.tmp-XXXXXX */
  const char *old_dir;   /* the previous output, until bk_out_finish */
} bk_out;

int bk_out_begin(bk_edition *e, bk_out *o);
/* Writes data to tmp_dir/rel, creating folders. With the options'
 * out_memo, a file whose bytes are those written last time at the same
 * place, and which is still there in the current output as written (same
 * inode, size and modification time), is hard-linked from there instead:
 * the folder swap stays whole, but a publish that changes one chapter
 * makes one new file, not one per page (creating and removing inodes
 * was a third of a warm website publish). */
int bk_out_write(bk_edition *e, bk_out *o, const char *rel, const char *data,
                 size_t len);
/* Renames the temporary folder into place, keeping the previous output
 * aside; then either bk_out_finish removes it, or bk_out_rollback (an
 * after_publish script failed) puts it back. */
int bk_out_commit(bk_edition *e, bk_out *o);
void bk_out_finish(bk_out *o);
int bk_out_rollback(bk_edition *e, bk_out *o);
/* For a server of the output (publish serve, sv_serve.h, which gets
 * them as its sv_lock from publish_loop.c): between these no commit or
 * rollback moves an edition's folder (they take the lock for writing
 * around their renames), so a file opened there is one of a whole output,
 * never looked for between the two renames. */
void bk_out_read_lock(void);
void bk_out_read_unlock(void);
/* Removes the temporary folder (on failure). */
void bk_out_abort(bk_out *o);
int bk_rmtree(const char *path);

bk_out_memo *bk_out_memo_new(void);
void bk_out_memo_free(bk_out_memo *m);
/* Files linked and written since the memo was made. */
void bk_out_memo_counts(const bk_out_memo *m, size_t *linked,
                        size_t *written);

/* A 128-bit hash in two independent 64-bit chains (h[0], h[1], started
 * by the caller at any two values), fed with n more bytes eight at a time:
 * the keys of the caches of publish serve. Not for adversaries: a book
 * made to collide would only show a stale page. */
void bk_hash_feed(uint64_t h[2], const void *p, size_t n);
int bk_mkdirs(const char *path);

#endif
