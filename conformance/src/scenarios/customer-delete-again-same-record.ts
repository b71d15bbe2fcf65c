/**
 * Decision D31 (full profile): deleting a customer that is already deleted answers 200 with the
 * same record again: its status DELETED and the time of the first delete, unchanged by the
 * second (the record is kept, not deleted twice), sent a second after the first so that a
 * server writing the time of each delete shows it.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, deletedCustomer, describe, sender } from "./support.ts";

/** How long the second delete waits after the first. */
const SECOND_DELETE_AFTER_MS = 1_100;

export const customerDeleteAgainSameRecord: Scenario = {
  id: "family-b/customers/delete-again-same-record",
  family: "family-b",
  profile: "full",
  decision: "D31",
  title: "a second delete of a deleted customer answers 200 with the same record (status DELETED, updatedAt of the first delete)",
  account: "any",
  statements: ["B-CUSTOMER-TRANSITION-soft-delete"],
  covers: [{ operationId: "deleteCustomer", status: "200" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const { id, deleted: first } = await deletedCustomer(ctx, send);
    // A second past the first delete: a server that deleted the record again would write
    // another time, even to the second (two requests on loopback often share a millisecond).
    await new Promise((resolve) => setTimeout(resolve, SECOND_DELETE_AFTER_MS));
    const again = await send("deleteCustomer", { params: { id } });
    check.that(again.status === 200, `D31: a second delete answered ${describe(again)}, expected 200 with the same record`);
    if (again.status !== 200) return;
    check.response("deleteCustomer", "200", again, "second delete");
    for (const path of ["data.id", "data.status", "data.updatedAt", "data.name"]) {
      check.that(at(again, path) === at(first, path), `D31: the second delete's ${path} is ${JSON.stringify(at(again, path))}, the first's ${JSON.stringify(at(first, path))}`);
    }
  },
};
