// The runtime entry, `stackkit`. It re-exports, and makes one hand-over: owned
// projects carry an admin app, which is built on the client app, so the client
// half gets it from here, loaded on first use, rather than importing it. It is
// here because an entry's own statements are kept by every bundler.
import { provideOwnedProjectFactory } from "./app/objects/project.js";

provideOwnedProjectFactory(async () => (await import("./app/admin-app.js")).ownedProjectOf);

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
export { Session, SessionManager, type RefreshAccessToken, type SessionTokens } from "./session.js";
export * from "./tokens/index.js";
export * from "./verify/index.js";
export * from "./messages/index.js";
export { CLIENT_VERSION, VERSION } from "./version.js";

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
