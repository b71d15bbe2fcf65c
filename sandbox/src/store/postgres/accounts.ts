/** Accounts on the PostgreSQL store: their clocks (shared by every instance) and webhook secrets. */
import type { SandboxStore, WebhookSecrets } from "../types.ts";
import type { PooledQuery } from "./pool.ts";

export function accountQueries(q: PooledQuery): Pick<SandboxStore, "clockOffset" | "advanceClock" | "webhookSecrets" | "saveWebhookSecrets"> {
  return {
    async clockOffset(accountId) {
      const { rows } = await q<{ offset_ms: number }>("SELECT offset_ms FROM account_clocks WHERE account_id = $1", [accountId]);
      const offset = rows[0]?.offset_ms ?? 0;
      return Number.isSafeInteger(offset) && !Number.isNaN(new Date(Date.now() + offset).getTime()) ? offset : 0;
    },

    async advanceClock(accountId, ms, maxOffsetMs = Number.MAX_SAFE_INTEGER) {
      if (!Number.isSafeInteger(ms) || ms < 0) return null;
      // One statement: concurrent advances from several instances add up, and none passes the maximum.
      // The account's pending webhook events come `ms` earlier in the same statement: the retry schedule runs on its clock.
      const { rows } = await q<{ offset_ms: number }>(
        `WITH moved AS (
           INSERT INTO account_clocks AS c (account_id, offset_ms) SELECT $1, $2::bigint WHERE $2::bigint <= $3::bigint
           ON CONFLICT (account_id) DO UPDATE SET offset_ms = c.offset_ms + excluded.offset_ms WHERE c.offset_ms + excluded.offset_ms <= $3::bigint
           RETURNING offset_ms
         ), due AS (
           UPDATE webhook_outbox SET next_attempt_ms = next_attempt_ms - $2::bigint
           WHERE account_id = $1 AND state = 'pending' AND EXISTS (SELECT 1 FROM moved)
         ) SELECT offset_ms FROM moved`,
        [accountId, ms, Math.min(maxOffsetMs, Number.MAX_SAFE_INTEGER)],
      );
      return rows[0]?.offset_ms ?? null;
    },

    async webhookSecrets(accountId): Promise<WebhookSecrets | undefined> {
      const { rows } = await q<{ current: string; previous: string | null; previous_until_ms: number | null }>(
        "SELECT current, previous, previous_until_ms FROM webhook_secrets WHERE account_id = $1",
        [accountId],
      );
      const row = rows[0];
      return row ? { current: row.current, previous: row.previous ? row.previous.split(" ") : [], previousUntilMs: row.previous_until_ms } : undefined;
    },

    async saveWebhookSecrets(accountId, secrets) {
      await q(
        `INSERT INTO webhook_secrets (account_id, current, previous, previous_until_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id) DO UPDATE SET current = excluded.current, previous = excluded.previous, previous_until_ms = excluded.previous_until_ms`,
        [accountId, secrets.current, secrets.previous.length > 0 ? secrets.previous.join(" ") : null, secrets.previousUntilMs],
      );
    },
  };
}
