"""Publishing a book with another bundled theme, for the validity tests
(test_html_valid.py, test_epub.py, test_pdf.py take `--theme NAME`).

use_theme(book_dir, name) rewrites the config.yml of a temporary copy of a
book so that every edition has `theme: name` (Easybook's key), as an
author would write it. The copy's comments are lost; nothing else
changes. Needs python3-yaml (Debian's), as test_pdf.py does.
"""
import os

try:
    import yaml
except ImportError:  # pragma: no cover
    yaml = None


def pop_theme(args):
    """Takes `--theme NAME` out of a list of arguments: (args, NAME or
    None)."""
    if "--theme" not in args:
        return args, None
    i = args.index("--theme")
    if i + 1 >= len(args):
        raise SystemExit("--theme needs a theme's name")
    return args[:i] + args[i + 2:], args[i + 1]


def use_theme(book_dir, name):
    """Sets `theme: name` on every edition of the book in book_dir."""
    if yaml is None:
        raise SystemExit("--theme needs python3-yaml")
    path = os.path.join(book_dir, "config.yml")
    with open(path, encoding="utf-8") as f:
        cfg = yaml.safe_load(f)
    editions = (cfg.get("book") or {}).get("editions") or {}
    if not editions:
        raise SystemExit(f"{path}: no editions to set the theme of")
    for ed in editions.values():
        ed["theme"] = name
    with open(path, "w", encoding="utf-8") as f:
        yaml.safe_dump(cfg, f, allow_unicode=True, sort_keys=False)


if __name__ == "__main__":
    import sys
    if len(sys.argv) != 3:
        raise SystemExit("usage: themed.py BOOK_DIR THEME")
    use_theme(sys.argv[1], sys.argv[2])
