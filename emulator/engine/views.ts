// Records as the service shows them: the client and server views of users and
// teams, contact channels, member profiles. One place, so every handler that
// answers a user answers the same user.
import type { AccessType } from "../../generated/operations.js";
import type { components } from "../../generated/schema.js";
import type { ServiceProfile } from "./profile.js";
import type { ContactChannelRecord, MembershipRecord, Store, TeamRecord, UserRecord } from "./store.js";
import type { RestrictedReason } from "./tokens.js";

type Schemas = components["schemas"];

/** Metadata is whatever JSON the app stored; the records keep it as it came. */
const meta = (value: unknown) => value as Schemas["Metadata"];

export function primaryChannelOf(store: Store, userId: string): ContactChannelRecord | undefined {
  return store.channelsOf(userId).find((channel) => channel.is_primary);
}

export function clientTeamView(team: TeamRecord): Schemas["ClientTeam"] {
  return {
    id: team.id,
    display_name: team.display_name,
    profile_image_url: team.profile_image_url,
    client_metadata: meta(team.client_metadata),
    client_read_only_metadata: meta(team.client_read_only_metadata),
  };
}

export function serverTeamView(team: TeamRecord): Schemas["ServerTeam"] {
  return { ...clientTeamView(team), created_at_millis: team.created_at_millis, server_metadata: meta(team.server_metadata) };
}

/** The team view for who asks: server and admin apps see the server view. */
export function teamView(team: TeamRecord, accessType: AccessType): Schemas["ServerTeam"] | Schemas["ClientTeam"] {
  return accessType === "client" ? clientTeamView(team) : serverTeamView(team);
}

/**
 * Why a user is restricted on versions that restrict users (2.8.86: anonymous users always are, and those an
 * administrator restricted); null when not, and always on 2.8.11.
 */
export function restrictedReasonOf(profile: ServiceProfile, store: Store, user: UserRecord | undefined): RestrictedReason | null {
  if (!user || !profile.gatesAnonymousAndRestrictedUsers) return null;
  if (user.is_anonymous) return { type: "anonymous" };
  // The project's requirement comes before an administrator's restriction: the user can lift it.
  if (store.project(user.project_id)?.require_email_verification === true && !primaryChannelOf(store, user.id)?.is_verified)
    return { type: "email_not_verified" };
  return user.restricted_by_admin === true ? { type: "restricted_by_administrator" } : null;
}

/** The restriction fields 2.8.86 adds to users (none on 2.8.11). */
function restrictionFields(profile: ServiceProfile, store: Store, user: UserRecord) {
  if (!profile.gatesAnonymousAndRestrictedUsers) return {};
  const reason = restrictedReasonOf(profile, store, user);
  return {
    is_restricted: reason !== null,
    restricted_reason: reason,
    restricted_by_admin: user.restricted_by_admin === true,
    restricted_by_admin_reason: null,
  };
}

export function clientUserView(store: Store, user: UserRecord, profile: ServiceProfile): Schemas["ClientUser"] {
  const primary = primaryChannelOf(store, user.id);
  const team = user.selected_team_id === null ? undefined : store.team(user.selected_team_id);
  return {
    id: user.id,
    primary_email: primary?.value ?? null,
    primary_email_verified: primary?.is_verified ?? false,
    display_name: user.display_name,
    client_metadata: meta(user.client_metadata),
    client_read_only_metadata: meta(user.client_read_only_metadata),
    profile_image_url: user.profile_image_url,
    signed_up_at_millis: user.signed_up_at_millis,
    has_password: user.password_hash !== null,
    // As the service computes it: the user can sign in with an e-mail (a password, or one-time codes).
    auth_with_email: user.password_hash !== null || user.otp_auth_enabled,
    oauth_providers: user.oauth_providers.map((p) => ({ id: p.id, account_id: p.account_id, email: p.email ?? null })),
    selected_team_id: team ? team.id : null,
    selected_team: team ? clientTeamView(team) : null,
    requires_totp_mfa: user.totp_secret_base64 !== null,
    otp_auth_enabled: user.otp_auth_enabled,
    passkey_auth_enabled: user.passkey_auth_enabled,
    is_anonymous: user.is_anonymous,
    ...restrictionFields(profile, store, user),
  };
}

export function serverUserView(store: Store, user: UserRecord, profile: ServiceProfile): Schemas["ServerUser"] {
  const client = clientUserView(store, user, profile);
  const primary = primaryChannelOf(store, user.id);
  const team = user.selected_team_id === null ? undefined : store.team(user.selected_team_id);
  return {
    ...client,
    primary_email_auth_enabled: primary?.used_for_auth ?? false,
    server_metadata: meta(user.server_metadata),
    last_active_at_millis: user.last_active_at_millis,
    selected_team: team ? serverTeamView(team) : null,
    ...(profile.gatesAnonymousAndRestrictedUsers
      ? { restricted_by_admin_private_details: user.restricted_by_admin_private_details ?? null }
      : {}),
    // The public service's fallback risk engine rates no sign-up a risk; server code may set the scores.
    ...(profile.signUpRisk
      ? { country_code: user.country_code ?? null, risk_scores: { sign_up: user.risk_scores ?? { bot: 0, free_trial_abuse: 0 } } }
      : {}),
  };
}

export function userView(
  store: Store,
  user: UserRecord,
  accessType: AccessType,
  profile: ServiceProfile,
): Schemas["ServerUser"] | Schemas["ClientUser"] {
  return accessType === "client" ? clientUserView(store, user, profile) : serverUserView(store, user, profile);
}

export function contactChannelView(channel: ContactChannelRecord): Schemas["ContactChannel"] {
  return {
    id: channel.id,
    user_id: channel.user_id,
    value: channel.value,
    type: channel.type,
    used_for_auth: channel.used_for_auth,
    is_verified: channel.is_verified,
    is_primary: channel.is_primary,
  };
}

/** A member's profile in a team: the membership's own name and picture, else the user's. */
export function memberProfileView(store: Store, membership: MembershipRecord, accessType: AccessType, service: ServiceProfile) {
  const user = store.user(membership.user_id);
  const profile = {
    team_id: membership.team_id,
    user_id: membership.user_id,
    display_name: membership.display_name ?? user?.display_name ?? null,
    profile_image_url: membership.profile_image_url ?? user?.profile_image_url ?? null,
  };
  return accessType === "client" || !user ? profile : { ...profile, user: serverUserView(store, user, service) };
}

/** A list answer, as the service sends unpaginated lists. */
export function list<T>(items: readonly T[]): { items: T[]; is_paginated: false } {
  return { items: [...items], is_paginated: false };
}
