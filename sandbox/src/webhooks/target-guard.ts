/**
 * Which URLs may receive webhooks. Targets on loopback, private, link-local and other
 * non-public addresses are refused (server-side request forgery) unless private targets are
 * allowed, which tests and local development need: literal addresses and `localhost` already
 * when the URL is accepted (a charge's `webhook_url`, the account's endpoint), names resolving
 * to such addresses at each attempt. Only http and https, no credentials, at most 2048
 * characters (decision D01).
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Longest webhook URL accepted (decision D01). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** How many webhook URLs keep their checked shape (urlProblem) before the memo starts over. */
const CHECKED_URLS_KEPT = 1_000;

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}

function isNonPublic(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1], "ipv4");
  return NON_PUBLIC.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/** Why a URL is not an acceptable target, without resolving names. */
function urlShapeProblem(url: string, allowPrivate: boolean): { problem: string } | { parsed: URL; host: string } {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return { problem: `longer than ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: "not a URL" };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return { problem: `scheme ${parsed.protocol} is not http or https` };
  if (parsed.username || parsed.password) return { problem: "credentials in the URL are not accepted" };
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate) {
    if (isIP(host) && isNonPublic(host)) return { problem: `${host} is a non-public address` };
    if (host === "localhost" || host.endsWith(".localhost")) return { problem: `${host} is a loopback name` };
  }
  return { parsed, host };
}

export interface TargetGuard {
  /** Why `url` may not be a webhook target (no name resolved: checked when a URL is accepted), or null. */
  urlProblem(url: string): string | null;
  /** Why the target may not be called now (names resolved: checked before each attempt), or null. */
  targetProblem(url: string): Promise<string | null>;
}

export function createTargetGuard(allowPrivate: boolean): TargetGuard {
  /** What urlProblem found for a URL (the check depends on the URL text alone). */
  const checkedUrls = new Map<string, string | null>();
  return {
    urlProblem(url) {
      // Integrations send the same few URLs on every charge: parse each once.
      let problem = checkedUrls.get(url);
      if (problem === undefined) {
        const shape = urlShapeProblem(url, allowPrivate);
        problem = "problem" in shape ? shape.problem : null;
        if (checkedUrls.size >= CHECKED_URLS_KEPT) checkedUrls.clear();
        checkedUrls.set(url, problem);
      }
      return problem;
    },
    async targetProblem(url) {
      const shape = urlShapeProblem(url, allowPrivate);
      if ("problem" in shape) return shape.problem;
      if (allowPrivate) return null;
      const { host } = shape;
      const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
      if (addresses.length === 0) return `${host} does not resolve`;
      const blocked = addresses.find(isNonPublic);
      return blocked ? `${host} resolves to the non-public address ${blocked}` : null;
    },
  };
}
