// App code written for a React hook often destructures the user it answers
// (`const { user } = useUser()`), which reads `user.user`: undefined, and a
// confusing failure later. Every user object (as in the official SDK) answers that
// read at once with an error that says what to write instead.
import { StackConfigurationError } from "../../errors.js";

/** What reading `user` of a user object throws. */
export const USER_DESTRUCTURE_MESSAGE =
  "This is already the user: getUser() and useUser() answer the user object itself, which has no `user` field. Write `const user = await app.getUser()` (or `const user = useUser()`), not `const { user } = …`.";

/**
 * Gives `target`, a user object not yet frozen, a `user` that throws a StackConfigurationError
 * with {@link USER_DESTRUCTURE_MESSAGE}; not enumerable, so that the user's fields, its spread
 * and its JSON stay what they were.
 */
export function withUserDestructureGuard<T extends object>(target: T): T {
  return Object.defineProperty(target, "user", {
    get(): never {
      throw new StackConfigurationError(USER_DESTRUCTURE_MESSAGE);
    },
    enumerable: false,
  });
}
