// How code beside the admin app reaches an admin app's server context, which
// the class keeps protected: the class hands over an accessor when it is defined.
import { StackAssertionError } from "../../core.js";
import type { ServerAppContext } from "../server/context.js";

let accessor: ((app: object) => ServerAppContext) | undefined;

export function provideServerContextOf(get: (app: object) => ServerAppContext): void {
  accessor = get;
}

/** The server context of an admin app (the class is loaded whenever one exists). */
export function serverContextOf(app: object): ServerAppContext {
  if (!accessor) throw new StackAssertionError("an admin app exists only once its class is defined, which hands over this accessor");
  return accessor(app);
}
