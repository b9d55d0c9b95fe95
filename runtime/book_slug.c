/* book_slug: being written. */
