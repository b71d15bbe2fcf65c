/**
 * Family B response checks: for every documented response of every operation, the request
 * that makes a real server answer it. The first check of a response runs as its Dredd
 * transaction, the others as probes. One module per resource; the suite keeps this order.
 */
import type { ResponseCheck } from "../response-check.ts";
import { BOLETO_CHECKS } from "./boletos.ts";
import { CUSTOMER_CHECKS } from "./customers.ts";
import { HEALTH_CHECKS } from "./health.ts";
import { PIX_CHECKS } from "./pix.ts";
import { TRANSACTION_CHECKS } from "./transactions.ts";

export const FAMILY_B_CHECKS: ResponseCheck[] = [...HEALTH_CHECKS, ...CUSTOMER_CHECKS, ...BOLETO_CHECKS, ...PIX_CHECKS, ...TRANSACTION_CHECKS];
