/**
 * Which server a bundle's run spoke to: per family, its base URL, the `Server` header its
 * responses carried, the fingerprint of its TLS certificate when it is https, the fingerprints
 * of the keys the target gave (never the keys), the plan and the cross-origin policy it declared, and what its health
 * check reported (the first successful answer of the family's health operation in the run).
 */
import { connect } from "node:tls";
import { isIP } from "node:net";
import { FAMILY_IDS, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { familyTarget, type CorsPolicyDeclared, type DeclaredRateLimitPlan, type Target } from "../core/target.ts";
import { keyFingerprint } from "../traffic/exchange.ts";
import { familyRoutes, routeByBaseUrl } from "../traffic/routing.ts";
import type { RecordedExchange } from "./recorder.ts";
import { targetSecrets } from "./secrets.ts";

export interface TlsCertificate {
  /** SHA-256 of the leaf certificate (DER), as `AB:CD:...`. */
  sha256?: string;
  subject?: string;
  issuer?: string;
  validTo?: string;
  /** Whether this machine's trust store accepted it. */
  trusted?: boolean;
  /** Why it could not be read. */
  error?: string;
}

export interface FamilyFingerprint {
  family: FamilyId;
  baseUrl: string;
  /** The `Server` header values the family's responses carried, in the order first seen. */
  server: string[];
  tls?: TlsCertificate;
  /** The target's keys (and webhook secret) by name: fingerprints only. */
  keys: Array<{ name: string; fingerprint: string }>;
  plan?: DeclaredRateLimitPlan;
  /** The origins the target declared the server grants (D44). */
  cors?: CorsPolicyDeclared;
  /** The first successful answer of the family's health operation, or why there is none. */
  health: { operationId: string; status: number; body: unknown } | { none: string };
}

/** The leaf certificate of an https server, read with a TLS handshake of its own. */
export function tlsCertificate(baseUrl: string, timeoutMs = 5_000): Promise<TlsCertificate> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect({
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: Number(url.port || 443),
      servername: isIP(url.hostname.replace(/^\[|\]$/g, "")) ? undefined : url.hostname,
      rejectUnauthorized: false,
    });
    const done = (certificate: TlsCertificate) => {
      socket.destroy();
      resolve(certificate);
    };
    socket.setTimeout(timeoutMs, () => done({ error: `no TLS handshake within ${timeoutMs / 1000} s` }));
    socket.once("error", (error) => done({ error: error.message }));
    socket.once("secureConnect", () => {
      const peer = socket.getPeerCertificate();
      done({ sha256: peer.fingerprint256, subject: peer.subject?.CN, issuer: peer.issuer?.CN ?? peer.issuer?.O, validTo: peer.valid_to, trusted: socket.authorized });
    });
  });
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 500);
  }
};

export async function targetFingerprint(target: Target, families: FamilyId[], exchanges: RecordedExchange[]): Promise<FamilyFingerprint[]> {
  const secrets = targetSecrets(target);
  const out: FamilyFingerprint[] = [];
  for (const family of FAMILY_IDS.filter((f) => families.includes(f))) {
    const server = familyTarget(target, family);
    if (!server) continue;
    const baseUrl = server.baseUrl.replace(/\/+$/, "");
    const routes = familyRoutes({ [family]: [baseUrl] }).filter((route) => route.family === family);
    const mine = exchanges.filter((e) => e.direction === "sent" && (e.url === baseUrl || e.url.startsWith(`${baseUrl}/`)));
    const health = routes[0]!.contract.operations.find((op) => /health/i.test(op.operationId));
    const answered = health && mine.find((e) => e.status >= 200 && e.status < 300 && routeByBaseUrl(routes, e.method, e.url)?.op?.operationId === health.operationId);
    out.push({
      family,
      baseUrl,
      server: [...new Set(mine.map((e) => e.responseHeaders.server).filter((v): v is string => !!v))],
      ...(baseUrl.startsWith("https:") ? { tls: await tlsCertificate(baseUrl) } : {}),
      keys: secrets.filter((s) => s.family === family).map((s) => ({ name: s.name, fingerprint: keyFingerprint(s.value) })),
      ...((server as { plan?: DeclaredRateLimitPlan }).plan ? { plan: (server as { plan?: DeclaredRateLimitPlan }).plan } : {}),
      ...(server.cors ? { cors: server.cors } : {}),
      health: answered
        ? { operationId: health.operationId, status: answered.status, body: parsed(answered.responseBody) }
        : { none: health ? `no successful ${health.operationId} in the run` : "the family publishes no health operation" },
    });
  }
  return out;
}
