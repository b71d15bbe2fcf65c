/**
 * The bounded memories of the rules across exchanges: a long proxy run must not grow without
 * bound, so each memory keeps its most recent entries only, at most MEMORY entries and
 * MEMORY_BYTES of text (a record's values are the request body it was created with, which may
 * be as large as --max-body: a count alone would not bound the bytes).
 */
/** Entries each memory keeps at most. */
export const MEMORY = 10_000;
/** Text each memory keeps at most, keys and values, in bytes (two a character: UTF-16 at worst). */
export const MEMORY_BYTES = 16 * 1024 * 1024;

/** What an entry costs besides its texts: the map's slot and the value's object. */
const ENTRY_OVERHEAD = 64;

/** The bytes of an entry's texts: its key, and the strings the value holds (one level deep). */
function bytesOf(key: unknown, value: unknown): number {
  let chars = typeof key === "string" ? key.length : 0;
  if (typeof value === "string") chars += value.length;
  else if (Array.isArray(value)) return ENTRY_OVERHEAD + chars * 2 + value.length * ENTRY_OVERHEAD;
  else if (value !== null && typeof value === "object") for (const member of Object.values(value)) if (typeof member === "string") chars += member.length;
  return ENTRY_OVERHEAD + chars * 2;
}

/** A map of the most recent entries: setting an entry makes it the most recent; the oldest go first. */
export class Memory<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private bytes = 0;

  get size(): number {
    return this.entries.size;
  }

  /** The bytes the memory counts now (never above MEMORY_BYTES). */
  get byteSize(): number {
    return this.bytes;
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Sets an entry as the most recent (again after its value changed, so that its size is counted anew). */
  remember(key: K, value: V): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    const bytes = bytesOf(key, value);
    // An entry larger than the whole memory is not kept: nothing is judged against it.
    if (bytes > MEMORY_BYTES) return;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    while (this.entries.size > MEMORY || this.bytes > MEMORY_BYTES) {
      const [oldest, entry] = this.entries.entries().next().value as [K, { bytes: number }];
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
