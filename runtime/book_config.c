/* book_config: being written. */
