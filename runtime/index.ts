// The runtime entry, `stackkit`: whole-module re-exports only (named lists live in
// ./exports/). It has no statements of its own and names nothing itself, so that a
// bundler follows only what an app imports: a file the entry merely re-exports (the
// error catalogue, the admin app, the verifier) stays out of an app's first load and
// arrives with the code that uses it.

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

export * from "./app/index.js";
export * from "./exports/server-app.js";
export * from "./exports/admin-app.js";
export * from "./exports/result.js";
export * from "./exports/core.js";
export * from "./exports/errors.js";
export * from "./exports/request-errors.js";
export * from "./exports/known-errors.js";
export * from "./exports/session-ended.js";
export * from "./exports/operations.js";
export type { OwnerSession } from "./pipeline.js";
export * from "./tokens/index.js";
export * from "./verify/index.js";
export * from "./adapters/index.js";
export * from "./messages/index.js";

/** The document's schemas, responses and parameters as TypeScript types (openapi-typescript): `components["schemas"]["ClientUser"]`. */
export type { components } from "../generated/schema.js";
/** Each operation's parameters, request body and responses by operationId, as TypeScript types (openapi-typescript). */
export type { operations as OperationTypes } from "../generated/schema.js";
/** Each path's operations by method, as TypeScript types (openapi-typescript): what `client.api` is typed with. */
export type { paths } from "../generated/schema.js";
