// Every operation's handler, by area. An operation of the document without a
// handler answers 501 and fails tests/emulator/handlers.test.ts.
import type { Handlers } from "../engine/context.js";
import { authHandlers } from "./auth.js";
import { projectHandlers } from "./projects.js";
import { permissionHandlers } from "./permissions.js";
import { teamInvitationHandlers } from "./team-invitations.js";
import { teamHandlers } from "./teams.js";
import { apiKeyHandlers } from "./api-keys.js";
import { internalHandlers } from "./internal.js";
import { userHandlers } from "./users.js";
import { contactChannelHandlers } from "./contact-channels.js";
import { oauthHandlers } from "./oauth.js";
import { cliHandlers } from "./cli.js";
import { adminEmailHandlers } from "./admin-email.js";
import { tsxTemplateHandlers } from "./email-templates-tsx.js";
import { adminMiscHandlers } from "./admin-misc.js";
import { passkeyHandlers } from "./passkeys.js";
import { mfaHandlers } from "./mfa.js";

export const handlers: Handlers = {
  ...projectHandlers,
  ...teamHandlers,
  ...teamInvitationHandlers,
  ...permissionHandlers,
  ...authHandlers,
  ...apiKeyHandlers,
  ...internalHandlers,
  ...userHandlers,
  ...contactChannelHandlers,
  ...oauthHandlers,
  ...cliHandlers,
  ...adminEmailHandlers,
  ...tsxTemplateHandlers,
  ...adminMiscHandlers,
  ...passkeyHandlers,
  ...mfaHandlers,
};
