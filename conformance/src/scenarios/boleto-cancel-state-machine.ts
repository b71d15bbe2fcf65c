/**
 * The boleto cancellation state machine (family B): REGISTERED -> CANCELED on cancel, shown by
 * a later GET; cancelling a boleto in any other state gives ODE002 and leaves it unchanged; a
 * 201-character reason gives ODE003 and changes nothing, 200 characters are accepted; an
 * unknown id gives ODE001 (the statuses are decision D18: under seed any 4xx). Every error is envelope 2: a semantic `version` and `status: ERROR`.
 */
import type { FamilyContext } from "../core/check-context.ts";
import type { Scenario, ScenarioAssertions } from "../core/scenario.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { at, describe, expectCode, is2xx, sender } from "./support.ts";

const REASON_LIMIT = 200;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Envelope 2 as the document states it: a semantic version and status ERROR. */
function envelope2(check: ScenarioAssertions, response: ObservedResponse, label: string): void {
  const version = at(response, "version");
  check.that(typeof version === "string" && SEMVER.test(version), `${label}: envelope 2 version ${JSON.stringify(version)} is not a semantic version`);
  check.that(at(response, "status") === "ERROR", `${label}: envelope 2 status ${JSON.stringify(at(response, "status"))}, expected "ERROR"`);
}

async function statusOf(ctx: FamilyContext, id: string, scenarioId: string, check: ScenarioAssertions): Promise<unknown> {
  const read = await sender(ctx, scenarioId)("getBoleto", { params: { boletoId: id } });
  if (read.status !== 200) {
    check.that(false, `GET /sdk/boleto/${id} answered ${describe(read)}`);
    return undefined;
  }
  check.response("getBoleto", "200", read, `GET boleto ${id}`);
  return at(read, "data.status");
}

export const boletoCancelStateMachine: Scenario = {
  id: "family-b/boletos/cancel-state-machine",
  family: "family-b",
  profile: "seed",
  title: "REGISTERED -> CANCELED on cancel; other states, long reasons and unknown ids refused, nothing changed",
  statements: [
    "B-BOLETO-TRANSITION-cancel",
    "B-BOLETO-TRANSITION-cancel-refused",
    "B-BOLETO-ENUM-REGISTERED",
    "B-BOLETO-ENUM-CANCELED",
    "B-BOLETO-ENUM-CONFIRMED",
    "B-ERRORS-ERROR-ODE001",
    "B-ERRORS-ERROR-ODE002",
    "B-ERRORS-ERROR-ODE003",
    "B-LIMITS-LIMIT-cancel-reason",
    "B-ERRORS-RULE-envelope-2",
    "B-VERSION-VERSIONING-envelope-2-semver",
  ],
  covers: [
    { operationId: "cancelBoleto", status: "200" },
    { operationId: "cancelBoleto", status: "400" },
    { operationId: "cancelBoleto", status: "404" },
    { operationId: "cancelBoleto", status: "409" },
    { operationId: "getBoleto", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const id = ctx.takeRegisteredBoleto();
    check.that((await statusOf(ctx, id, this.id, check)) === "REGISTERED", `the target's REGISTERED boleto ${id} is not REGISTERED`);

    const tooLong = await send("cancelBoleto", { params: { boletoId: id }, body: { reason: "r".repeat(REASON_LIMIT + 1) } });
    check.response("cancelBoleto", "400", tooLong, "reason too long");
    expectCode(check, tooLong, "ODE003", "reason too long");
    envelope2(check, tooLong, "reason too long");
    check.that((await statusOf(ctx, id, this.id, check)) === "REGISTERED", "the refused cancel (ODE003) changed the boleto");

    const cancel = await send("cancelBoleto", { params: { boletoId: id }, body: { reason: "c".repeat(REASON_LIMIT) } });
    check.that(is2xx(cancel), `cancelling a REGISTERED boleto with a ${REASON_LIMIT}-character reason answered ${describe(cancel)}`);
    if (is2xx(cancel)) check.response("cancelBoleto", "200", cancel, "cancel");
    check.that((await statusOf(ctx, id, this.id, check)) === "CANCELED", "after the cancel GET does not show CANCELED");

    const again = await send("cancelBoleto", { params: { boletoId: id }, body: { reason: "again" } });
    check.response("cancelBoleto", "409", again, "cancel CANCELED");
    expectCode(check, again, "ODE002", "cancel CANCELED");
    envelope2(check, again, "cancel CANCELED");
    check.that((await statusOf(ctx, id, this.id, check)) === "CANCELED", "the refused second cancel changed the boleto");

    const confirmed = ctx.familyB?.fixtures.confirmedBoletoId;
    if (confirmed) {
      const before = await statusOf(ctx, confirmed, this.id, check);
      const refused = await send("cancelBoleto", { params: { boletoId: confirmed }, body: { reason: "not registered" } });
        check.response("cancelBoleto", "409", refused, "cancel CONFIRMED");
      expectCode(check, refused, "ODE002", "cancel CONFIRMED");
      check.that((await statusOf(ctx, confirmed, this.id, check)) === before, "the refused cancel changed the CONFIRMED boleto");
    }

    const unknown = await send("cancelBoleto", { params: { boletoId: ctx.uuid() }, body: { reason: "unknown" } });
    check.response("cancelBoleto", "404", unknown, "unknown id");
    expectCode(check, unknown, "ODE001", "unknown id");
    envelope2(check, unknown, "unknown id");
  },
};
