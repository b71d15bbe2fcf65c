/*
 * Client-side search of the docs portal (search.html). The index is a plain script
 * (search-index.js sets window.PORTAL_SEARCH_INDEX) so that it also loads from file://,
 * where fetch() of a local JSON file is refused by browsers.
 *
 * Entry shape: { t: title, u: url, k: kind label, x: searchable text }.
 * Every term of the query must occur (case-insensitive) in the title or the text; titles
 * and whole-word hits rank first.
 */
"use strict";
// The search's names stay inside this block (in strict mode a block scopes its functions too):
// nothing is added to the page's globals.
{
  const index = window.PORTAL_SEARCH_INDEX || [];
  const input = document.getElementById("search-query");
  const list = document.getElementById("search-results");
  const summary = document.getElementById("search-summary");
  if (input && list && summary) start();

  /** Searches what the URL's `q` names, then as the reader types (the URL follows, but from a file). */
  function start() {
    var initial = new URLSearchParams(window.location.search).get("q") || "";
    input.value = initial;
    run(initial);
    input.addEventListener("input", function () {
      run(input.value);
      var url = new URL(window.location.href);
      url.searchParams.set("q", input.value);
      if (window.location.protocol !== "file:") window.history.replaceState(null, "", url.toString());
    });
  }

  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  function termsOf(query) {
    return query.toLowerCase().split(/\s+/).filter(function (term) { return term.length > 0; });
  }

  function score(entry, terms) {
    var title = entry.t.toLowerCase();
    var text = entry.x.toLowerCase();
    var total = 0;
    for (var i = 0; i < terms.length; i++) {
      var term = terms[i];
      var inTitle = title.indexOf(term) >= 0;
      var inText = text.indexOf(term) >= 0;
      if (!inTitle && !inText) return 0;
      total += inTitle ? 10 : 1;
      if (new RegExp("(^|[^a-z0-9_])" + escapeRegExp(term) + "($|[^a-z0-9_])").test(text)) total += 2;
    }
    return total;
  }

  function snippet(entry, terms) {
    var text = entry.x;
    var lower = text.toLowerCase();
    var at = lower.indexOf(terms[0]);
    var start = Math.max(0, at - 80);
    var end = Math.min(text.length, (at < 0 ? 0 : at) + 180);
    var piece = (start > 0 ? "… " : "") + text.slice(start, end) + (end < text.length ? " …" : "");
    var html = escapeHtml(piece);
    for (var i = 0; i < terms.length; i++) {
      html = html.replace(new RegExp("(" + escapeRegExp(escapeHtml(terms[i])) + ")", "gi"), "<mark>$1</mark>");
    }
    return html;
  }

  function run(query) {
    var terms = termsOf(query);
    list.innerHTML = "";
    if (terms.length === 0) {
      summary.textContent = "Type a word, an error code (IDEMPOTENCY_KEY_REQUIRED, ODE002), a field or a decision id.";
      return;
    }
    var hits = ranked(terms);
    summary.textContent = hits.length + (hits.length === 1 ? " result" : " results") + " for \u201c" + query + "\u201d";
    list.innerHTML = hits.slice(0, 100).map(function (hit) { return resultItem(hit.entry, terms); }).join("");
  }

  /** The entries that hold every term, best first (ties in the index's order). */
  function ranked(terms) {
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var value = score(index[i], terms);
      if (value > 0) hits.push({ entry: index[i], value: value, order: i });
    }
    hits.sort(function (a, b) { return b.value - a.value || a.order - b.order; });
    return hits;
  }

  function resultItem(entry, terms) {
    return '<li><a href="' + escapeHtml(entry.u) + '">' + escapeHtml(entry.t) + "</a>" +
      '<span class="result-kind">' + escapeHtml(entry.k) + "</span><p>" + snippet(entry, terms) + "</p></li>";
  }
}
