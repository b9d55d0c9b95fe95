/* Octavo's search box on the website edition (html_chunked). The index,
 * search-index.js, is a script that sets window.octavoSearchIndex, so the
 * search works from file:// and offline; its format is in Octavo's
 * docs/design.md ("Search on the website"). The browser cannot run the
 * Snowball stemmer that made it, so a typed word is found through the
 * surface forms the book uses (grouped by stem in the index), then the
 * longest stem that begins it; the word being typed also matches as a
 * prefix. Results link to the section; the words are marked in the
 * title and in the passage around the first of them in the section's
 * text (the index carries every section's text deflated: the browser's
 * DecompressionStream inflates it once, in the background; without one,
 * results show their titles alone). Everything is written with DOM calls,
 * never as HTML. */
(function () {
  "use strict";
  var box = document.querySelector(".search");
  var idx = window.octavoSearchIndex;
  if (!box || !idx || idx.version !== 2) return;
  var input = box.querySelector(".search-input");
  var list = box.querySelector(".search-results");
  var count = box.querySelector(".search-count");
  var root = box.getAttribute("data-root") || "";
  var MAX_RESULTS = 20, MAX_PREFIX = 30, SNIPPET = 180;
  box.hidden = false;

  var WORD = /[\p{L}\p{M}\p{N}\p{Pc}]/u;
  /* Han and kana, as book_search.c's is_cjk. */
  function isCjk(c) {
    return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x31f0 && c <= 0x31ff) ||
      (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) ||
      (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff66 && c <= 0xff9f) ||
      (c >= 0x20000 && c <= 0x3ffff);
  }
  function fold(s) {
    var r = "";
    for (var ch of s) r += ch.toLowerCase();
    return r.normalize("NFC");
  }
  /* Tokens of text with their places: words, and Han and kana one
   * character each. */
  function tokens(text) {
    var out = [], cur = null, pos = 0;
    for (var ch of text) {
      var end = pos + ch.length;
      if (isCjk(ch.codePointAt(0))) {
        cur = null;
        out.push({s: pos, e: end, w: ch, cjk: true});
      } else if (WORD.test(ch)) {
        if (cur) cur.e = end;
        else out.push(cur = {s: pos, e: end, cjk: false});
      } else {
        cur = null;
      }
      pos = end;
    }
    out.forEach(function (t) { if (!t.cjk) t.w = fold(text.slice(t.s, t.e)); });
    return out;
  }

  /* ---- the index ---- */
  var S = idx.sections, nsec = S.length / 3;
  /* The sections' texts, once inflated (null until then, or for good
   * where the browser cannot). */
  var texts = null;
  if (idx.text && typeof DecompressionStream === "function") {
    try {
      var bin = atob(idx.text), bytes = new Uint8Array(bin.length);
      for (var b = 0; b < bin.length; b++) bytes[b] = bin.charCodeAt(b);
      new Response(new Blob([bytes]).stream()
        .pipeThrough(new DecompressionStream("deflate-raw"))).text()
        .then(function (t) {
          texts = t.split("\u001f");
          box.setAttribute("data-passages", "ready");
          if (input.value.trim()) show();
        }, function () {});
    } catch (e) { /* no passages: titles only */ }
  }
  var posts = [], formsOf = [], termOf = new Map(), sorted = null;
  (idx.words ? idx.words.split(";") : []).forEach(function (entry, t) {
    var colon = entry.indexOf(":"), fs = entry.slice(0, colon).split(" ");
    var stem = fs[0];
    termOf.set(stem, t);
    for (var k = 1; k < fs.length; k++) {
      fs[k] = fs[k].charAt(0) === "=" ? fs[k].slice(1) : stem + fs[k];
      if (!termOf.has(fs[k])) termOf.set(fs[k], t);
    }
    formsOf.push(fs);
    posts.push(entry.slice(colon + 1));
  });
  var LAST = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";
  var MORE = "ghijklmnopqrstuvwxyz0123456789+/";
  var cache = new Map();
  /* A term's sections: [section, flags] pairs (2: in the title, 1: three
   * times or more). */
  function postings(t) {
    if (cache.has(t)) return cache.get(t);
    var s = posts[t], out = [], v = 0, sec = -1;
    for (var k = 0; k < s.length; k++) {
      var d = LAST.indexOf(s[k]);
      if (d < 0) { v = v * 32 + MORE.indexOf(s[k]); continue; }
      v = v * 32 + d;
      sec += Math.floor(v / 4);
      out.push([sec, v % 4]);
      v = 0;
    }
    cache.set(t, out);
    return out;
  }
  /* The words (stems and forms) that begin with q, in order. */
  function withPrefix(q) {
    if (!sorted) sorted = Array.from(termOf.keys()).sort();
    var lo = 0, hi = sorted.length, out = [];
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (sorted[mid] < q) lo = mid + 1; else hi = mid;
    }
    for (; lo < sorted.length && out.length < MAX_PREFIX &&
         sorted[lo].startsWith(q); lo++)
      out.push(sorted[lo]);
    return out;
  }
  /* The terms a typed word means, each with a weight. */
  function termsFor(q, last) {
    var found = new Map();
    if (termOf.has(q)) found.set(termOf.get(q), 1);
    else if (idx.stemmer)
      for (var n = q.length - 1; n >= 3; n--)
        if (termOf.has(q.slice(0, n))) { found.set(termOf.get(q.slice(0, n)), 1); break; }
    if (last && q.length >= 3)
      withPrefix(q).forEach(function (w) {
        var t = termOf.get(w);
        if (!found.has(t)) found.set(t, 0.5);
      });
    return found;
  }

  /* ---- a query ---- */
  function search(query) {
    var toks = tokens(query), words = [], marks = new Set(), cjk = [];
    for (var k = 0; k < toks.length; k++) {
      if (!toks[k].cjk) {
        /* One letter or digit is not indexed (book_search.c). */
        if (Array.from(toks[k].w).length > 1)
          words.push({q: toks[k].w, last: k === toks.length - 1});
        continue;
      }
      /* A run of Han or kana: its pairs, or its one character. */
      var run = toks[k].w;
      while (k + 1 < toks.length && toks[k + 1].cjk && toks[k + 1].s === toks[k].e)
        run += toks[++k].w;
      var cs = Array.from(run);
      if (cs.length === 1) words.push({q: run, exact: true});
      for (var c = 0; c + 1 < cs.length; c++) words.push({q: cs[c] + cs[c + 1], exact: true});
      cjk.push(run);
    }
    if (!words.length) return {results: [], marks: marks, cjk: cjk};
    var scores = null;
    words.forEach(function (w) {
      var terms = w.exact ? new Map(termOf.has(w.q) ? [[termOf.get(w.q), 1]] : [])
                          : termsFor(w.q, w.last);
      var mine = new Map();
      terms.forEach(function (weight, t) {
        if (!w.exact) formsOf[t].forEach(function (f) { marks.add(f); });
        var ps = postings(t), idf = Math.log(1 + nsec / ps.length);
        ps.forEach(function (p) {
          var sc = weight * idf * (1 + (p[1] & 2 ? 3 : 0) + (p[1] & 1));
          if (!(mine.get(p[0]) >= sc)) mine.set(p[0], sc);
        });
      });
      if (!scores) { scores = mine; return; }
      var both = new Map();
      scores.forEach(function (sc, sec) {
        if (mine.has(sec)) both.set(sec, sc + mine.get(sec));
      });
      scores = both;
    });
    var results = Array.from(scores.entries());
    results.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    return {results: results, marks: marks, cjk: cjk};
  }

  /* ---- showing the results ---- */
  /* Which characters of text to mark: words whose form was searched, and
   * the Han and kana runs of the query. */
  function marked(text, found) {
    var on = new Uint8Array(text.length);
    tokens(text).forEach(function (t) {
      if (!t.cjk && found.marks.has(t.w)) on.fill(1, t.s, t.e);
    });
    found.cjk.forEach(function (run) {
      for (var at = text.indexOf(run); at >= 0; at = text.indexOf(run, at + 1))
        on.fill(1, at, at + run.length);
    });
    return on;
  }
  function appendMarked(el, text, on) {
    var k = 0;
    while (k < text.length) {
      var j = k;
      while (j < text.length && on[j] === on[k]) j++;
      var part = text.slice(k, j);
      if (on[k]) {
        var m = document.createElement("mark");
        m.textContent = part;
        el.appendChild(m);
      } else {
        el.appendChild(document.createTextNode(part));
      }
      k = j;
    }
  }
  /* The passage around its first marked word (the section's start when
   * only its title matched). */
  function snippet(el, text, found) {
    var on = marked(text, found), first = on.indexOf(1), from = 0;
    if (first > SNIPPET / 3) {
      from = text.lastIndexOf(" ", first - SNIPPET / 3) + 1;
      text = "… " + text.slice(from);
      on = marked(text, found);
    }
    if (text.length > SNIPPET) {
      var cut = text.lastIndexOf(" ", SNIPPET);
      text = text.slice(0, cut > SNIPPET / 2 ? cut : SNIPPET) + " …";
      on = marked(text, found);
    }
    appendMarked(el, text, on);
  }
  function label(name, fallback) {
    return box.getAttribute("data-" + name) || fallback;
  }
  function show() {
    var q = input.value.trim();
    list.textContent = "";
    box.classList.toggle("searching", q !== "");
    if (!q) { count.textContent = ""; return; }
    var found = search(q), n = found.results.length;
    count.textContent = n === 0 ? label("none", "No results")
      : n > MAX_RESULTS ? label("some", "{shown} of {total} results")
          .replace("{shown}", MAX_RESULTS).replace("{total}", n)
      : label(n === 1 ? "one" : "many", "%d results").replace("%d", n);
    found.results.slice(0, MAX_RESULTS).forEach(function (r) {
      var sec = r[0], page = idx.pages[S[sec * 3]], id = S[sec * 3 + 1];
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = root + page + (id ? "#" + encodeURIComponent(id) : "");
      a.className = "search-result";
      var title = document.createElement("span");
      title.className = "search-result-title";
      appendMarked(title, S[sec * 3 + 2], marked(S[sec * 3 + 2], found));
      var text = document.createElement("span");
      text.className = "search-result-text";
      if (texts && texts[sec]) snippet(text, texts[sec], found);
      a.appendChild(title);
      a.appendChild(text);
      li.appendChild(a);
      list.appendChild(li);
    });
  }

  /* ---- the keyboard ---- */
  function links() { return Array.from(list.querySelectorAll("a")); }
  input.addEventListener("input", show);
  input.addEventListener("keydown", function (ev) {
    var ls = links();
    if (ev.key === "ArrowDown" && ls.length) { ev.preventDefault(); ls[0].focus(); }
    else if (ev.key === "Enter" && ls.length) { ev.preventDefault(); ls[0].click(); }
    else if (ev.key === "Escape") { input.value = ""; show(); }
  });
  list.addEventListener("keydown", function (ev) {
    var ls = links(), at = ls.indexOf(document.activeElement);
    if (ev.key === "ArrowDown" && at + 1 < ls.length) { ev.preventDefault(); ls[at + 1].focus(); }
    else if (ev.key === "ArrowUp") { ev.preventDefault(); (at > 0 ? ls[at - 1] : input).focus(); }
    else if (ev.key === "Escape") { input.focus(); }
  });
  if (input.value) show();
})();
