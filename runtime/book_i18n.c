/* book_i18n: being written. */
