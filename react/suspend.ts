// One-off actions a hook starts while rendering or in an effect (the redirect
// of `or: "redirect"`, the anonymous sign-up of `or: "anonymous"`), started once
// per answer of the user query however many components ask, and readable
// synchronously so that a Suspense hook can throw the promise or its error.

export type Tracked<T> =
  | { readonly status: "pending"; readonly promise: Promise<T> }
  | { readonly status: "fulfilled"; readonly promise: Promise<T>; readonly value: T }
  | { readonly status: "rejected"; readonly promise: Promise<T>; readonly error: unknown };

interface Slot {
  readonly stamp: number;
  tracked: Tracked<unknown>;
}

const actions = new WeakMap<object, Map<string, Slot>>();

/**
 * The action `kind` of `owner` for the answer stamped `stamp` (the user
 * query's dataUpdatedAt): started by the first caller, shared by the rest. A
 * new stamp (a new answer) starts it afresh.
 */
export function trackedAction<T>(owner: object, kind: string, stamp: number, start: () => Promise<T>): Tracked<T> {
  let slots = actions.get(owner);
  if (!slots) actions.set(owner, (slots = new Map()));
  const existing = slots.get(kind);
  if (existing && existing.stamp === stamp) return existing.tracked as Tracked<T>;
  const promise = Promise.resolve().then(start);
  const slot: Slot = { stamp, tracked: { status: "pending", promise } };
  slots.set(kind, slot);
  promise.then(
    (value) => {
      slot.tracked = { status: "fulfilled", promise, value };
    },
    (error: unknown) => {
      slot.tracked = { status: "rejected", promise, error };
    },
  );
  return slot.tracked as Tracked<T>;
}

/** The action `kind` of `owner` for `stamp` if one was started, without starting it. */
export function peekTracked<T>(owner: object, kind: string, stamp: number): Tracked<T> | null {
  const slot = actions.get(owner)?.get(kind);
  return slot && slot.stamp === stamp ? (slot.tracked as Tracked<T>) : null;
}

/** Suspends on a pending action, throws a failed one's error, returns a finished one's value. */
export function readTracked<T>(tracked: Tracked<T>): T {
  if (tracked.status === "fulfilled") return tracked.value;
  if (tracked.status === "rejected") throw tracked.error;
  // Suspense: React renders again once the promise settles (it never rejects here).
  throw tracked.promise.then(
    () => undefined,
    () => undefined,
  );
}

/** A promise that never settles: what a page that is navigating away waits on. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}
