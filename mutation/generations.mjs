// Module resolution hooks for the mutation run's test runner (suites-runner.mjs): an import of a
// sandbox source with `?generation=N` passes that query on to every sandbox source it imports,
// so each generation is a fresh evaluation of the sandbox's modules (what runs when they load
// runs again, under the mutant of the run), while the contract model and the suites stay
// loaded once.
let sandboxSources;

export async function initialize(data) {
  sandboxSources = data.sandboxSources;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const generation = context.parentURL?.match(/[?&]generation=(\d+)/)?.[1];
  if (generation !== undefined && resolved.url.startsWith(sandboxSources) && !resolved.url.includes("?")) {
    return { ...resolved, url: `${resolved.url}?generation=${generation}` };
  }
  return resolved;
}
