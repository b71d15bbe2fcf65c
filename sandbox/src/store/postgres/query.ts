/** Runs one constant query text with values, as a named prepared statement on any pooled connection. */
export type Query = <R extends Record<string, unknown>>(text: string, values?: unknown[]) => Promise<{ rows: R[] }>;
