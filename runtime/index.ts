// The runtime entry, `stackkit`: re-exports only. It has no statements of its
// own, so that a bundler follows only what an app imports: a file the entry merely
// re-exports (the error catalogue, the admin app) stays out of an app's first load
// and arrives with the code that uses it.

export * from "./app/index.js";
export { createStackClient, type StackClient, type StackClientOptions } from "./client.js";
export { environment, platformEnvironment, type Environment, type Fetch } from "./env.js";
export {
  HttpError,
  isStackError,
  NetworkError,
  RateLimitError,
  RequestTimeoutError,
  ResponseFormatError,
  StackAssertionError,
  StackConfigurationError,
  UnexpectedRedirectError,
  UserNotSignedInError,
  type StackErrorName,
  type StackkitError,
} from "./errors.js";
export type { OwnerSession } from "./pipeline.js";
export { Session, SessionManager, type RefreshAccessToken } from "./session.js";
export * from "./tokens/index.js";
export * from "./verify/index.js";
export * from "./adapters/index.js";
export * from "./messages/index.js";
export { CLIENT_VERSION, VERSION } from "./version.js";
export { preloadAll as preloadStackkit } from "./lazy.js";

export {
  createKnownError,
  isKnownError,
  isKnownErrorCode,
  KnownError,
  knownErrorClasses,
  KnownErrors,
  knownErrorStatus,
  type KnownErrorCode,
  type KnownErrorDetails,
  type KnownErrorInit,
  type KnownErrorJSON,
  type KnownErrorLike,
  type KnownErrorOf,
  type KnownErrorsByCode,
} from "../generated/known-errors.js";
export {
  operationKnownErrors,
  operations,
  readOperationPaths,
  type AccessType,
  type HttpMethod,
  type OperationId,
  type OperationInfo,
  type OperationKnownError,
} from "../generated/operations.js";
export type { components, operations as OperationTypes, paths } from "../generated/schema.js";
