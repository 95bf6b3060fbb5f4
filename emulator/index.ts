// The emulator entry, `stackkit/emulator`: a stateful stand-in for the Stack
// Auth API, in-process (its `fetch`) or over HTTP (`startEmulatorServer`).
export { createEmulator, DEFAULT_API_ORIGIN, type Emulator, type EmulatorOptions } from "./emulator.js";
export type { CreateUserOptions, EmulatorControl } from "./control.js";
export type { Fault, LoggedRequest } from "./engine/engine.js";
export type { StateJson, EmailRecord, CodeRecord, UserRecord } from "./engine/store.js";
export { DEMO_KEYS, INTERNAL_KEYS } from "./engine/seed.js";
