/**
 * The family B keys of the target that the server accepts, read against the published key
 * format `<prefix>_<environment>_<random_string>`. Keys are secrets: what the scenarios print
 * of one is its name in the target, its prefix and its environment, never its random string.
 */
import type { FamilyContext, KeyName } from "../core/check-context.ts";
import { sender } from "./support.ts";

export interface AcceptedKey {
  /** The key's name in the target file. */
  name: KeyName;
  value: string;
  /** The parts of the published format; undefined when the key does not have it. */
  parts?: { prefix: string; environment: "test" | "live"; random: string };
}

/** The prefix is fixed but unknown (decision D22 leaves it open): the shortest one that fits. */
const KEY_FORMAT = /^(.+?)_(test|live)_(.+)$/;

const KEY_NAMES: KeyName[] = ["primary", "secondAccount", "rateLimits", "primarySecondKey"];

export function keyParts(value: string): AcceptedKey["parts"] {
  const match = KEY_FORMAT.exec(value);
  return match ? { prefix: match[1]!, environment: match[2] as "test" | "live", random: match[3]! } : undefined;
}

/** How a key is shown in a report: its target name and its non-secret parts. */
export function shown(key: AcceptedKey): string {
  return key.parts ? `${key.name} (${key.parts.prefix}_${key.parts.environment}_...)` : `${key.name} (${key.value.length} characters)`;
}

/** The target's keys a health check accepts (once per run; the first scenario to ask sends). */
export function acceptedKeys(ctx: FamilyContext, scenarioId: string): Promise<AcceptedKey[]> {
  return ctx.once("family-b/accepted-keys", async () => {
    const send = sender(ctx, scenarioId);
    const accepted: AcceptedKey[] = [];
    for (const name of KEY_NAMES) {
      const value = ctx.key(name);
      if (!value) continue;
      const response = await send("getHealth", { key: name });
      if (response.status === 200) accepted.push({ name, value, parts: keyParts(value) });
    }
    return accepted;
  });
}
