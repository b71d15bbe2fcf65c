/**
 * The rules' memories across exchanges stay bounded however long the proxy runs: at most MEMORY
 * entries and MEMORY_BYTES of text, the oldest going first, the most recent always kept.
 */
import { describe, expect, it } from "vitest";
import { Memory, MEMORY, MEMORY_BYTES } from "../../src/traffic/memory.ts";

describe("the rules' memory", () => {
  it("keeps the most recent MEMORY entries", () => {
    const memory = new Memory<string, { id: number }>();
    for (let i = 0; i < MEMORY + 500; i++) memory.remember(`record-${i}`, { id: i });
    expect(memory.size).toBe(MEMORY);
    expect(memory.get("record-499")).toBeUndefined();
    expect(memory.get("record-500")).toEqual({ id: 500 });
    expect(memory.get(`record-${MEMORY + 499}`)).toEqual({ id: MEMORY + 499 });
  });

  it("keeps no more than MEMORY_BYTES of text when the values are large (bodies up to --max-body)", () => {
    const memory = new Memory<string, { expected: string }>();
    const body = "x".repeat(512 * 1024);
    for (let i = 0; i < 100; i++) memory.remember(`record-${i}`, { expected: `${i}${body}` });
    expect(memory.byteSize).toBeLessThanOrEqual(MEMORY_BYTES);
    expect(memory.size).toBeLessThan(100);
    expect(memory.get("record-99")?.expected.startsWith("99")).toBe(true);
    expect(memory.get("record-0")).toBeUndefined();
  });

  it("counts an entry set again (a record updated) at its new size, once", () => {
    const memory = new Memory<string, { expected: string }>();
    memory.remember("record", { expected: "a" });
    const small = memory.byteSize;
    memory.remember("record", { expected: "a".repeat(1000) });
    expect(memory.size).toBe(1);
    expect(memory.byteSize).toBe(small + 999 * 2);
  });
});
