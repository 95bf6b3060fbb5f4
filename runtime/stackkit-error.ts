// The type of whatever a stackkit call rejects with. It names every error
// class, and those classes extend StackError (errors.ts), so it stands in a
// module above all of them rather than beside their base.
import type { KnownError } from "../generated/known-errors.js";
import type { NetworkError, StackAssertionError, StackConfigurationError, UserNotSignedInError } from "./errors.js";
import type {
  HttpError,
  RateLimitError,
  RequestTimeoutError,
  ResponseFormatError,
  ServiceVersionError,
  UnexpectedRedirectError,
} from "./http/request-errors.js";
import type { AccessTokenInvalidError } from "./sessions/verify/errors.js";

/**
 * What a stackkit call rejects with: a known error of the service (a
 * KnownErrors class), one of the runtime's own errors above, or, for a
 * cancelled call, its signal's reason (a DOMException named AbortError unless
 * the caller aborted with another reason). The `error` of the React hooks and
 * mutations has this type.
 */
export type StackkitError =
  | KnownError
  | StackAssertionError
  | StackConfigurationError
  | HttpError
  | RateLimitError
  | UnexpectedRedirectError
  | NetworkError
  | RequestTimeoutError
  | ResponseFormatError
  | ServiceVersionError
  | UserNotSignedInError
  | AccessTokenInvalidError
  | DOMException;
