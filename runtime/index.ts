// The runtime entry, `stackkit`: every public name, listed here by concern. The
// package has no side effects ("sideEffects": false), so a bundler keeps only
// what an app imports and the modules those names come from.

/**
 * The client of the Stack Auth REST API v1, for browsers, servers and project admins.
 *
 * Where to start:
 * - {@link StackClientApp}: an app's end user signs in ({@link StackClientApp.signInWithCredential},
 *   {@link StackClientApp.signInWithOAuth}, …) and {@link StackClientApp.getUser} answers the
 *   {@link CurrentUser}, with their profile, teams ({@link Team}), API keys, contact channels and sessions.
 * - {@link StackServerApp}: the same with the project's secret server key, plus every user
 *   ({@link ServerUser}) and team ({@link ServerTeam}) of the project.
 * - {@link StackAdminApp}: the project's configuration, e-mail templates, permission definitions and metrics.
 * - {@link createStackClient}: every operation of the API as a typed call, without the apps.
 * - Errors: {@link KnownErrors} lists every error the service answers, with its code, HTTP status,
 *   message and `details`; {@link isKnownError} tests for one, and {@link describeError} turns any
 *   error into words for end users.
 * - Token stores ({@link createCookieTokenStore}, {@link nextCookiesTokenStore}, …) and
 *   {@link verifyAccessToken} for server code that receives a session.
 *
 * @packageDocumentation
 * @module stackkit
 */

// The client app, and the objects the three apps hand out.
export * from "./app/index.js";
// The server and admin apps, apart from the client app's names so that an app
// importing only StackClientApp does not reach them.
export { StackServerApp } from "./app/server-app.js";
export { StackAdminApp } from "./app/admin-app.js";
export { Result } from "./app/result.js";
// A Convex deployment's auth config (the official SDK's `@stackframe/js/convex-auth.config`).
export { getConvexProvidersConfig, type ConvexProviderConfig } from "./app/convex-providers.js";

// The typed client of every operation, its environment and sessions.
export { createStackClient, type StackClient, type StackClientOptions } from "./http/client.js";
export { environment, platformEnvironment, type Environment, type Fetch } from "./platform/env.js";
export { Session, SessionManager, type RefreshAccessToken, type Sessions } from "./sessions/session.js";
export { CLIENT_VERSION, VERSION } from "./version.js";
export { preloadAll as preloadStackkit } from "./platform/lazy.js";
export type { RequestEvent, RequestHooks, RetryEvent, RetryReason } from "./http/observe.js";
export type { TransportPolicy } from "./http/transport.js";
export type { Failover, FailoverOptions } from "./http/origins.js";
export type { OwnerAccessTokenGetter, OwnerSession } from "./http/pipeline.js";

// The operation table: each operation's route, access and known errors.
export {
  operationKnownErrors,
  operations,
  type AccessType,
  type HttpMethod,
  type OperationId,
  type OperationInfo,
  type OperationKnownError,
  type OperationRoute,
} from "../generated/operations.js";
export { readOperationPaths } from "../generated/read-operations.js";
export type { RouteData, RouteInit, Send } from "./http/send.js";

// Errors: the runtime's own, those about one request, and the service's known
// errors (the generated catalogue).
export {
  isStackError,
  NetworkError,
  StackAssertionError,
  StackConfigurationError,
  UserNotSignedInError,
  type StackErrorName,
} from "./errors.js";
export type { StackkitError } from "./stackkit-error.js";
export {
  HttpError,
  RateLimitError,
  RequestTimeoutError,
  ResponseFormatError,
  ServiceVersionError,
  UnexpectedRedirectError,
} from "./http/request-errors.js";
export {
  createKnownError,
  isKnownError,
  isKnownErrorCode,
  KnownError,
  knownErrorClasses,
  KnownErrors,
  knownErrorStatus,
  type KnownErrorClass,
  type KnownErrorClassOf,
  type KnownErrorCode,
  type KnownErrorDetails,
  type KnownErrorInit,
  type KnownErrorJSON,
  type KnownErrorLike,
  type KnownErrorOf,
  type KnownErrorsByCode,
} from "../generated/known-errors.js";
export { SessionEndedError } from "./app/bound-session.js";
// Testing for and making a SessionEndedError without the error catalogue.
export { isSessionEndedError, sessionEndedError } from "./sessions/session-ended.js";

// Token stores, token verification, framework adapters and error messages.
export * from "./sessions/tokens/index.js";
export * from "./sessions/verify/index.js";
export * from "./sessions/adapters/index.js";
export * from "./messages/index.js";

/** The document's schemas, responses and parameters as TypeScript types (openapi-typescript): `components["schemas"]["ClientUser"]`. */
export type { components } from "../generated/schema.js";
/** Each operation's parameters, request body and responses by operationId, as TypeScript types (openapi-typescript). */
export type { operations as OperationTypes } from "../generated/schema.js";
/** Each path's operations by method, as TypeScript types (openapi-typescript): what `client.api` is typed with. */
export type { paths } from "../generated/schema.js";
