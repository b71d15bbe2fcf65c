/**
 * Node options of a sandbox process (`npm run sandbox` passes the same ones; the benchmark
 * spawns the sandbox with these).
 *
 * `--max-semi-space-size=32`: V8's young generation may grow to 32 MiB per semi-space instead
 * of 16. Every request allocates a few kilobytes that die with it (the parsed body, the
 * record, its JSON, the response); with twice the room, scavenges run half as often and
 * fewer of those objects survive long enough to be copied. In alternating runs of
 * `POST /v1/charges` under load this cut the event loop's CPU per request by about 15% and
 * raised throughput accordingly, for about 50 MiB more memory at most.
 */
export const SANDBOX_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=32"];
