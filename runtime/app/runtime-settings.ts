// How the server and admin apps give the runtime client what a client app never
// has: their access type and keys, or a project owner's session. They attach
// these settings to the options object they pass to super(), through a map
// that the package does not export: a caller of the public constructors cannot
// give a client app secret keys, nor a server app admin access.
import type { OwnerSession } from "../pipeline.js";

/** The settings a subclass (server or admin app) adds to the runtime client. */
export interface RuntimeClientSettings {
  readonly accessType?: "client" | "server" | "admin";
  readonly secretServerKey?: string;
  readonly superSecretAdminKey?: string;
  /** Admin apps acting for a project owner: the owner's session in the internal project, instead of keys. */
  readonly projectOwnerSession?: OwnerSession;
}

const runtimeSettings = new WeakMap<object, RuntimeClientSettings>();

/** `options` with `settings` attached, for the server and admin apps' super() call only. */
export function withRuntimeSettings<O extends object>(options: O, settings: RuntimeClientSettings): O {
  const carrier = { ...options };
  runtimeSettings.set(carrier, settings);
  return carrier;
}

/** The settings a subclass attached to `options`; none for options from anywhere else. */
export function runtimeSettingsOf(options: object): RuntimeClientSettings {
  return runtimeSettings.get(options) ?? {};
}
