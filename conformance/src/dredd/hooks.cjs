// Dredd hook file of the conformance suites. Dredd loads it with `require('hooks')` in the
// process that runs the suite (src/dredd/run-dredd.ts); the hooks themselves are
// written in TypeScript next to the checks and registered here under the suite id that the
// runner passes in Dredd's configuration (`custom.conformanceSuite`).
const hooks = require('hooks');

const registry = globalThis[Symbol.for('payment-collection.conformance.dredd-suites')];
const suiteId = hooks.configuration && hooks.configuration.custom && hooks.configuration.custom.conformanceSuite;
const install = registry && registry.get(suiteId);
if (!install) {
  throw new Error(
    `conformance hooks: no suite "${suiteId}" registered; run the suites with \`npm run conformance\`, not with the dredd CLI`,
  );
}
install(hooks);
