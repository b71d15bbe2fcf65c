/**
 * Which URLs may receive webhooks. Targets on loopback, private, link-local, reserved,
 * documentation (TEST-NET), NAT64, 6to4 and other non-public addresses are refused (server-side
 * request forgery) unless private targets are allowed, which tests and local development need:
 * literal addresses and `localhost` names already when the URL is accepted (a charge's
 * `webhook_url`, the account's endpoint), names resolving to such addresses at each attempt.
 * Only http and https, no credentials, at most 2048 characters (decision D01).
 *
 * The ranges come from `ipaddr.js` (its IANA special-purpose registries): an address is public
 * only when its range is `unicast`. IPv4-mapped IPv6 addresses are judged as the IPv4 address.
 *
 * A name is resolved once per attempt (`resolveTarget`) and delivery connects to the address
 * that was checked, so a name cannot resolve to a public address for the check and to a private
 * one for the connection (DNS rebinding).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** What a refusal of a private target tells the person who runs the sandbox on one machine with the receiver. */
// Stryker disable next-line StringLiteral: the refusal's explanation (the 400's details text), which no contract element states
export const ALLOW_PRIVATE_HINT = "refused unless the sandbox runs with --allow-private-webhooks (SANDBOX_ALLOW_PRIVATE_WEBHOOKS=1)";

/** Longest webhook URL accepted (decision D01). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** How many webhook URLs keep their checked shape (urlProblem) before the memo starts over. */
const CHECKED_URLS_KEPT = 1_000;

/**
 * Resolves a host name to its addresses (default: the system resolver, `dns.lookup`), at least
 * one, or throws (`ENOTFOUND`, `EAI_AGAIN`) when the name does not resolve now.
 */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Whether an address (IPv4 or IPv6, no brackets) is outside the public unicast space. Every
 * caller passes an address: a URL's host `isIP` accepted, or a resolver's answer; were one not
 * to parse, ipaddr.js throws, and the attempt fails without connecting anywhere.
 */
export function isNonPublic(address: string): boolean {
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv6") {
    // IPv4-compatible addresses (::/96, deprecated by RFC 4291), e.g. `::127.0.0.1`: ipaddr.js calls them unicast.
    const parts = (parsed as ipaddr.IPv6).parts;
    if (parts.slice(0, 6).every((p) => p === 0)) return true;
  }
  return parsed.range() !== "unicast";
}

/** `localhost`, `*.localhost`, with or without the root's trailing dot, any case. */
function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/** Why a URL is not an acceptable target, without resolving names. */
function urlShapeProblem(url: string, allowPrivate: boolean): { problem: string } | { parsed: URL; host: string } {
  // Stryker disable next-line ObjectLiteral,StringLiteral: unreachable, D01's maxLength on webhook_url refuses a longer URL before the guard (request validation)
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return { problem: `longer than ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: "not a URL" };
  }
  // Stryker disable next-line ObjectLiteral,StringLiteral: unreachable, D01's pattern `^https?://` on webhook_url refuses another scheme before the guard (request validation, case-sensitive: WHATWG URL keeps the scheme the pattern read)
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return { problem: `scheme ${parsed.protocol} is not http or https` };
  if (parsed.username || parsed.password) return { problem: "credentials in the URL are not accepted" };
  // Stryker disable next-line Regex: a WHATWG URL's hostname holds brackets only around an IPv6 address, as its first and last characters: every variant strips the same
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate) {
    if (isIP(host) && isNonPublic(host)) return { problem: `${host} is a non-public address: ${ALLOW_PRIVATE_HINT}` };
    if (isLoopbackName(host)) return { problem: `${host} is a loopback name: ${ALLOW_PRIVATE_HINT}` };
  }
  return { parsed, host };
}

/** What an attempt may do with a target. */
export type ResolvedTarget =
  /** Call it: connect to `address` (the checked one), naming `host` in Host and TLS. */
  | { kind: "ok"; url: URL; host: string; address: string; family: 4 | 6 }
  /** Never call it (a bad URL, a non-public address): waiting will not help. */
  | { kind: "refused"; problem: string };

export interface TargetGuard {
  /** Why `url` may not be a webhook target (no name resolved: checked when a URL is accepted), or null. */
  urlProblem(url: string): string | null;
  /**
   * Resolves the target once and checks the address (before each attempt). A name that does not
   * resolve now throws the resolver's error: the attempt fails, retried on the schedule.
   */
  resolveTarget(url: string): Promise<ResolvedTarget>;
}

export function createTargetGuard(allowPrivate: boolean, resolver: Resolver = systemResolver): TargetGuard {
  /** What urlProblem found for a URL (the check depends on the URL text alone). */
  const checkedUrls = new Map<string, string | null>();
  return {
    urlProblem(url) {
      // Integrations send the same few URLs on every charge: parse each once.
      let problem = checkedUrls.get(url);
      if (problem === undefined) {
        const shape = urlShapeProblem(url, allowPrivate);
        problem = "problem" in shape ? shape.problem : null;
        // Stryker disable next-line ConditionalExpression,EqualityOperator: the memo's bound: clearing it more or less often changes no answer, only the memory it holds
        if (checkedUrls.size >= CHECKED_URLS_KEPT) checkedUrls.clear();
        checkedUrls.set(url, problem);
      }
      return problem;
    },
    async resolveTarget(url) {
      const shape = urlShapeProblem(url, allowPrivate);
      // Stryker disable next-line ObjectLiteral,StringLiteral: unreachable for a client, a URL taken when the charge was created passes the same check at each attempt (a sandbox restarted with another --allow-private-webhooks is its operator's change)
      if ("problem" in shape) return { kind: "refused", problem: shape.problem };
      const { host, parsed } = shape;
      const addresses = isIP(host) ? [host] : await resolver(host);
      if (!allowPrivate) {
        const blocked = addresses.find(isNonPublic);
        if (blocked) return { kind: "refused", problem: `${host} resolves to the non-public address ${blocked}: ${ALLOW_PRIVATE_HINT}` };
      }
      const address = addresses[0];
      return { kind: "ok", url: parsed, host, address, family: isIP(address) === 6 ? 6 : 4 };
    },
  };
}
