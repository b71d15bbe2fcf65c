/**
 * Test support for the sandbox: a sandbox on a free port with a temporary data directory,
 * and an HTTP client that checks every response it sees against the contract (status,
 * Content-Type, headers, body schema) and the domain rules (check digits, BR Codes, QR
 * codes, EndToEndIds), collecting what does not conform.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { checkDomainValues } from "@payment-collection/contract/domain/domain-checks.ts";
import { createResponseValidator, loadContractDocuments, type ResponseValidator } from "@payment-collection/contract/model/index.ts";
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from "../src/server.ts";

let sharedValidator: ResponseValidator | undefined;

/** One validator per test file (schemas compiled once). */
export function contractValidator(): ResponseValidator {
  sharedValidator ??= createResponseValidator(loadContractDocuments());
  return sharedValidator;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined when it is not JSON). */
  json: any;
}

export interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or bytes as they are. */
  body?: unknown;
  contentType?: string | null;
}

export class ApiClient {
  /** Contract and domain problems of every response seen, with the request that got it. */
  readonly problems: string[] = [];
  /** Responses seen (method, path, status): the tests count them. */
  readonly seen: Array<{ method: string; path: string; status: number; operationId: string | null }> = [];
  checkDomain = true;

  constructor(
    readonly baseUrl: string,
    private readonly defaultKey: string | undefined,
  ) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? this.defaultKey : options.key;
    if (key !== null && key !== undefined) headers["x-api-key"] = key;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === "string" || options.body instanceof Uint8Array ? (options.body as string | Uint8Array<ArrayBuffer>) : JSON.stringify(options.body);
      if (options.contentType !== null) headers["content-type"] = options.contentType ?? "application/json";
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const check = contractValidator().validate({ method, url: path, status: response.status, headers: response.headers, body: text });
    this.seen.push({ method, path, status: response.status, operationId: check.operation?.operationId ?? null });
    for (const problem of check.problems) this.problems.push(`${method} ${path}: ${problem}`);
    if (response.status >= 500) this.problems.push(`${method} ${path}: server error ${response.status} ${text.slice(0, 200)}`);
    if (this.checkDomain && json !== undefined && response.status < 300) {
      for (const p of checkDomainValues(json).problems) this.problems.push(`${method} ${path}: domain ${p.check} at ${p.path}: ${p.problem}`);
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  get(path: string, options?: RequestOptions) {
    return this.request("GET", path, options);
  }
  post(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request("POST", path, { ...options, body });
  }
  put(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request("PUT", path, { ...options, body });
  }
  delete(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request("DELETE", path, { ...options, body });
  }

  /** Asserts that every response seen so far conforms, and forgets them. */
  expectConformant(): void {
    const problems = this.problems.splice(0);
    expect(problems).toEqual([]);
  }
}

export interface TestSandbox {
  sandbox: RunningSandbox;
  dataDir: string;
  /** Client with the family A primary key. */
  a: ApiClient;
  /** Client with the family B primary key. */
  b: ApiClient;
  /** A client with another default key (checks are collected in the same way). */
  client(key?: string): ApiClient;
  clients: ApiClient[];
  close(): Promise<void>;
}

/** Starts a sandbox on a free port with a temporary data directory. */
export async function startTestSandbox(options: StartSandboxOptions = {}): Promise<TestSandbox> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "sandbox-test-"));
  const sandbox = await startSandbox({ plan: "generous", allowPrivateWebhookTargets: true, ...options, dataDir });
  const clients: ApiClient[] = [];
  const client = (key?: string) => {
    const c = new ApiClient(sandbox.url, key);
    clients.push(c);
    return c;
  };
  const test: TestSandbox = {
    sandbox,
    dataDir,
    a: client(sandbox.keys.familyA.primary),
    b: client(sandbox.keys.familyB.primary),
    client,
    clients,
    async close() {
      await sandbox.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return test;
}

/** Asserts that every client of the sandbox saw only conformant responses. */
export function expectAllConformant(test: TestSandbox): void {
  const problems = test.clients.flatMap((c) => c.problems.splice(0));
  expect(problems).toEqual([]);
}

/** A valid customer creation body with a fresh CPF. */
export function customerBody(documentNumber = "93013060425"): Record<string, unknown> {
  return {
    name: "Maria da Silva Santos",
    email: "maria.santos@example.com.br",
    documentNumber,
    phoneNumber: "+5511987654321",
    address: {
      postalCode: "01310100",
      street: "Avenida Paulista",
      number: "1578",
      complement: "Conjunto 42",
      neighborhood: "Bela Vista",
      city: "São Paulo",
      state: "SP",
    },
    notes: "Cliente desde 2024.",
  };
}

let keyCounter = 0;
/** A fresh idempotency key. */
export function freshKey(prefix = "test"): string {
  keyCounter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${keyCounter}`;
}
