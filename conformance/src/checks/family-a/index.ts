/**
 * Family A response checks: for every documented response of every operation, the request
 * that makes a real server answer it. The first check of a response runs as its Dredd
 * transaction, the others as probes. One module per resource; the suite keeps this order.
 */
import type { ResponseCheck } from "../response-check.ts";
import { CHARGE_CHECKS } from "./charges.ts";
import { MERCHANT_CHECKS } from "./merchant.ts";
import { withStableCode } from "./support.ts";

export const FAMILY_A_CHECKS: ResponseCheck[] = [...CHARGE_CHECKS, ...MERCHANT_CHECKS].map(withStableCode);
