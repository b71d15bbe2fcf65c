import { toJsonSchema, compileOpenApiSchema, describeSchemaErrors } from "/work/main/src/contract/json-schema.ts";
const s = { type: "object", properties: { a: { type: "string", nullable: true, "x-y": 1, example: "q" }, b: { type: "string", enum: ["x"], nullable: true }, n: {type:"integer", format:"int32"} }, required: ["a"] };
console.log(JSON.stringify(toJsonSchema(s, "3.0")));
const v = compileOpenApiSchema(s, "3.0");
console.log(v({ a: null, b: null, n: 1 }), v({ a: 1, b: "y", n: 2**40 }), describeSchemaErrors(v));
const v2 = compileOpenApiSchema({ type: "object", properties: { a: { anyOf: [{type:"string"},{type:"null"}] }, t: {type:"string", format:"date-time"} }, examples: [{}] }, "3.1");
console.log(v2({ a: null, t: "2026-02-30T00:00:00Z" }), describeSchemaErrors(v2));
