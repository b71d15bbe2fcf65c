/**
 * Broken servers for the family A statements (and those of both families) no other broken
 * server breaks: each breaks exactly one statement of the catalogue, or one clause of it, read
 * the way a careless or hostile implementation would (what it forbids, what must hold across
 * requests, who may read or change what). Same proxy as mutants.ts.
 */
import type { Mutation } from "./mutants.ts";

export const STATEMENT_MUTATIONS_A: Mutation[] = [];
