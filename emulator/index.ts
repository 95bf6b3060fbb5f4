// The emulator entry, `stackkit/emulator`: a stateful stand-in for the Stack
// Auth API, in-process (give apps its `fetch`; also behind msw in a browser, so
// nothing here imports a node: module). Over HTTP on Node it is
// `stackkit/emulator/server` (`startEmulatorServer`, emulator/server.ts) and the
// `stackkit-emulator` bin (emulator/bin.ts); test helpers are `stackkit/testing`.
export { createEmulator, DEFAULT_API_ORIGIN, type Emulator, type EmulatorOptions } from "./emulator.js";
export type { CreateUserOptions, EmulatorControl } from "./control.js";
export type { Fault, LoggedRequest } from "./engine/engine.js";
export type { StateJson, EmailRecord, CodeRecord, UserRecord } from "./engine/store.js";
export { DEMO_KEYS, INTERNAL_KEYS } from "./engine/seed.js";
export type { InbucketMessage, InbucketMessageHeader } from "./mailbox.js";
