/**
 * The bounded memories of the rules across exchanges: a long proxy run must not grow without
 * bound, so each memory keeps its most recent entries only.
 */
/** Entries each memory keeps at most. */
export const MEMORY = 10_000;

/** Sets an entry as the most recent; the oldest goes when the memory is full. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MEMORY) map.delete(map.keys().next().value as K);
}
