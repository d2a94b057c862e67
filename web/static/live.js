// Follows the log: when the campaign's head moves, the page fetches itself
// again and swaps its content in, without reloading. The server says when
// (server-sent events, keyed by seq, so a reconnect misses nothing).
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="ltscamp-live"]');
  if (!meta || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { mode: "same-origin", credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        ["header", "main", "footer"].forEach(function (tag) {
          var fresh = doc.querySelector(tag), old = document.querySelector(tag);
          if (fresh && old) old.replaceWith(fresh);
        });
        document.title = doc.title;
      })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  var es = new EventSource(meta.getAttribute("content"));
  es.addEventListener("head", refresh);
})();
