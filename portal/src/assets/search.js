/*
 * Client-side search of the docs portal (search.html). The index is a plain script
 * (search-index.js sets window.PORTAL_SEARCH_INDEX) so that it also loads from file://,
 * where fetch() of a local JSON file is refused by browsers.
 *
 * Entry shape: { t: title, u: url, k: kind label, x: searchable text }.
 * Every term of the query must occur (case-insensitive) in the title or the text; titles
 * and whole-word hits rank first.
 */
(function () {
  "use strict";
  var index = window.PORTAL_SEARCH_INDEX || [];
  var input = document.getElementById("search-query");
  var list = document.getElementById("search-results");
  var summary = document.getElementById("search-summary");
  if (!input || !list || !summary) return;

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
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var value = score(index[i], terms);
      if (value > 0) hits.push({ entry: index[i], value: value, order: i });
    }
    hits.sort(function (a, b) { return b.value - a.value || a.order - b.order; });
    summary.textContent = hits.length + (hits.length === 1 ? " result" : " results") + " for \u201c" + query + "\u201d";
    var html = "";
    for (var j = 0; j < hits.length && j < 100; j++) {
      var entry = hits[j].entry;
      html += '<li><a href="' + escapeHtml(entry.u) + '">' + escapeHtml(entry.t) + "</a>" +
        '<span class="result-kind">' + escapeHtml(entry.k) + "</span><p>" + snippet(entry, terms) + "</p></li>";
    }
    list.innerHTML = html;
  }

  var initial = new URLSearchParams(window.location.search).get("q") || "";
  input.value = initial;
  run(initial);
  input.addEventListener("input", function () {
    run(input.value);
    var url = new URL(window.location.href);
    url.searchParams.set("q", input.value);
    if (window.location.protocol !== "file:") window.history.replaceState(null, "", url.toString());
  });
})();
