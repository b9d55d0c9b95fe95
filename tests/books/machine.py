"""What publish says of the machine rather than of the book, which the
runners that compare a book's messages leave out: on a kernel without
Landlock (or under valgrind, which does not know its system calls)
publish warns that it runs unconfined."""
import re

UNCONFINED = re.compile(r"(?m)^publish: warning: Landlock not available "
                        r"\(.*\): running unconfined\n?")


def book_messages(stderr):
    """stderr without the machine's warning."""
    return UNCONFINED.sub("", stderr)
