/** Every classification rule, by rule family (one module per family). */
import type { Rule } from "../types.ts";
import { RULES as DOCUMENT } from "./document.ts";
import { RULES as ERRORS } from "./errors.ts";
import { RULES as OPERATIONS } from "./operations.ts";
import { RULES as PARAMETERS } from "./parameters.ts";
import { RULES as REQUEST_BODY } from "./request-body.ts";
import { RULES as RESPONSES } from "./responses.ts";
import { RULES as SCHEMA_CONSTRAINTS } from "./schema-constraints.ts";
import { RULES as SCHEMA_ENUMS } from "./schema-enums.ts";
import { RULES as SCHEMA_PROPERTIES } from "./schema-properties.ts";
import { RULES as SCHEMA_TYPES } from "./schema-types.ts";
import { RULES as SCHEMA_VARIANTS } from "./schema-variants.ts";
import { RULES as SECURITY } from "./security.ts";

export const RULE_LIST: readonly Rule[] = [
  DOCUMENT,
  OPERATIONS,
  PARAMETERS,
  REQUEST_BODY,
  RESPONSES,
  SCHEMA_PROPERTIES,
  SCHEMA_TYPES,
  SCHEMA_CONSTRAINTS,
  SCHEMA_ENUMS,
  SCHEMA_VARIANTS,
  ERRORS,
  SECURITY,
].flatMap((family) => Object.values(family));

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULE_LIST.map((rule) => [rule.id, rule]));
