// What an admin app acts with: the project's super secret admin key, or a
// project owner's session in the internal project instead of any key (then no
// key headers at all). Checked before the app is built, as mixing them would
// send both; the runtime client's settings are made of what was checked.
import { requireOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import type { OwnerAccessTokenGetter, OwnerSession } from "../../http/pipeline.js";
import type { RuntimeClientSettings } from "../app-internals.js";
import type { StackServerAppOptions } from "../server/inherit.js";

/** What an admin app is given besides a server app's options. */
export interface AdminCredentials {
  readonly superSecretAdminKey?: string;
  readonly projectOwnerSession?: OwnerSession | OwnerAccessTokenGetter;
}

/**
 * The options of an admin app, checked, for the server app's constructor: with
 * the owner session and no keys at all (a key beside the session would be sent
 * too, so mixing them is refused), or with the super secret admin key.
 */
export function checkedAdminOptions(options: object): StackServerAppOptions & AdminCredentials {
  requireOptions(
    options,
    "StackAdminApp",
    "{ projectId, tokenStore, superSecretAdminKey, ... } or { projectId, tokenStore, projectOwnerSession }",
  );
  // Either form of StackAdminAppOptions, read as one: each key is checked below.
  const given = options as StackServerAppOptions & AdminCredentials;
  const { superSecretAdminKey, projectOwnerSession } = given;
  if (projectOwnerSession !== undefined) {
    const isSession =
      typeof projectOwnerSession === "object" &&
      typeof projectOwnerSession?.getTokens === "function" &&
      typeof projectOwnerSession.markAccessTokenExpired === "function";
    if (!isSession && typeof projectOwnerSession !== "function") {
      throw new StackConfigurationError(
        "projectOwnerSession must be a session of the internal project (an object with getTokens() and markAccessTokenExpired()), " +
          "or a function answering the project owner's access token (() => Promise<string | null>).",
      );
    }
    if (superSecretAdminKey !== undefined || given.secretServerKey !== undefined || given.publishableClientKey !== undefined) {
      throw new StackConfigurationError(
        "StackAdminApp takes either projectOwnerSession or the project's keys, not both: leave out publishableClientKey, secretServerKey and superSecretAdminKey when you pass projectOwnerSession.",
      );
    }
  } else if (typeof superSecretAdminKey !== "string" || superSecretAdminKey === "") {
    throw new StackConfigurationError(
      "StackAdminApp needs superSecretAdminKey: the super secret admin key of your project (Stack Auth dashboard → Project Keys), or projectOwnerSession for a project owner. Keep it on the server.",
    );
  }
  // The admin project is read afresh on every getProject(), so a prefetch would be a wasted request
  // (and the client app would send it before this app's server context exists).
  return { ...given, noAutomaticPrefetch: true };
}

/** The runtime client's settings of an admin app, from options checkedAdminOptions has checked: access type "admin" with the owner's session, or with the keys. */
export function adminRuntimeSettings(options: StackServerAppOptions & AdminCredentials): RuntimeClientSettings {
  const { projectOwnerSession, superSecretAdminKey, secretServerKey } = options;
  if (projectOwnerSession !== undefined) return { accessType: "admin", projectOwnerSession };
  return {
    accessType: "admin",
    ...(superSecretAdminKey !== undefined && { superSecretAdminKey }),
    ...(secretServerKey !== undefined && { secretServerKey }),
  };
}
