// The emulator entry, `stackkit/emulator`: a stateful stand-in for the Stack
// Auth API, in-process (give apps its `fetch`; also behind msw in a browser, so
// nothing here imports a node: module). Over HTTP on Node it is
// `stackkit/emulator/server` (`startEmulatorServer`, emulator/server.ts) and the
// `stackkit-emulator` bin (emulator/bin.ts); test helpers are `stackkit/testing`.
/**
 * A stateful stand-in for the Stack Auth API, in-process: users, teams, sessions,
 * e-mails and codes live in memory, and apps reach it through its `fetch`.
 *
 * Where to start: {@link createEmulator} answers an {@link Emulator}; give apps its `fetch`
 * (or its `baseUrl` over HTTP, `stackkit/emulator/server`), the project's keys
 * ({@link DEMO_KEYS}), and prepare or inspect its state with {@link EmulatorControl}.
 * For an app's tests, `stackkit/testing` wraps it.
 *
 * @packageDocumentation
 * @module stackkit/emulator
 */

export { createEmulator, DEFAULT_API_ORIGIN, type Emulator, type EmulatorOptions } from "./emulator.js";
export type { CreateUserOptions, EmulatorControl } from "./control.js";
export type { EmulatorInspection } from "./control-inspect.js";
export type {
  ListPageOptions,
  ListPage,
  PendingFault,
  ProjectSummary,
  SessionSummary,
  SignInAs,
  TeamDetails,
  TeamSummary,
  UpdateUserOptions,
  UserSummary,
} from "./control-inspect-types.js";
export type { Exchange, Fault } from "./engine/engine.js";
export type { LoggedExchange, LoggedRequest } from "./engine/request-log.js";
export type { StateJson, EmailRecord, CodeKind, CodeRecord, UserRecord } from "./engine/store.js";
export { DEMO_KEYS, INTERNAL_KEYS } from "./engine/seed.js";
export { DEFAULT_SERVICE_VERSION, SERVICE_VERSIONS, type ServiceVersion } from "./engine/profile.js";
export type { SignUpAuthMethod, SignUpRule, SignUpRuleActionType, SignUpRuleCondition, SignUpRulesConfig } from "./engine/sign-up-rules.js";
export type { InbucketMessage, InbucketMessageHeader } from "./mailbox.js";
export type { SharedEmailServer } from "./engine/mail.js";
