/**
 * Every boleto state other than REGISTERED (family B): a boleto the target names in CONFIRMED,
 * ERROR or PROCESSING is shown in that state, by the document's name for it; a cancel of it
 * answers ODE002 ("only charges with status REGISTERED can be cancelled") and leaves it
 * unchanged. The HTTP status of ODE002 is decision D18, so under seed only the code is asked.
 */
import type { Scenario, ScenarioAssertions } from "../core/scenario.ts";
import type { FamilyContext } from "../core/check-context.ts";
import { NotApplicable } from "../core/check-context.ts";
import { at, describe, expectCode, sender } from "./support.ts";

/** The target's fixtures per state the document names. */
const FIXTURES = [
  { state: "CONFIRMED", fixture: "confirmedBoletoId" },
  { state: "ERROR", fixture: "errorBoletoId" },
  { state: "PROCESSING", fixture: "processingBoletoId" },
] as const;

async function shownState(ctx: FamilyContext, check: ScenarioAssertions, scenarioId: string, id: string, label: string): Promise<unknown> {
  const read = await sender(ctx, scenarioId)("getBoleto", { params: { boletoId: id } });
  check.that(read.status === 200, `${label}: GET /sdk/boleto/${id} answered ${describe(read)}`);
  if (read.status !== 200) return undefined;
  check.response("getBoleto", "200", read, label);
  return at(read, "data.status");
}

export const boletoCancelRefusedOtherStates: Scenario = {
  id: "family-b/boletos/cancel-refused-other-states",
  family: "family-b",
  profile: "seed",
  title: "CONFIRMED, ERROR and PROCESSING boletos are shown so, and a cancel of each gives ODE002 and changes nothing",
  statements: ["B-BOLETO-ENUM-CONFIRMED", "B-BOLETO-ENUM-ERROR", "B-BOLETO-ENUM-PROCESSING", "B-BOLETO-TRANSITION-cancel-refused", "B-ERRORS-ERROR-ODE002"],
  covers: [
    { operationId: "getBoleto", status: "200" },
    { operationId: "cancelBoleto", status: "409" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const named = FIXTURES.map(({ state, fixture }) => ({ state, id: ctx.familyB?.fixtures[fixture] })).filter((f) => f.id !== undefined);
    if (named.length === 0) throw new NotApplicable("the target names no boleto in CONFIRMED, ERROR or PROCESSING (familyB.fixtures)");
    for (const { state, id } of named) {
      check.that((await shownState(ctx, check, this.id, id!, `the ${state} boleto`)) === state, `the boleto the target names as ${state} is not shown ${state}`);
      const refused = await send("cancelBoleto", { params: { boletoId: id! }, body: { reason: `cancel a ${state} boleto` } });
      check.that(refused.status >= 400 && refused.status < 500, `cancelling the ${state} boleto answered ${describe(refused)}, expected a refusal (ODE002)`);
      expectCode(check, refused, "ODE002", `cancel ${state}`);
      check.that((await shownState(ctx, check, this.id, id!, `the ${state} boleto after the refused cancel`)) === state, `the refused cancel changed the ${state} boleto`);
    }
  },
};
