// Mutation testing of the sandbox against the conformance suites: `npm run mutation`.
// Every source of the sandbox that decides an answer or an event is mutated; the tests are the
// suites under `full`, unit by unit, each against a sandbox of its own in the test process
// (conformance/test/mutation/, run by mutation/suites-runner.mjs). A mutant no unit notices is a behaviour the suites never check.
// See mutation/README.md for what is left out and why, and for the triage of every survivor.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "conformance-suites",
  plugins: ["./mutation/suites-runner.mjs", "./mutation/ignorers.mjs"],
  ignorers: ["error-texts"],
  coverageAnalysis: "perTest",
  mutate: [
    "sandbox/src/**/*.ts",
    // The command-line wrapper and its Node flags: they start the sandbox, decide no answer.
    "!sandbox/src/cli.ts",
    "!sandbox/src/node-flags.ts",
    // The sandbox's life as a process (its data directory, its instance name, the contract it
    // loads, listening, the access log, closing): what it answers is decided elsewhere.
    "!sandbox/src/lifecycle.ts",
    // The harness starts sandboxes for tests and the main job; it is the test's own tooling.
    "!sandbox/src/harness/**",
    // The sandbox's own controls (/_sandbox/...: pay a charge, a PIX charge or a boleto, set a
    // transaction's status, move an account's clock, rotate a secret, the webhook endpoint):
    // fixtures no other server has, so no conformance suite can hold a server to them; the
    // sandbox's tests prove them (sandbox/test/webhook-controls.test.ts and the resources' tests).
    "!sandbox/src/resources/controls.ts",
    // The sandbox's own directory of PIX keys beyond the contract's example key: fixtures of the
    // same kind, no other server holds them (sandbox/test/pix-transactions.test.ts finds them).
    "!sandbox/src/domain/pix-directory.ts",
    // The sandbox's own accounts (their merchants, PIX keys, receivers) and how their keys' and
    // webhook secrets are derived from a seed: fixtures of the same kind, no other server holds
    // them, and the suites read the keys from the sandbox they start (sandbox/test/keys.test.ts
    // pins the documented default keys and their forms). Which key a request presents, its
    // family, account and scopes stay in keys.ts.
    "!sandbox/src/key-fixtures.ts",
    // What the sandbox writes on the boletos its control makes where the contract gives a member
    // no form (the debtor's name and address, the client code, the instructions, the bank
    // account): fixtures of the controls' kind (sandbox/test/boletos.test.ts reads them back).
    "!sandbox/src/resources/boleto-fixtures.ts",
    // The PostgreSQL store: its behaviour is proven by its own tests (sandbox/test/postgres/),
    // which hold it to the same store contract as the SQLite one.
    "!sandbox/src/store/postgres.ts",
    "!sandbox/src/store/postgres/**",
    // Which SQLite driver runs (better-sqlite3 or node:sqlite) and the adapter that gives
    // node:sqlite better-sqlite3's shape: no answer depends on it; sandbox/test/store.test.ts runs
    // the store on each driver, and CI's Node lines run the full profile on node:sqlite.
    "!sandbox/src/store/sqlite/driver.ts",
    // Which store a sandbox opens from its operator's --store (SQLite, on either driver, or
    // PostgreSQL): no answer depends on it; sandbox/test/store.test.ts opens each by its name and
    // refuses an unknown one.
    "!sandbox/src/store/open.ts",
    // The WAL checkpoints of the SQLite store in a worker thread, and the automatic checkpoints it
    // falls back to: when committed pages reach the database file, which no answer depends on
    // (a COMMIT has written the WAL before the answer either way); sandbox/test/store.test.ts
    // proves the checkpoints, the fallback and closing with the worker alive or dead.
    "!sandbox/src/store/checkpointer.ts",
    // The SQLite file: its tables, the connection's settings (synchronous by durability: a power
    // loss; the journal's size, the caches: speed) and the schema versions with the migration of a
    // file an earlier sandbox wrote. A change there either changes no answer a running sandbox
    // gives, or shows only on restarting on an old or newer data directory (which no conformance
    // run does: a target is a running server), or keeps the store from opening at all (no
    // tables: the sandbox does not start). sandbox/test/store.test.ts opens a file of each
    // earlier version with what it holds and refuses a newer one, and checks the settings;
    // durability.test.ts restarts on a data directory and kills the process mid-load.
    "!sandbox/src/store/sqlite/schema.ts",
    // The store's interface (types only) and the error of a store that cannot be reached: only the
    // PostgreSQL store raises it while its database is down; sandbox/test/postgres/outage.test.ts
    // proves the 503 with Retry-After.
    "!sandbox/src/store/types.ts",
    // The answer to a request the pipeline failed on: the 503 with Retry-After of a store that
    // cannot be reached (only the PostgreSQL store, sandbox/test/postgres/outage.test.ts) and the
    // 500 of a bug (the sandbox's tests assert no request gets one): no request reaches it on the
    // SQLite store the suites run against. sandbox/test/failure.test.ts proves both answers.
    "!sandbox/src/http/failure.ts",
  ],
  // Four runners on two cores: a unit spends most of its time waiting (on loopback, a rate-limit
  // window, a webhook attempt, a hung request's timeout): with two, the cores stood idle more
  // than half of a whole run (load average 0.5, 2026-12-03). CI's sample runs one (run.ts).
  concurrency: 4,
  // A unit's time swings with the machine's load; a mutant that hangs a request fails within the
  // suites' own 10-second request timeout, and a loop it spins is stopped by Stryker's hit limit,
  // so a generous timeout costs little and keeps a slow moment from counting as a kill.
  timeoutFactor: 3,
  timeoutMS: 20_000,
  // A mutant may leave a sandbox that never stops (a server, timers): a fresh process now and then.
  maxTestRunnerReuse: 100,
  reporters: ["html", "json", "clear-text", "progress"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
