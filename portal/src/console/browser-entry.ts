/** The browser bundle's entry: the console's contract check as `window.PortalContractCheck`. */
import { checkResponse } from "./contract-check.ts";

(globalThis as { PortalContractCheck?: unknown }).PortalContractCheck = { checkResponse };
