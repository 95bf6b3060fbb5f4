// The runtime entry, `stackkit`: whole-module re-exports only (named lists live in
// ./exports/). It has no statements of its own and names nothing itself, so that a
// bundler follows only what an app imports: a file the entry merely re-exports (the
// error catalogue, the admin app, the verifier) stays out of an app's first load and
// arrives with the code that uses it.

export * from "./app/index.js";
export * from "./exports/server-app.js";
export * from "./exports/admin-app.js";
export * from "./exports/result.js";
export * from "./exports/core.js";
export * from "./exports/errors.js";
export * from "./exports/request-errors.js";
export * from "./exports/known-errors.js";
export * from "./exports/operations.js";
export type { OwnerSession } from "./pipeline.js";
export * from "./tokens/index.js";
export * from "./verify/index.js";
export * from "./adapters/index.js";
export * from "./messages/index.js";

export type { components, operations as OperationTypes, paths } from "../generated/schema.js";
