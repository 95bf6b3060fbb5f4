// OAuth's accounts: who a provider account the callback brings is. A link
// flow adds it to the user who started it; otherwise a user who has it signs
// in, an e-mail someone signs in with already is merged as the project's
// strategy says, an anonymous caller is upgraded, or a new user signs up.
// Every flow adds the scopes it was granted to the account.
import { requireVisibleChallengePassed, type BotChallengeAssessment } from "../engine/bot-challenge.js";
import type { EmulatorContext } from "../engine/context.js";
import { fail, statusFailure } from "../engine/errors.js";
import type { ProjectRecord, Store, UserRecord } from "../engine/store.js";
import { upgradeAnonymousUser } from "./auth-shared.js";
import { authChannelTaken, createPersonalTeamIfEnabled, createUserRecord } from "./common.js";
import { admitSignUp } from "./sign-up-rules.js";

/** Who the user said they are at the fake provider. */
export interface Identity {
  readonly provider: string;
  /** The inner state of the flow the grant is for. */
  readonly state: string;
  readonly account_id: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly email_verified: boolean;
}

/** The user of the project who has this provider account. */
function accountOwner(store: Store, projectId: string, provider: string, accountId: string): UserRecord | undefined {
  for (const user of store.usersOf(projectId)) {
    if (user.oauth_providers.some((p) => p.id === provider && p.account_id === accountId)) return user;
  }
  return undefined;
}

/** Links the account to the user, or adds this flow's scopes to it (the service keeps every token it got, with its scopes). */
function addAccount(store: Store, user: UserRecord, identity: Identity, scopes: readonly string[]): void {
  const account = user.oauth_providers.find((p) => p.id === identity.provider && p.account_id === identity.account_id);
  const accounts = account
    ? user.oauth_providers.map((p) => (p === account ? { ...p, scopes: [...new Set([...(p.scopes ?? []), ...scopes])] } : p))
    : [...user.oauth_providers, { id: identity.provider, account_id: identity.account_id, email: identity.email, scopes: [...scopes] }];
  store.updateUser(user.id, { oauth_providers: accounts });
}

/** A link flow: the account joins the user who started it, unless either is connected elsewhere already. */
export function linkAccount(
  ctx: EmulatorContext,
  project: ProjectRecord,
  userId: string | null,
  identity: Identity,
  scopes: readonly string[],
) {
  const user = ctx.store.user(userId ?? "");
  if (!user || user.project_id !== project.id) throw statusFailure(500, "User not found");
  const current = user.oauth_providers.find((p) => p.id === identity.provider);
  if (current && current.account_id !== identity.account_id) throw fail("USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION");
  const owner = accountOwner(ctx.store, project.id, identity.provider, identity.account_id);
  if (owner && owner.id !== user.id) throw fail("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER");
  addAccount(ctx.store, user, identity, scopes);
  return { user, isNewUser: false };
}

/** Sign-in with a known account, else sign-up, where the e-mail may belong to a user already: the project's merge strategy decides. */
export async function signInOrUp(
  ctx: EmulatorContext,
  project: ProjectRecord,
  identity: Identity,
  scopes: readonly string[],
  o: {
    /** The anonymous user whose token the flow carried (2.8.86 upgrades them). */
    readonly anonymousId: string | null;
    readonly botChallenge: BotChallengeAssessment | null;
    /** The country of the callback's request, where the browser comes back from the provider. */
    readonly requestCountry: string | null;
  },
) {
  const owner = accountOwner(ctx.store, project.id, identity.provider, identity.account_id);
  if (owner) {
    addAccount(ctx.store, owner, identity, scopes);
    return { user: owner, isNewUser: false };
  }
  if (!project.config.sign_up_enabled) throw fail("SIGN_UP_NOT_ENABLED");
  let emailAuth = false;
  if (identity.email) {
    emailAuth = true;
    const channel = ctx.store.authChannelByEmail(project.id, identity.email);
    const existing = channel && ctx.store.user(channel.user_id);
    if (channel && existing) {
      const taken = (wouldWorkIfVerified = false) => authChannelTaken(ctx, identity.email, wouldWorkIfVerified);
      switch (project.config.oauth_account_merge_strategy) {
        case "link_method":
          // Linking would work once the holder verifies the address, not when the provider's is unverified.
          if (!channel.is_verified) throw taken(true);
          if (!identity.email_verified) throw taken();
          addAccount(ctx.store, existing, identity, scopes);
          return { user: existing, isNewUser: false };
        case "raise_error":
          throw taken();
        case "allow_duplicates":
          emailAuth = false;
      }
    }
  }
  const anonymous = o.anonymousId === null ? undefined : ctx.store.user(o.anonymousId);
  const upgrading = anonymous?.is_anonymous && anonymous.project_id === project.id ? anonymous : undefined;
  if (o.botChallenge) requireVisibleChallengePassed(o.botChallenge);
  const admitted = admitSignUp(
    ctx,
    project,
    { email: identity.email, authMethod: "oauth", oauthProvider: identity.provider, requestCountry: o.requestCountry },
    upgrading,
  );
  if (upgrading) {
    // The anonymous user of the flow's token becomes the account's user (2.8.86).
    if (identity.email)
      await upgradeAnonymousUser(ctx, project, upgrading, { email: identity.email, emailVerified: identity.email_verified });
    ctx.store.updateUser(upgrading.id, { is_anonymous: false, display_name: upgrading.display_name ?? identity.name });
    addAccount(ctx.store, upgrading, identity, scopes);
    admitted(upgrading);
    return { user: upgrading, isNewUser: true };
  }
  const user = await createUserRecord(ctx, project, {
    email: identity.email,
    emailVerified: identity.email_verified,
    emailAuth,
    displayName: identity.name,
  });
  addAccount(ctx.store, user, identity, scopes);
  createPersonalTeamIfEnabled(ctx, project, user);
  admitted(user);
  return { user, isNewUser: true };
}
