/** Records which operations a client called, to prove every operation was exercised. */
import type { Middleware } from "openapi-fetch";

export function operationRecorder(): { middleware: Middleware; called: Set<string> } {
  const called = new Set<string>();
  return {
    called,
    middleware: {
      onRequest({ request, schemaPath }) {
        called.add(`${request.method} ${schemaPath}`);
      },
    },
  };
}
