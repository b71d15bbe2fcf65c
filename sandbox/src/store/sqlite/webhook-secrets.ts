/**
 * The `webhook_secrets` table: an account's signing secret after its first rotation, and the
 * previous one with the end of its overlap (until then the account signs with its seeded secret).
 */
import type Database from "better-sqlite3";
import type { WebhookSecrets } from "../types.ts";

export function webhookSecretTable(db: Database) {
  const selectSecrets = db.prepare<{ current: string; previous: string | null; previous_until_ms: number | null }>(
    "SELECT current, previous, previous_until_ms FROM webhook_secrets WHERE account_id = ?",
  );
  const upsertSecrets = db.prepare(
    "INSERT INTO webhook_secrets (account_id, current, previous, previous_until_ms) VALUES (?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET current = excluded.current, previous = excluded.previous, previous_until_ms = excluded.previous_until_ms",
  );
  return {
    get(accountId: string): WebhookSecrets | undefined {
      const row = selectSecrets.get(accountId);
      return row ? { current: row.current, previous: row.previous, previousUntilMs: row.previous_until_ms } : undefined;
    },
    save(accountId: string, secrets: WebhookSecrets): void {
      upsertSecrets.run(accountId, secrets.current, secrets.previous, secrets.previousUntilMs);
    },
  };
}
