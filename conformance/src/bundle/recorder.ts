/**
 * The recording of a run for its bundle: every exchange the pacer logs (conformance's one way
 * out: Dredd's proxy, the probes, the scenarios, the generic checks, provisioning), the ones a
 * check makes beside it (a webhook delivery received, a request sent as is), and the preflight's,
 * each with the checks it belongs to.
 *
 * A request names its check (`checkId`) and goes out while a check runs (`scope`); a generic
 * check class names only itself on its requests, so the requests of one of its units (an
 * operation) go to the next result that unit records, the unit sending and judging in turn.
 */
import type { CheckResult } from "../core/results.ts";
import type { WireExchange } from "../core/pacing.ts";

export interface RecordedExchange extends WireExchange {
  /** The part of the command it belongs to: 0 the preflight, 1 the run (each numbers its exchanges from 1). */
  phase: number;
  /** The result a generic check's exchange was judged for. */
  judgedFor?: string;
}

/** `family-x/derived/<class>/<operation>/`: the unit of a generic check's result or scope. */
function derivedUnit(id: string): string | undefined {
  const parts = id.split("/");
  return parts[1] === "derived" && parts.length >= 5 ? `${parts.slice(0, 4).join("/")}/` : undefined;
}

export class RunRecording {
  readonly exchanges: RecordedExchange[] = [];
  /** Generic checks' exchanges not judged for a result yet, by unit. */
  private readonly waiting = new Map<string, RecordedExchange[]>();
  private phase = 0;

  /** The preflight is over: what follows is the run. */
  runBegins(): void {
    this.phase = 1;
  }

  /** Every exchange, as it ends (`RunOptions.onExchange`). */
  readonly exchange = (exchange: WireExchange): void => {
    const recorded: RecordedExchange = { ...exchange, phase: this.phase };
    this.exchanges.push(recorded);
    const unit = exchange.scope ? derivedUnit(exchange.scope) : undefined;
    if (!unit) return;
    const list = this.waiting.get(unit) ?? [];
    list.push(recorded);
    this.waiting.set(unit, list);
  };

  /** Every result, as it is recorded (`RunOptions.onResult`). */
  readonly result = (result: CheckResult): void => {
    const unit = result.source === "derived" ? derivedUnit(result.id) : undefined;
    if (!unit) return;
    for (const exchange of this.waiting.get(unit) ?? []) exchange.judgedFor = result.id;
    this.waiting.delete(unit);
  };

  /** The exchanges in the order they went out (deliveries: as they came in). */
  inOrder(): RecordedExchange[] {
    return [...this.exchanges].sort((a, b) => a.phase - b.phase || a.seq - b.seq);
  }
}

/** Every name an exchange carries: the check it named, the check running, the result it was judged for. */
export function tagsOf(exchange: RecordedExchange): string[] {
  return [...new Set([exchange.checkId, exchange.scope, exchange.judgedFor].filter((t): t is string => !!t))];
}
