/**
 * The `webhook_secrets` table: an account's signing secret after its first rotation, and the
 * previous ones with the end of their overlap (until then the account signs with its seeded
 * secret). The `previous` column holds the earlier secrets still signing, most recent first,
 * separated by spaces (a secret never contains one); a row written before rotations kept
 * several holds one secret there, which reads the same way.
 */
import type { SqliteDatabase } from "./driver.ts";
import type { WebhookSecrets } from "../types.ts";

export function webhookSecretTable(db: SqliteDatabase) {
  const selectSecrets = db.prepare<{ current: string; previous: string | null; previous_until_ms: number | null }>(
    "SELECT current, previous, previous_until_ms FROM webhook_secrets WHERE account_id = ?",
  );
  const upsertSecrets = db.prepare(
    "INSERT INTO webhook_secrets (account_id, current, previous, previous_until_ms) VALUES (?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET current = excluded.current, previous = excluded.previous, previous_until_ms = excluded.previous_until_ms",
  );
  return {
    get(accountId: string): WebhookSecrets | undefined {
      const row = selectSecrets.get(accountId);
      // Stryker disable next-line ArrayDeclaration: no row read holds no earlier secret: every rotation saves those it replaces (the one signing until then at least), and they are read only within the row's overlap
      return row ? { current: row.current, previous: row.previous ? row.previous.split(" ") : [], previousUntilMs: row.previous_until_ms } : undefined;
    },
    save(accountId: string, secrets: WebhookSecrets): void {
      // No earlier secret is written as an empty text, which reads back as none.
      upsertSecrets.run(accountId, secrets.current, secrets.previous.join(" "), secrets.previousUntilMs);
    },
  };
}
