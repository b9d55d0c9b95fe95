/* Highlighting of code: a code block's text to HTML whose tokens are
 * <span class="hl-CLASS"> elements, from the grammars of the `highlight`
 * program (Debian's highlight-common: langDefs/NAME.lang, Lua tables of
 * keyword lists and regular expressions, and filetypes.conf, which maps
 * other names to them). The files are data: each is run by Lua in a
 * state that has only Lua's base, string, table and math libraries, with
 * a cap on instructions and memory; its regular expressions are run by
 * PCRE2. The matching engine is this module's (docs/design.md says how it
 * reads a grammar). A leaf library (octavo_highlight): it links
 * octavo_base, Lua and PCRE2 only, and prints nothing; what went wrong
 * comes back as a phrase (hl_html's why).
 *
 * Classes (the themes style them; highlight's names):
 *   hl-kwa … hl-kwf  keyword groups 1 to 6 of the grammar (kwa: reserved
 *                    words, kwb: types and built-ins, kwc, kwd: names the
 *                    grammar picks out, such as functions or variables)
 *   hl-str  string          hl-esc  escape in a string
 *   hl-ipl  interpolation   hl-num  number
 *   hl-slc  line comment    hl-com  block comment
 *   hl-ppc  preprocessor    hl-pps  string in a preprocessor line
 *   hl-opt  operator
 * Spans never cross a line end. Two names are the engine's own:
 *   diff: each line is wrapped in <span class="hl-line hl-add"> (a line
 *   starting with + or >, not +++), hl-del (- or <, not ---) or hl-hunk
 *   (@@ … @@, and a normal diff's 1,2c3 lines);
 *   console (also shell-session, terminal): a line starting with a prompt
 *   ($, #, %, > or PS…> and a space) gets <span class="hl-prompt"> for
 *   the prompt, the command highlighted as sh (continued by a trailing
 *   backslash); other lines are output, <span class="hl-out">.
 *
 * Names: a fence's info is lower-cased and looked up as a grammar file
 * (`php`, `python`), then as a file-name extension of filetypes.conf
 * (`cpp`, `bash`, `yml`, `dockerfile`), then in a short table of the names
 * code fences use (`javascript`, `typescript`, `rust`, `shell`, `c#`,
 * `toml` → ini, `twig` → html, `apache` → httpd, …). */
#ifndef OCTAVO_HL_HIGHLIGHT_H
#define OCTAVO_HL_HIGHLIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "oc_sb.h"

/* Where highlight-common installs its grammars on Debian. */
#define HL_DATA_DIR "/usr/share/highlight"
#define HL_CONF_DIR "/etc/highlight"

typedef struct hl_highlighter hl_highlighter;

/* A highlighter reading grammars from data_dir/langDefs and
 * conf_dir/filetypes.conf (NULL: the Debian folders above). Grammars are
 * read the first time a block needs them, and kept. */
hl_highlighter *hl_new(const char *data_dir, const char *conf_dir);
void hl_free(hl_highlighter *h);

/* The grammar's file stem for a fence's language name ("c++" → "c"), or
 * NULL when none is installed. `console` gives "console". The result is
 * static or lives as long as h. */
const char *hl_resolve(hl_highlighter *h, const char *name);

/* Appends the highlighted HTML of code[0..len) to out (text escaped as
 * cmark escapes it: & < > "). Returns true; false when the language is
 * unknown or its grammar cannot be read (nothing appended; *why, when not
 * NULL, says why in a short static or h-owned phrase), or the block is
 * too large to highlight (over HL_MAX_BYTES, or a line over
 * HL_MAX_LINE). */
bool hl_html(hl_highlighter *h, const char *lang, const char *code, size_t len,
             oc_sb *out, const char **why);

/* Caps that keep highlighting linear: some grammars' expressions take time
 * quadratic in a line's length on lines made to hurt them (miranda's type
 * declarations, perl's and ruby's strings: at most 2 s a megabyte of
 * 1,000-character lines over all 218 grammars, measured). */
#define HL_MAX_BYTES (1u << 20)
#define HL_MAX_LINE 1000u

#endif
