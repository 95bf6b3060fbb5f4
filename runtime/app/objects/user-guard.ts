// App code written for a React hook often destructures the user it answers
// (`const { user } = useUser()`), which reads `user.user`: undefined, and a
// confusing failure later. As in the official SDK, every user object answers
// that read at once with an error that says what to write instead.
import { StackConfigurationError } from "../../errors.js";

/** What reading `user` of a user object throws (the official SDK's wording). */
export const USER_DESTRUCTURE_MESSAGE =
  "Stack Auth: useUser() already returns the user object. Use `const user = useUser()` (or `const user = await app.getUser()`) instead of destructuring it like `const { user } = ...`.";

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
