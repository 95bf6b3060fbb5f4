// What each app was built with, kept beside it rather than on it: the runtime
// client's settings (access type, keys, a project owner's session) and the
// context every flow and object of the app works on. The package reads these
// through internalsOf (a server app taking a client app's options with
// inheritsFrom, an owned project's admin app); the map is not exported from
// the package, so callers of the public classes neither see nor set them.
import { StackAssertionError } from "../errors.js";
import type { OwnerAccessTokenGetter, OwnerSession } from "../http/pipeline.js";
import type { ClientAppContext } from "./context.js";

/** What a server or admin app adds to the runtime client: its access type and keys, or a project owner's session. */
export interface RuntimeClientSettings {
  readonly accessType: "client" | "server" | "admin";
  readonly secretServerKey?: string;
  readonly superSecretAdminKey?: string;
  /** Admin apps acting for a project owner: the owner's session in the internal project (or a getter of its access token), instead of keys. */
  readonly projectOwnerSession?: OwnerSession | OwnerAccessTokenGetter;
}

export interface AppInternals {
  /** The app's own context: its runtime client (with the settings below), URLs, navigation and browser. */
  readonly ctx: ClientAppContext;
  readonly settings: RuntimeClientSettings;
}

/**
 * How an app class turns the options its constructor was given into the
 * runtime client's settings. Each class answers for its own kind (a client app
 * never has keys); the base constructor asks the class being constructed
 * (`new.target`), so that the settings exist before the runtime client is made.
 */
export const runtimeSettingsOf: unique symbol = Symbol("stackkit.runtimeSettingsOf");

const internals = new WeakMap<object, AppInternals>();

/** Records what `app` was built with; once, from the constructor that builds it. */
export function setInternals(app: object, value: AppInternals): void {
  if (internals.has(app)) throw new StackAssertionError("an app's internals are set once, when it is constructed");
  internals.set(app, value);
}

/** What `app` was built with; undefined for anything that is not an app of this package. */
export function internalsOf(app: unknown): AppInternals | undefined {
  return typeof app === "object" && app !== null ? internals.get(app) : undefined;
}
