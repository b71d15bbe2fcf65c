/**
 * Imported by http-client.ts before the undici package. Node's own fetch and the undici package
 * share one slot for their default dispatcher: whichever loads first fills it. The package, loaded
 * first, gives Node's fetch its own Agent, which refuses a Content-Length the caller set
 * ("invalid content-length header" on Node 20), in any code of the process: a user's test that
 * runs the suites beside its own fetch calls. Reading `Headers` loads Node's fetch, which fills
 * the slot with its own dispatcher; the suites' client has an Agent of its own.
 */
void globalThis.Headers;
