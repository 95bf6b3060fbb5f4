// Guards for what the service answers. The typed client promises a body for
// these calls; a service that sends none has broken the protocol, which is an
// assertion error naming the call, not a TypeError further down.
import { StackAssertionError } from "../errors.js";

/** Narrows `data` to a body, or throws saying `call` answered without `what`. */
export function assertAnswered<T>(data: T, call: string, what = "a body"): asserts data is NonNullable<T> {
  if (data === undefined || data === null) throw new StackAssertionError(`${call} answered without ${what}`);
}

/** The body of `call`'s answer (see {@link assertAnswered}). */
export function answered<T>(data: T, call: string): NonNullable<T> {
  assertAnswered(data, call);
  return data;
}
