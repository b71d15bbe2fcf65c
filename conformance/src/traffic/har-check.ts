/**
 * The HAR front end: every entry of a HAR 1.2 file through the engine, in file order. Entries
 * go to the family whose base URL they address (given, or the documents' server URLs); entries
 * to other hosts are counted and skipped. The file is read as a stream (har-reader.ts); the peak
 * resident memory of the read is reported.
 */
import type { TrafficEngine } from "./engine.ts";
import { exchangeOfEntry, harEntryTexts } from "./har-reader.ts";
import { routeByBaseUrl } from "./routing.ts";

export interface HarCheckResult {
  entries: number;
  /** Highest resident set size seen during the read, in bytes. */
  peakRss: number;
}

export async function checkHar(path: string, engine: TrafficEngine, maxBody: number): Promise<HarCheckResult> {
  let entries = 0;
  let peakRss = process.memoryUsage.rss();
  for await (const text of harEntryTexts(path)) {
    const exchange = exchangeOfEntry(text, entries, maxBody);
    entries += 1;
    if (exchange.noResponse) engine.unanswered();
    else {
      const routed = routeByBaseUrl(engine.options.routes, exchange.method, exchange.url);
      if (routed) engine.observe(exchange, routed);
      else engine.skip();
    }
    if (entries % 64 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }
  return { entries, peakRss: Math.max(peakRss, process.memoryUsage.rss()) };
}
