// Every operation's handler: one table from operationId to handler, made of
// each area's map. The areas must be disjoint: merging maps lets a later one
// silently replace an earlier one's handler, so an operation handled by two
// areas fails to compile (the error names it). An operation of the document
// without a handler answers 501 and fails tests/emulator/handlers.test.ts.
import type { Handlers } from "../engine/context.js";
import { adminEmailHandlers } from "./admin-email.js";
import { adminMiscHandlers } from "./admin-misc.js";
import { apiKeyHandlers } from "./api-keys.js";
import { otpHandlers } from "./auth-otp.js";
import { passwordHandlers } from "./auth-password.js";
import { featureSupportHandlers } from "./auth.js";
import { cliHandlers } from "./cli.js";
import { contactChannelHandlers } from "./contact-channels.js";
import { tsxTemplateHandlers } from "./email-templates-tsx.js";
import { internalHandlers } from "./internal.js";
import { mfaHandlers } from "./mfa.js";
import { oauthHandlers } from "./oauth.js";
import { oauthTokenHandlers } from "./oauth-token.js";
import { passkeyHandlers } from "./passkeys.js";
import { permissionHandlers } from "./permissions.js";
import { projectHandlers } from "./projects.js";
import { sessionHandlers } from "./sessions.js";
import { teamInvitationHandlers } from "./team-invitations.js";
import { teamHandlers } from "./teams.js";
import { userHandlers } from "./users.js";

/** Each area's handlers, by area. */
export const areas = {
  projects: projectHandlers,
  teams: teamHandlers,
  teamInvitations: teamInvitationHandlers,
  permissions: permissionHandlers,
  password: passwordHandlers,
  otp: otpHandlers,
  sessions: sessionHandlers,
  featureSupport: featureSupportHandlers,
  apiKeys: apiKeyHandlers,
  internal: internalHandlers,
  users: userHandlers,
  contactChannels: contactChannelHandlers,
  oauth: oauthHandlers,
  oauthToken: oauthTokenHandlers,
  cli: cliHandlers,
  adminEmail: adminEmailHandlers,
  tsxTemplates: tsxTemplateHandlers,
  adminMisc: adminMiscHandlers,
  passkeys: passkeyHandlers,
  mfa: mfaHandlers,
} as const;

type Areas = typeof areas;
type OthersOf<A extends keyof Areas> = Exclude<keyof Areas, A>;
/** The operation ids that two areas both handle. */
type Duplicated = { [A in keyof Areas]: { [B in OthersOf<A>]: keyof Areas[A] & keyof Areas[B] }[OthersOf<A>] }[keyof Areas];
type MustBeNone<T extends never> = T;
/** Does not compile while an operation has two handlers: the error names the operation. */
export type NoOperationHandledTwice = MustBeNone<Duplicated>;

/** The handler of every operation. */
export const handlers: Handlers = Object.assign({}, ...Object.values(areas));
