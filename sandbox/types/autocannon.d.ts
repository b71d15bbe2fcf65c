// The subset of autocannon's API the sandbox benchmark uses (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    average: number;
    p99: number;
    /** Count of the samples (requests: how many were answered). */
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: unknown[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
