// A user's primary e-mail as server code changes it (`PATCH /users/{id}`, `PATCH /users/me`), once every check
// has passed. The versions differ in what becomes of the address it replaces: 2.8.11 changes the primary channel
// in place and deletes it when the primary e-mail is removed; 2.8.86 keeps it as one of the user's other channels
// (still signing in if it did) and makes the new address a channel of its own, unverified unless told.
import type { EmulatorContext } from "../engine/context.js";
import type { ProjectRecord, UserRecord } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { primaryChannelOf } from "../engine/views.js";

/** What an update says of the primary e-mail: the new address (null: removed; undefined: kept) and the flags as given or kept. */
export interface PrimaryEmailChange {
  /** The address as the version stores it; null removes it; undefined keeps it. */
  readonly email: string | null | undefined;
  /** `primary_email_verified` as given (undefined: not given). */
  readonly verifiedGiven: boolean | undefined;
  /** Whether the primary e-mail signs in afterwards (given, else as it was). */
  readonly authEnabled: boolean;
  /** Whether the primary e-mail is verified afterwards (given, else as it was). */
  readonly verified: boolean;
}

/** Applies a checked change of the primary e-mail, as the profile's version does. */
export function applyPrimaryEmail(ctx: EmulatorContext, project: ProjectRecord, user: UserRecord, change: PrimaryEmailChange): void {
  const { store } = ctx;
  const primary = primaryChannelOf(store, user.id);
  if (change.email === undefined) {
    if (primary) store.updateChannel(primary.id, { is_verified: change.verified, used_for_auth: change.authEnabled });
    return;
  }
  const keepsOld = ctx.profile.primaryEmailChange === "new-channel";
  if (change.email === null) {
    if (primary && keepsOld) store.updateChannel(primary.id, { is_primary: false });
    else if (primary) store.deleteChannel(primary.id);
    return;
  }
  // The user's channel with that address becomes the primary one; else 2.8.11 gives the primary channel the new
  // address in place (keeping its verification unless told), and 2.8.86 makes a new channel.
  const existing = store.channelsOf(user.id).find((channel) => channel.value === change.email);
  const target = existing ?? (keepsOld ? undefined : primary);
  if (primary && primary.id !== target?.id) store.updateChannel(primary.id, { is_primary: false });
  if (target) {
    store.updateChannel(target.id, {
      value: change.email,
      is_primary: true,
      used_for_auth: change.authEnabled,
      is_verified: change.verifiedGiven ?? target.is_verified,
    });
    return;
  }
  store.insert("contactChannels", {
    id: randomId(),
    project_id: project.id,
    user_id: user.id,
    type: "email",
    value: change.email,
    is_verified: change.verifiedGiven ?? false,
    is_primary: true,
    used_for_auth: change.authEnabled,
  });
}
