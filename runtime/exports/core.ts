// One group of the package entry's named exports. The entry re-exports each
// group whole (export *), so that importing one name here makes a bundler follow
// this group's module only, never every module the entry names.
export { createStackClient, type StackClient, type StackClientOptions } from "../client.js";
export { environment, platformEnvironment, type Environment, type Fetch } from "../env.js";
export { Session, SessionManager, type RefreshAccessToken, type Sessions } from "../session.js";
export { CLIENT_VERSION, VERSION } from "../version.js";
export { preloadAll as preloadStackkit } from "../lazy.js";
export type { RequestEvent, RequestHooks, RetryEvent, RetryReason } from "../observe.js";
export type { TransportPolicy } from "../transport.js";
