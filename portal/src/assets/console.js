/*
 * The console of a reference page: try an operation against a server from the page.
 *
 * The reader picks a server (the local sandbox by default, or any URL) and gives an API key.
 * The key lives in this page's memory only: never in a URL, and in sessionStorage only when
 * the reader ticks "remember for this tab". Parameters and body start from the contract's
 * examples. The request goes out with fetch, to the chosen server and nowhere else; the
 * response is shown with the equivalent curl (the key as $API_KEY) and checked against the
 * contract in the browser (window.PortalContractCheck, the conformance suites' validation
 * bundled), each problem naming the statement or decision it breaks.
 *
 * The panel takes its share of the page's width (portal.css): the reference keeps the rest, laid
 * out for it, and stays on the operation the reader was on; the Console button is in the header.
 *
 * Data: window.PORTAL_CONSOLE (this service's operations, written by the build),
 * window.PORTAL_CONSOLE_CONFIG (the local sandbox's address; `payment-collection portal`
 * serves one naming the sandbox it started).
 */
"use strict";
// Everything of the console stays inside this block (in strict mode a block scopes its
// functions too): nothing is added to the page's globals.
{
  const data = window.PORTAL_CONSOLE;
  const config = window.PORTAL_CONSOLE_CONFIG || {};
  const REMEMBER_PREFIX = "payment-collection-console-key:";
  /** What the reader chose: the key (never in a URL), the operation, and whether a request is on its way. */
  const state = { key: "", operation: null, busy: false };
  let rememberSlot, fromFile, sandboxUrl;
  // The panel's elements, made once by createFields() and placed by assemblePanel().
  let panel, title, closeButton, operationSelect, serverSelect, serverInput, keyInput, rememberBox, paramsBox, bodyArea, bodyBlock;
  let sendButton, curlBlock, outcome, responseBlock, note, answerHeading, toggle, header;

  if (data && data.operations && data.operations.length > 0) start();

  function start() {
    rememberSlot = REMEMBER_PREFIX + data.service;
    fromFile = window.location.protocol === "file:";
    sandboxUrl = config.sandbox || "http://127.0.0.1:4010";
    state.key = rememberedKey();
    createFields();
    assemblePanel();
    placeToggle();
    wire();
    renderOperation(data.operations[0]);
    chooseServer();
    whenReferenceReady();
  }

  /** The key this tab remembered, if the reader asked it to. */
  function rememberedKey() {
    try {
      return window.sessionStorage.getItem(rememberSlot) || "";
    } catch (error) {
      /* storage refused (privacy settings): the key simply is not remembered */
      return "";
    }
  }

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      if (name === "text") node.textContent = attributes[name];
      else if (name === "className") node.className = attributes[name];
      else node.setAttribute(name, attributes[name]);
    });
    (children || []).forEach(function (child) {
      if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function operationById(id) {
    for (var i = 0; i < data.operations.length; i++) if (data.operations[i].operationId === id) return data.operations[i];
    return null;
  }

  function exampleText(value) {
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  function freshUuid() {
    return window.crypto && window.crypto.randomUUID ? window.crypto.randomUUID() : String(Date.now());
  }

  function sandboxKeyFor(service) {
    return config.sandboxKeys && config.sandboxKeys[service] ? config.sandboxKeys[service] : "";
  }

  // ---- the panel -------------------------------------------------------------------------
  function createFields() {
    panel = el("aside", { id: "portal-console", className: "console-panel", "aria-label": "Console", hidden: "" });
    title = el("h2", { className: "console-title", text: "Console" });
    closeButton = el("button", { type: "button", className: "console-close", "aria-label": "Close the console", text: "×" });
    operationSelect = el("select", { id: "console-operation", "aria-label": "Operation" });
    data.operations.forEach(function (operation) {
      operationSelect.appendChild(el("option", { value: operation.operationId, text: operation.method + " " + operation.path + " · " + operation.summary }));
    });
    serverSelect = el("select", { id: "console-server", "aria-label": "Server" }, [
      el("option", { value: "sandbox", text: "Local sandbox (" + sandboxUrl + ")" }),
      el("option", { value: "other", text: "Another server…" }),
    ]);
    serverInput = el("input", { id: "console-server-url", type: "url", placeholder: "https://sandbox.example.com", "aria-label": "Server URL", hidden: "" });
    keyInput = el("input", { id: "console-key", type: "password", autocomplete: "off", spellcheck: "false", "aria-label": "API key" });
    rememberBox = el("input", { id: "console-remember", type: "checkbox" });
    paramsBox = el("div", { className: "console-params" });
    bodyArea = el("textarea", { id: "console-body", rows: "8", spellcheck: "false", "aria-label": "Request body (JSON)" });
    bodyBlock = el("div", { className: "console-field" }, [el("label", { for: "console-body", text: "Body (JSON)" }), bodyArea]);
    sendButton = el("button", { type: "button", id: "console-send", className: "console-send", text: "Send" });
    curlBlock = el("pre", { id: "console-curl", className: "console-code" });
    outcome = el("div", { id: "console-outcome", className: "console-outcome", role: "status", "aria-live": "polite" });
    responseBlock = el("pre", { id: "console-response", className: "console-code" });
    note = el("p", { id: "console-note", className: "console-note" });
  }

  function assemblePanel() {
    keyInput.value = state.key;
    rememberBox.checked = state.key !== "";
    panel.appendChild(el("div", { className: "console-head" }, [title, closeButton]));
    if (fromFile) {
      note.textContent =
        "The console cannot send requests from a page opened as a file (file://): browsers give such a page no origin a server could grant. Serve the portal over http://localhost instead: `npx payment-collection portal` serves it next to a sandbox.";
      panel.appendChild(note);
    }
    panel.appendChild(el("div", { className: "console-field" }, [el("label", { for: "console-operation", text: "Operation" }), operationSelect]));
    panel.appendChild(el("div", { className: "console-field" }, [el("label", { for: "console-server", text: "Server" }), serverSelect, serverInput]));
    panel.appendChild(
      el("div", { className: "console-field" }, [
        el("label", { for: "console-key", text: "API key (kept in this page's memory only)" }),
        keyInput,
        el("label", { className: "console-remember", for: "console-remember" }, [rememberBox, " remember for this tab (sessionStorage)"]),
      ]),
    );
    panel.appendChild(paramsBox);
    panel.appendChild(bodyBlock);
    panel.appendChild(sendButton);
    panel.appendChild(el("h3", { text: "curl" }));
    panel.appendChild(curlBlock);
    answerHeading = el("h3", { id: "console-answer", text: "Response" });
    panel.appendChild(answerHeading);
    panel.appendChild(outcome);
    panel.appendChild(responseBlock);
    document.body.appendChild(panel);
    if (fromFile) sendButton.disabled = true;
  }

  function placeToggle() {
    // In the header bar, not floating over the reference: it never covers what Redoc draws.
    toggle = el("button", { type: "button", id: "console-toggle", className: "console-toggle", text: "Console", "aria-controls": "portal-console", "aria-expanded": "false" });
    header = document.querySelector(".portal-header");
    (header || document.body).appendChild(toggle);
  }

  // ---- filling the request -----------------------------------------------------------------
  function renderOperation(operation) {
    state.operation = operation;
    operationSelect.value = operation.operationId;
    paramsBox.textContent = "";
    operation.parameters.forEach(function (parameter, index) {
      var id = "console-param-" + index;
      var value = parameter.format === "uuid" ? freshUuid() : exampleText(parameter.example);
      var input = el("input", { id: id, type: "text", "data-name": parameter.name, "data-in": parameter.in, spellcheck: "false" });
      input.value = value;
      var label = parameter.name + " (" + parameter.in + (parameter.required ? ", required" : "") + ")";
      paramsBox.appendChild(el("div", { className: "console-field" }, [el("label", { for: id, text: label }), input]));
    });
    bodyBlock.hidden = !operation.body;
    bodyArea.value = operation.body && operation.body.example !== undefined ? JSON.stringify(operation.body.example, null, 2) : "";
    outcome.textContent = "";
    outcome.className = "console-outcome";
    responseBlock.textContent = "";
    updateCurl();
  }

  function serverBase() {
    var base = serverSelect.value === "sandbox" ? sandboxUrl : serverInput.value.trim();
    return base.replace(/\/+$/, "");
  }

  /** The request as the form describes it; the key only as a header. */
  function buildRequest() {
    var operation = state.operation;
    var path = operation.path;
    var query = [];
    var headers = {};
    var inputs = paramsBox.querySelectorAll("input");
    for (var i = 0; i < inputs.length; i++) {
      var input = inputs[i];
      var name = input.getAttribute("data-name");
      var where = input.getAttribute("data-in");
      var value = input.value;
      if (where === "path") path = path.split("{" + name + "}").join(encodeURIComponent(value));
      else if (value === "") continue;
      else if (where === "query") query.push(encodeURIComponent(name) + "=" + encodeURIComponent(value));
      else if (where === "header") headers[name] = value;
    }
    var body;
    if (operation.body && bodyArea.value.trim() !== "") {
      body = bodyArea.value;
      headers["Content-Type"] = operation.body.mediaType;
    }
    return { method: operation.method, url: serverBase() + path + (query.length ? "?" + query.join("&") : ""), headers: headers, body: body };
  }

  function shellQuote(text) {
    return "'" + String(text).split("'").join("'\\''") + "'";
  }

  function updateCurl() {
    if (!state.operation) return;
    var request = buildRequest();
    var lines = ["curl -X " + request.method + " " + shellQuote(request.url)];
    if (state.operation.keyHeader) lines.push('  -H "' + state.operation.keyHeader + ': $API_KEY"');
    Object.keys(request.headers).forEach(function (name) {
      lines.push("  -H " + shellQuote(name + ": " + request.headers[name]));
    });
    if (request.body !== undefined) lines.push("  --data " + shellQuote(request.body));
    curlBlock.textContent = lines.join(" \\\n");
  }

  // ---- sending and checking --------------------------------------------------------------------
  function idLink(kind, id) {
    var href = kind === "decision" ? "decisions.html#" + ((data.decisionAnchors || {})[id] || id.toLowerCase()) : "statements.html#" + id;
    return el("a", { href: href, className: "console-id console-id-" + kind, text: id });
  }

  function showCheck(check) {
    outcome.textContent = "";
    if (check.problems.length === 0) {
      outcome.className = "console-outcome console-conforms";
      outcome.appendChild(el("strong", { text: "✓ conforms to the contract" }));
      outcome.appendChild(document.createTextNode(" (documented response " + check.documented + ")"));
      return;
    }
    outcome.className = "console-outcome console-violates";
    outcome.appendChild(el("strong", { text: "✗ does not conform to the contract: " + check.problems.length + " problem" + (check.problems.length === 1 ? "" : "s") }));
    var list = el("ul", { className: "console-problems" });
    check.problems.forEach(function (problem) {
      var item = el("li", { className: "console-problem" }, [el("code", { text: problem.text })]);
      var ids = el("span", { className: "console-problem-ids" }, [problem.kind === "decision" ? " breaks decision " : " breaks statement "]);
      problem.ids.forEach(function (id, index) {
        if (index > 0) ids.appendChild(document.createTextNode(", "));
        ids.appendChild(idLink(problem.kind, id));
      });
      item.appendChild(ids);
      list.appendChild(item);
    });
    outcome.appendChild(list);
  }

  /** The answer at the top of the panel once it has come: below the form and the curl, it was out of sight. */
  function revealAnswer() {
    panel.scrollTop = answerHeading.offsetTop - 8;
  }

  function send() {
    if (state.busy || !state.operation || fromFile) return;
    var operation = state.operation;
    var request = buildRequest();
    if (!/^https?:\/\//.test(request.url)) {
      outcome.className = "console-outcome console-violates";
      outcome.textContent = "Give the server's URL (http:// or https://).";
      revealAnswer();
      return;
    }
    var headers = {};
    Object.keys(request.headers).forEach(function (name) {
      headers[name] = request.headers[name];
    });
    if (operation.keyHeader && keyInput.value !== "") headers[operation.keyHeader] = keyInput.value;
    state.busy = true;
    sendButton.disabled = true;
    outcome.className = "console-outcome";
    outcome.textContent = "Sending…";
    responseBlock.textContent = "";
    // credentials: "omit": the key travels in its header only, never with cookies.
    fetch(request.url, { method: request.method, headers: headers, body: request.body, credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer" })
      .then(function (response) {
        return response.text().then(function (text) {
          var seen = {};
          response.headers.forEach(function (value, name) {
            seen[name] = value;
          });
          var shownBody = text;
          try {
            shownBody = JSON.stringify(JSON.parse(text), null, 2);
          } catch (error) {
            /* not JSON: shown as it came */
          }
          var headerLines = Object.keys(seen).sort().map(function (name) {
            return name + ": " + seen[name];
          });
          responseBlock.textContent = "HTTP " + response.status + "\n" + headerLines.join("\n") + "\n\n" + shownBody;
          if (!window.PortalContractCheck) {
            outcome.className = "console-outcome console-violates";
            outcome.textContent = "The contract check did not load (assets/contract-check.js).";
            return;
          }
          showCheck(window.PortalContractCheck.checkResponse(operation, { status: response.status, headers: seen, body: text }));
        });
      })
      .catch(function () {
        outcome.className = "console-outcome console-violates";
        outcome.textContent =
          "No answer from " + serverBase() + ": the server is not running, or it does not grant this page's origin (" + window.location.origin +
          ") cross-origin access. The project's sandbox grants it when started with --cors-origin " + window.location.origin + " (decision D44), or by `payment-collection portal`.";
      })
      .then(function () {
        state.busy = false;
        sendButton.disabled = false;
        revealAnswer();
      });
  }

  // ---- the reference beside the panel --------------------------------------------------------
  // Opening or closing the panel changes the reference's width, so its text reflows and the
  // page's height changes: the reader is put back on the operation they were on, so that the
  // page and the sidebar Redoc highlights stay on it.
  function headerBottom() {
    return header ? header.getBoundingClientRect().bottom : 0;
  }

  /** The operation's section as Redoc knows it: the row's parent, whose id is the menu item's. */
  function sectionOf(operationId) {
    var row = document.getElementById("operation/" + operationId);
    return row ? row.parentNode : null;
  }

  /** The section at the top of the reference, and how far below the header it starts. */
  function sectionInView() {
    var rows = document.querySelectorAll('.api-content [id^="operation/"]');
    var top = headerBottom();
    for (var i = 0; i < rows.length; i++) {
      var box = rows[i].parentNode.getBoundingClientRect();
      if (box.bottom > top) return { section: rows[i].parentNode, offset: box.top - top };
    }
    return null;
  }

  /** Back to the same place in a section after the reference reflowed. */
  function putBack(place) {
    if (place) window.scrollTo(0, window.scrollY + place.section.getBoundingClientRect().top - headerBottom() - place.offset);
  }

  /**
   * Redoc's own way to an operation: its id in the URL's fragment, then the event Redoc follows
   * (sent also when the fragment is already the operation's). Redoc scrolls to the section and
   * highlights its item in the sidebar.
   */
  function goTo(section) {
    var fragment = "#" + encodeURI(section.id);
    if (window.location.hash !== fragment) window.history.replaceState(window.history.state, "", fragment);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  }

  function setOpen(opened) {
    panel.hidden = !opened;
    toggle.setAttribute("aria-expanded", opened ? "true" : "false");
    document.documentElement.classList.toggle("console-open", opened);
  }

  // ---- wiring ------------------------------------------------------------------------------------
  /** Opens the panel on an operation; from its "Try it" button, the reference goes to that operation. */
  function open(operationId, fromTry) {
    var operation = operationById(operationId) || state.operation || data.operations[0];
    if (operation !== state.operation) renderOperation(operation);
    var place = sectionInView();
    if (panel.hidden) setOpen(true);
    var section = fromTry ? sectionOf(operation.operationId) : null;
    if (section) goTo(section);
    else putBack(place);
  }

  function setKey() {
    state.key = keyInput.value;
    try {
      if (rememberBox.checked && state.key !== "") window.sessionStorage.setItem(rememberSlot, state.key);
      else window.sessionStorage.removeItem(rememberSlot);
    } catch (error) {
      /* storage refused: nothing remembered */
    }
  }

  function chooseServer() {
    serverInput.hidden = serverSelect.value !== "other";
    if (serverSelect.value === "sandbox" && keyInput.value === "" && sandboxKeyFor(data.service)) {
      keyInput.value = sandboxKeyFor(data.service);
      setKey();
    }
    updateCurl();
  }

  function wire() {
    operationSelect.addEventListener("change", function () {
      renderOperation(operationById(operationSelect.value));
    });
    serverSelect.addEventListener("change", chooseServer);
    serverInput.addEventListener("input", updateCurl);
    keyInput.addEventListener("input", setKey);
    rememberBox.addEventListener("change", setKey);
    paramsBox.addEventListener("input", updateCurl);
    bodyArea.addEventListener("input", updateCurl);
    sendButton.addEventListener("click", send);
    closeButton.addEventListener("click", function () {
      var place = sectionInView();
      setOpen(false);
      putBack(place);
    });
    toggle.addEventListener("click", function () {
      var match = /operation\/([^/]+)$/.exec(window.location.hash);
      if (panel.hidden) open(match ? decodeURIComponent(match[1]) : null);
      else closeButton.click();
    });
  }

  /** A "Try it" button on every operation Redoc rendered. */
  function addTryButtons() {
    data.operations.forEach(function (operation) {
      var section = document.getElementById("operation/" + operation.operationId);
      if (!section || section.querySelector(".console-try")) return;
      var heading = section.querySelector("h2");
      if (!heading) return;
      var button = el("button", { type: "button", className: "console-try", "data-operation": operation.operationId, text: "Try it in the console" });
      button.addEventListener("click", function () {
        open(operation.operationId, true);
      });
      heading.parentNode.insertBefore(button, heading.nextSibling);
    });
  }
  /** The buttons push every operation down a little: an operation the URL names is gone to again. */
  function whenReady() {
    addTryButtons();
    var named = /operation\/([^/]+)$/.exec(decodeURIComponent(window.location.hash));
    var section = named && sectionOf(named[1]);
    if (section) goTo(section);
    document.documentElement.setAttribute("data-console-ready", "yes");
  }

  /** Once Redoc has rendered the reference (it marks the page), the "Try it" buttons go in. */
  function whenReferenceReady() {
    var ready = new MutationObserver(function () {
      if (document.documentElement.getAttribute("data-reference-ready") === "yes") whenReady();
    });
    ready.observe(document.documentElement, { attributes: true, attributeFilter: ["data-reference-ready"] });
    if (document.documentElement.getAttribute("data-reference-ready") === "yes") whenReady();
  }
}
