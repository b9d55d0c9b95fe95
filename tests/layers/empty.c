/* A source for the layer test's libraries, never compiled. */
