/* book_md: being written. */
