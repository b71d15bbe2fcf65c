/**
 * The console's contract check (the code the browser runs, here in Node and as the bundle the
 * portal ships): a sandbox's answer conforms; an answer that breaks the document's word names
 * the statement; one that breaks only a project decision names the decision; a status the
 * contract does not document is a problem. The bundle gives the same answers as the source.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "@payment-collection/sandbox/server.ts";
import { bundleContractCheck } from "../src/console/bundle.ts";
import { consoleReference, type ConsoleOperation } from "../src/console/console-data.ts";
import { checkResponse, type ConsoleCheck, type ObservedResponse } from "../src/console/contract-check.ts";
import { ROOT } from "./support.ts";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dataDir: string;
let createCharge: ConsoleOperation;
let created: ObservedResponse;
let bundled: (operation: ConsoleOperation, observed: ObservedResponse) => ConsoleCheck;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "console-check-"));
  sandbox = await startSandbox({ dataDir, plan: "generous" });
  createCharge = consoleReference(ROOT, "family-a").operations.find((operation) => operation.operationId === "createCharge")!;
  // The request the console fills in: the contract's examples.
  const idempotency = createCharge.parameters.find((parameter) => parameter.in === "header")!;
  const response = await fetch(`${sandbox.url}${createCharge.path}`, {
    method: createCharge.method,
    headers: { [createCharge.keyHeader!]: sandbox.keys.familyA.primary, "content-type": "application/json", [idempotency.name]: String(idempotency.example) },
    body: JSON.stringify(createCharge.body!.example),
  });
  created = { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  const context: { PortalContractCheck?: { checkResponse: typeof bundled } } = {};
  runInNewContext(await bundleContractCheck(), Object.assign(context, { globalThis: context, URL, TextEncoder, TextDecoder }));
  // Across the realm boundary, values are copied as JSON, as the page's data is.
  bundled = (operation, observed) => JSON.parse(JSON.stringify(context.PortalContractCheck!.checkResponse(JSON.parse(JSON.stringify(operation)), JSON.parse(JSON.stringify(observed)))));
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function withBody(change: (body: Record<string, any>) => void): ObservedResponse {
  const body = JSON.parse(created.body) as Record<string, any>;
  change(body);
  return { ...created, body: JSON.stringify(body) };
}

describe("the console's contract check", () => {
  it("finds the sandbox's answer to the contract's example conforming", () => {
    expect(created.status).toBe(201);
    expect(checkResponse(createCharge, created)).toEqual({ documented: "201", problems: [] });
  });

  it("names the statement a BR Code with a wrong CRC breaks", () => {
    const broken = withBody((body) => {
      body.pix.br_code = body.pix.br_code.slice(0, -1) + (body.pix.br_code.endsWith("0") ? "1" : "0");
    });
    const { problems } = checkResponse(createCharge, broken);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: "statement", text: expect.stringContaining("/pix/br_code") });
    expect(problems[0]!.ids).toContain("A-CHARGE-PRINCIPLE-br-code");
  });

  it("names the decision a state outside the decided ones breaks, and the statement a wrong type breaks", () => {
    const { problems } = checkResponse(createCharge, withBody((body) => void (body.status = "settled")));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: "decision", ids: expect.arrayContaining(["D04"]) });
    const typed = checkResponse(createCharge, withBody((body) => void (body.amount = "150.00"))).problems;
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.every((problem) => problem.kind === "statement" && problem.ids.includes("A-CHARGE-FIELD-amount"))).toBe(true);
  });

  it("holds a status the contract does not document against the decision or statements behind the documented ones", () => {
    const decided = checkResponse(createCharge, { ...created, status: 200 });
    expect(decided.documented).toBeNull();
    expect(decided.problems).toEqual([expect.objectContaining({ kind: "decision", ids: expect.arrayContaining(["D05"]), text: expect.stringContaining("status 200 is not documented") })]);
    const server = checkResponse(createCharge, { ...created, status: 500 });
    expect(server.problems).toEqual([expect.objectContaining({ kind: "statement", ids: expect.arrayContaining(["A-CHARGES-ENDPOINT-create"]) })]);
  });

  it("gives the same answers from the bundle the portal ships", () => {
    const cases = [
      created,
      withBody((body) => void (body.pix.br_code = `${body.pix.br_code.slice(0, -4)}0000`)),
      withBody((body) => void (body.status = "settled")),
      { ...created, status: 200 },
    ];
    for (const observed of cases) expect(bundled(createCharge, observed)).toEqual(checkResponse(createCharge, observed));
  });
});
