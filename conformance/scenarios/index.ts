/**
 * The behaviour scenarios the runner runs with the response checks (see runner/scenario.ts).
 * Each scenario module adds its scenarios here.
 */
import type { Scenario } from "../runner/scenario.ts";

export const SCENARIOS: Scenario[] = [];
