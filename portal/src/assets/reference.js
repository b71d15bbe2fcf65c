/*
 * Starts Redoc on a reference page. The decorated OpenAPI document is embedded by a plain
 * script (window.PORTAL_REFERENCE = {openapi, downloads}) rather than fetched, so that the
 * page works from file://. The download buttons offer the generated documents as published.
 */
(function () {
  "use strict";
  var target = document.getElementById("redoc-container");
  var reference = window.PORTAL_REFERENCE;
  if (!window.Redoc || !reference || !target) {
    if (target) target.textContent = "The reference could not start: its scripts did not load.";
    return;
  }
  window.Redoc.init(
    reference.openapi,
    {
      downloadUrls: reference.downloads,
      scrollYOffset: ".portal-header",
      hideDownloadButton: false,
      expandResponses: "200,201",
      jsonSampleExpandLevel: 3,
      pathInMiddlePanel: true,
      sortPropsAlphabetically: false,
      theme: {
        typography: {
          fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
          headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
          code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace' }
        },
        colors: { primary: { main: "#0b5cad" } },
        sidebar: { width: "270px" }
      }
    },
    target,
    function (error) {
      document.documentElement.setAttribute("data-reference-ready", error ? "error" : "yes");
      if (error) console.error("Redoc failed to render the reference", error);
    }
  );
})();
