// A bounded map that forgets the least recently used entry first. Caches keyed
// by something callers choose (token pairs, ids) must not grow without limit
// in a long-lived server process (wire contract §14).

import { StackConfigurationError } from "./errors.js";

export class LruMap<K, V> {
  readonly limit: number;
  // A Map iterates in insertion order, so re-inserting an entry on use keeps the
  // least recently used one first.
  readonly #entries = new Map<K, V>();

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new StackConfigurationError(`An LRU cache needs a limit that is a positive integer, got ${String(limit)}.`);
    }
    this.limit = limit;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value for `key`, which now counts as the most recently used. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Stores `value` as the most recently used entry, evicting the least recently used beyond the limit. */
  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.limit) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }
}
