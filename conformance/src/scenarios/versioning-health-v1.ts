/**
 * Versioning (family B): "The health check reports version `v1`" and "Error envelope 2 carries
 * a version field with a semantic version string" (an unknown boleto's cancel gives ODE001 in
 * envelope 2).
 */
import type { Scenario } from "../core/scenario.ts";
import { at, describe, sender } from "./support.ts";

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export const healthV1EnvelopeSemver: Scenario = {
  id: "family-b/versioning/health-v1-envelope-semver",
  family: "family-b",
  profile: "seed",
  title: "health reports v1; error envelope 2 carries a semantic version",
  account: "any",
  statements: ["B-VERSION-VERSIONING-health-v1", "B-VERSION-VERSIONING-envelope-2-semver", "B-HEALTH-FIELD-response"],
  covers: [
    { operationId: "getHealth", status: "200" },
    { operationId: "cancelBoleto", status: "404" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const health = await send("getHealth");
    check.that(health.status === 200, `GET /sdk/status/health answered ${describe(health)}`);
    check.response("getHealth", "200", health);
    check.that(at(health, "data.version") === "v1", `health reports version ${JSON.stringify(at(health, "data.version"))}, expected "v1"`);
    const error = await send("cancelBoleto", { params: { boletoId: ctx.uuid() }, body: { reason: "versioning" } });
    check.response("cancelBoleto", "404", error, "envelope 2");
    const version = at(error, "version");
    check.that(typeof version === "string" && SEMVER.test(version), `envelope 2 version ${JSON.stringify(version)} is not a semantic version string`);
  },
};
