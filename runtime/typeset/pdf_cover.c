/* Merging a cover PDF in front of the book with qpdf's C API (see
 * pdf_cover.h). qpdf keeps the book's objects, so links, outline entries
 * and page labels written by ts_pdf.c stay right once the labels allow for
 * the cover's pages (ts_pdf_front_pages). */
#include "pdf_cover.h"

#include <qpdf/qpdf-c.h>
#include <stdbool.h>

/* Reports qpdf's error, if it has one, against file; true when it had. */
static bool report_qpdf(qpdf_data q, const char *file, const char *what,
                        const oc_reporter *rep) {
  if (!qpdf_has_error(q))
    return false;
  qpdf_error err = qpdf_get_error(q);
  const char *detail = qpdf_get_error_message_detail(q, err);
  oc_report(rep, OC_ERROR, file, 0, 0, "%s: %s", what,
            detail && *detail ? detail : qpdf_get_error_full_text(q, err));
  return true;
}

/* A qpdf handle that prints nothing itself (messages go through rep). */
static qpdf_data quiet_qpdf(void) {
  qpdf_data q = qpdf_init();
  qpdf_silence_errors(q);
  qpdf_set_suppress_warnings(q, QPDF_TRUE);
  return q;
}

static int read_cover(qpdf_data q, const char *path, const char *name,
                      const oc_reporter *rep) {
  qpdf_read(q, path, NULL);
  if (report_qpdf(q, name, "cannot read the cover PDF", rep))
    return -1;
  int n = qpdf_get_num_pages(q);
  if (report_qpdf(q, name, "cannot read the cover PDF's pages", rep))
    return -1;
  if (n < 1) {
    oc_report(rep, OC_ERROR, name, 0, 0, "the cover PDF has no page");
    return -1;
  }
  return n;
}

int pdf_cover_pages(const char *cover_path, const char *name,
                    const oc_reporter *rep) {
  qpdf_data q = quiet_qpdf();
  int n = read_cover(q, cover_path, name, rep);
  qpdf_cleanup(&q);
  return n;
}

int pdf_cover_merge(const char *cover_path, const char *name,
                    const char *book_path, const char *out_path,
                    const oc_reporter *rep) {
  qpdf_data book = quiet_qpdf(), cover = quiet_qpdf();
  int rc = -1;
  int n = read_cover(cover, cover_path, name, rep);
  if (n < 0)
    goto done;
  qpdf_read(book, book_path, NULL);
  if (report_qpdf(book, book_path, "cannot read the typeset PDF", rep))
    goto done;
  if (qpdf_get_num_pages(book) < 1) {
    oc_report(rep, OC_ERROR, book_path, 0, 0, "the typeset PDF has no page");
    goto done;
  }
  /* each page goes before the book's first, hence after the cover's
     previous ones */
  qpdf_oh first = qpdf_get_page_n(book, 0);
  for (int i = 0; i < n; i++) {
    qpdf_oh page = qpdf_get_page_n(cover, (size_t)i);
    qpdf_add_page_at(book, cover, page, QPDF_TRUE, first);
    if (report_qpdf(book, name, "cannot copy the cover's pages", rep) ||
        report_qpdf(cover, name, "cannot copy the cover's pages", rep))
      goto done;
  }
  qpdf_init_write(book, out_path);
  if (report_qpdf(book, out_path, "cannot write the PDF", rep))
    goto done;
  /* The ID from the content, not the clock; streams copied as they are
     (the book's are deflated already: decoding them again is slow). */
  qpdf_set_deterministic_ID(book, QPDF_TRUE);
  qpdf_set_decode_level(book, qpdf_dl_none);
  /* a cover of a later PDF version raises the book's */
  qpdf_set_minimum_pdf_version(book, qpdf_get_pdf_version(cover));
  qpdf_write(book);
  if (report_qpdf(book, out_path, "cannot write the PDF", rep))
    goto done;
  rc = 0;
done:
  qpdf_cleanup(&book);
  qpdf_cleanup(&cover);
  return rc;
}
