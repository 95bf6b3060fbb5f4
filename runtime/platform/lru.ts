// A bounded map that forgets the least recently used entry first. Caches keyed
// by something callers choose (token pairs, ids) must not grow without limit
// in a long-lived server process (wire contract §14).

import { StackConfigurationError } from "../errors.js";

export class LruMap<K, V> {
  readonly limit: number;
  // A Map iterates in insertion order, so re-inserting an entry on use keeps the
  // least recently used one first.
  readonly #entries = new Map<K, V>();
  // The key inserted last (the last in the Map's order), so that using it again moves nothing.
  #newest: K | undefined;
  #hasNewest = false;

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
    const value = this.#entries.get(key);
    if (value === undefined && !this.#entries.has(key)) return undefined;
    // The entry used last is asked for again most of the time (the same session,
    // the same token, call after call): it is the most recent already.
    if (this.#hasNewest && key === this.#newest) return value;
    this.#entries.delete(key);
    this.#entries.set(key, value as V);
    this.#markNewest(key);
    return value;
  }

  /** Stores `value` as the most recently used entry, evicting the least recently used beyond the limit. */
  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#markNewest(key);
    while (this.#entries.size > this.limit) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    return this;
  }

  delete(key: K): boolean {
    if (this.#hasNewest && key === this.#newest) {
      this.#hasNewest = false;
      this.#newest = undefined;
    }
    return this.#entries.delete(key);
  }

  #markNewest(key: K): void {
    this.#newest = key;
    this.#hasNewest = true;
  }
}
