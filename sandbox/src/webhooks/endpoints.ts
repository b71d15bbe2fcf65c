/**
 * The account webhook endpoint, where family B events (`boleto.paid`, `boleto.canceled`) go.
 * It is set through a sandbox control and kept in the store as a record of kind
 * `webhook_endpoint` (one per account), read from the store at each event (one indexed read;
 * on a shared store every instance sees the last write).
 */
import type { SandboxStore, StoredRecord } from "../store/types.ts";

/** Id of the one `webhook_endpoint` record of an account. */
// Stryker disable next-line StringLiteral: the id of the account's one endpoint record: any fixed id serves
const ENDPOINT_RECORD_ID = "account";

export interface EndpointRegistry {
  /** The account's webhook endpoint, or null. */
  get(accountId: string): Promise<string | null>;
  /** Replaces (or first creates) the account's endpoint record. Not serialised: the caller runs writes one at a time. */
  set(accountId: string, url: string | null): Promise<void>;
}

export function createEndpointRegistry(store: SandboxStore, accountNowMs: (accountId: string) => Promise<number>): EndpointRegistry {
  return {
    async get(accountId) {
      const record = await store.get("webhook_endpoint", accountId, ENDPOINT_RECORD_ID);
      return (record?.data.url as string | null | undefined) ?? null;
    },
    async set(accountId, url) {
      const replace = () => store.update("webhook_endpoint", accountId, ENDPOINT_RECORD_ID, (current) => ({ next: { ...current, data: { url } }, result: null }));
      if ((await replace()).found) return;
      const record: StoredRecord = {
        kind: "webhook_endpoint",
        accountId,
        id: ENDPOINT_RECORD_ID,
        // Stryker disable next-line StringLiteral: no operation selects the endpoint record by its status
        status: "set",
        customerId: null,
        createdMs: await accountNowMs(accountId),
        data: { url },
      };
      // Another instance may have created it meanwhile (a shared store): then that one is replaced.
      // Stryker disable next-line all: two instances setting an account's first endpoint at once, only on a shared store (PostgreSQL, outside the mutation run's scope)
      await store.create({ record }).catch(async (error: unknown) => { if (!(await replace()).found) throw error; });
    },
  };
}
