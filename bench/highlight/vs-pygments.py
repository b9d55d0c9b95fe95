#!/usr/bin/python3
"""Compares Octavo's highlighted code with Pygments' tokens (Debian's
python3-pygments), snippet by snippet, on the golden book of every
language (tests/books/golden/code): for each non-blank character, the
coarse class each tool gives it, and the share of characters on which they
agree, per language.

    bench/highlight/vs-pygments.py [BOOK_HTML]

BOOK_HTML: a web edition of that book (default: its golden output). The
coarse classes: comment, string (escapes and interpolation too), number,
keyword (reserved words, types, built-ins, tags, function and variable
names a grammar picks out: highlight's kwa-kwf and Pygments' Keyword and
its marked Names), preprocessor, operator, and for diff and console the
line kinds (added, removed, hunk, prompt, output); everything else is
"plain". They are different tools: highlight marks some names Pygments
leaves plain and the other way round, so 100 % is not the aim; a low
figure points at a grammar or an engine mistake."""
import html
import html.parser
import os
import re
import sys

from pygments import lex
from pygments.lexers import get_lexer_by_name
from pygments.token import (Comment, Generic, Keyword, Name, Number,
                            Operator, Punctuation, String, Literal)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT = os.path.join(ROOT, "tests/books/golden/code/expected/web/book.html")

# Octavo's fence name -> Pygments' lexer name
PYG = {"php": "html+php", "c++": "cpp", "c#": "csharp", "console": "console",
       "twig": "html+twig", "apache": "apacheconf", "shell": "bash",
       "markdown": "markdown", "dockerfile": "docker", "makefile": "make",
       "xml": "xml", "toml": "toml", "ini": "ini", "nginx": "nginx"}

OURS = {"hl-slc": "comment", "hl-com": "comment", "hl-str": "string",
        "hl-pps": "string", "hl-esc": "string", "hl-ipl": "string",
        "hl-num": "number", "hl-ppc": "preproc", "hl-opt": "operator",
        "hl-prompt": "prompt", "hl-out": "output", "hl-add": "added",
        "hl-del": "removed", "hl-hunk": "hunk", "hl-file": "hunk"}
for k in "abcdef":
    OURS["hl-kw" + k] = "keyword"
KEYWORDISH = (Name.Builtin, Name.Tag, Name.Function, Name.Class,
              Name.Decorator, Name.Attribute, Name.Variable, Name.Label,
              Name.Namespace, Name.Constant, Name.Entity)


def theirs(tok):
    if tok in Comment.Preproc or tok in Comment.PreprocFile:
        return "preproc"
    if tok in Comment:
        return "comment"
    if tok in String or tok in Literal.String:
        return "string"
    if tok in Number:
        return "number"
    if tok in Keyword or any(tok in k for k in KEYWORDISH):
        return "keyword"
    if tok in Operator or tok in Punctuation:
        return "operator"
    if tok in Generic.Prompt:
        return "prompt"
    if tok in Generic.Output:
        return "output"
    if tok in Generic.Inserted:
        return "added"
    if tok in Generic.Deleted:
        return "removed"
    if tok in Generic.Subheading or tok in Generic.Heading:
        return "hunk"
    return "plain"


class Blocks(html.parser.HTMLParser):
    """The code blocks of a page: language, text, class per character."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.stack, self.lang, self.inside = [], [], None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "code" and (a.get("class") or "").startswith("language-"):
            self.lang = a["class"][len("language-"):]
            self.inside = True
            self.blocks.append((self.lang, [], []))
            self.stack = []
        elif self.inside and tag == "span":
            self.stack.append(a.get("class", ""))

    def handle_endtag(self, tag):
        if tag == "code":
            self.inside = False
        elif self.inside and tag == "span" and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not self.inside:
            return
        cls = "plain"
        # the innermost class that means something; a diff line's kind wins
        for c in self.stack:
            for name in c.split():
                if name in OURS and (cls == "plain" or OURS[name] in
                                     ("added", "removed", "hunk")):
                    cls = OURS[name]
        _, text, classes = self.blocks[-1]
        text.append(data)
        classes.extend([cls] * len(data))


def main():
    page = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    p = Blocks()
    p.feed(open(page, encoding="utf-8").read())
    rows, total_agree, total_n = [], 0, 0
    for lang, text, ours in p.blocks:
        code = "".join(text)
        try:
            lexer = get_lexer_by_name(PYG.get(lang, lang), stripnl=False,
                                      ensurenl=False)
        except Exception:
            rows.append((lang, None, 0))
            continue
        mine = []
        for tok, val in lex(code, lexer):
            mine.extend([theirs(tok)] * len(val))
        if "".join(v for _, v in lex(code, lexer)) != code:
            rows.append((lang, None, 0))
            continue
        # diff and console: Pygments marks whole lines, the line kind wins
        agree = n = 0
        for ch, a, b in zip(code, ours, mine):
            if ch.isspace():
                continue
            n += 1
            agree += a == b
        rows.append((lang, agree, n))
        total_agree += agree
        total_n += n
    print("| language | characters | agree |")
    print("| --- | ---: | ---: |")
    for lang, agree, n in rows:
        if agree is None:
            print(f"| {lang} | | (no Pygments lexer) |")
        else:
            print(f"| {lang} | {n} | {100 * agree / n:.0f} % |")
    print(f"| all | {total_n} | {100 * total_agree / total_n:.0f} % |")


if __name__ == "__main__":
    main()
