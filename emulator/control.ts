// The control surface of the emulator, for tests and tools: reset and seed,
// export and import the state, move the clock, inject faults, read the request
// log, the codes and the mail, and create users and sessions directly. The HTTP
// form (`/emulator/v1/…`, emulator/routes.ts) calls these same functions.
import type { KnownErrorCode } from "../generated/known-errors.js";
import type { OperationId } from "../generated/operations.js";
import type { Engine, Fault, LoggedRequest } from "./engine/engine.js";
import { mailboxOf } from "./engine/mail.js";
import type { CodeRecord, EmailRecord, StateJson, Store, UserRecord } from "./engine/store.js";
import { hashPassword, randomId } from "./engine/tokens.js";
import { fixedChallengeOf, setFixedChallenge } from "./handlers/passkeys.js";
import { grantDefaultProjectPermissions } from "./handlers/permissions.js";

export interface CreateUserOptions {
  readonly projectId: string;
  readonly email?: string;
  readonly password?: string;
  readonly displayName?: string | null;
  /** Whether the primary e-mail is verified; default true. */
  readonly emailVerified?: boolean;
  readonly isAnonymous?: boolean;
  readonly clientMetadata?: unknown;
  readonly serverMetadata?: unknown;
}

export interface EmulatorControl {
  /** Back to the default projects (or nothing, with `{ empty: true }`): every user, session, code and e-mail gone. */
  reset(options?: { readonly empty?: boolean }): void;
  exportState(): StateJson;
  importState(state: StateJson): void;
  /** Moves the clock forward (expires access tokens, codes, API keys). */
  advanceClock(ms: number): void;
  now(): number;
  /** Makes the next `times` requests of an operation fail (or slow down) as told. */
  injectFault(operationId: OperationId, fault: Fault, options?: { readonly times?: number }): void;
  clearFaults(): void;
  /** Every request answered under /api/v1 since the last clear, oldest first. */
  requests(filter?: { readonly operationId?: OperationId }): readonly LoggedRequest[];
  clearRequests(): void;
  /** Captured e-mails, oldest first; `to` filters by address or Inbucket mailbox name. */
  emails(filter?: { readonly to?: string; readonly projectId?: string }): readonly EmailRecord[];
  /** The codes issued (verification, reset, magic link, invitation), oldest first. */
  codes(filter?: { readonly recipient?: string; readonly kind?: CodeRecord["kind"] }): readonly CodeRecord[];
  /** A user made directly (no sign-up request), with a verified primary e-mail used for sign-in. */
  createUser(options: CreateUserOptions): Promise<UserRecord>;
  /** A session for a user, as a sign-in would start it. */
  createSession(userId: string): Promise<{ readonly accessToken: string; readonly refreshToken: string }>;
  /**
   * Makes every passkey ceremony use this challenge (base64url, as `options_json.challenge`
   * shows it), so that a test can compute its WebAuthn answers in advance; null: random
   * challenges again (also after `reset`).
   */
  setFixedChallenge(challenge: string | null): void;
  fixedChallenge(): string | null;
}

export interface ControlParts {
  readonly engine: Engine;
  readonly store: Store;
  readonly clock: { offset: number };
  readonly seed: () => void;
}

export function createControl(p: ControlParts): EmulatorControl {
  const { engine, store } = p;
  const ctx = engine.ctx;
  return {
    reset(options = {}) {
      store.clear();
      engine.faults.length = 0;
      engine.log.length = 0;
      setFixedChallenge(store, null);
      if (!options.empty) p.seed();
    },
    exportState: () => store.toJSON(),
    importState: (state) => store.load(state),
    advanceClock(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceClock takes a number of milliseconds >= 0, not ${String(ms)}`);
      p.clock.offset += ms;
    },
    now: () => ctx.now(),
    injectFault(operationId, fault, options = {}) {
      engine.faults.push({ operationId, fault, remaining: options.times ?? 1 });
    },
    clearFaults() {
      engine.faults.length = 0;
    },
    requests: (filter = {}) => engine.log.filter((entry) => filter.operationId === undefined || entry.operationId === filter.operationId),
    clearRequests() {
      engine.log.length = 0;
    },
    emails(filter = {}) {
      const wanted = filter.to?.toLowerCase();
      return [...store.tables.emails.values()]
        .filter((email) => filter.projectId === undefined || email.project_id === filter.projectId)
        .filter((email) => wanted === undefined || email.to.some((to) => to.toLowerCase() === wanted || mailboxOf(to) === wanted))
        .sort((a, b) => a.sent_at_millis - b.sent_at_millis);
    },
    codes(filter = {}) {
      return [...store.tables.codes.values()]
        .filter((code) => filter.kind === undefined || code.kind === filter.kind)
        .filter((code) => filter.recipient === undefined || code.recipient.toLowerCase() === filter.recipient.toLowerCase())
        .sort((a, b) => a.created_at_millis - b.created_at_millis);
    },
    async createUser(o) {
      if (!store.tables.projects.has(o.projectId)) throw new RangeError(`No project ${o.projectId} in the emulator`);
      if (o.email !== undefined && store.authChannelByEmail(o.projectId, o.email)) {
        throw new RangeError(`A user of project ${o.projectId} already signs in with ${o.email}`);
      }
      const now = ctx.now();
      const user: UserRecord = {
        id: randomId(),
        project_id: o.projectId,
        display_name: o.displayName ?? null,
        profile_image_url: null,
        signed_up_at_millis: now,
        last_active_at_millis: now,
        client_metadata: o.clientMetadata ?? {},
        client_read_only_metadata: {},
        server_metadata: o.serverMetadata ?? {},
        selected_team_id: null,
        is_anonymous: o.isAnonymous ?? false,
        otp_auth_enabled: false,
        passkey_auth_enabled: false,
        totp_secret_base64: null,
        password_hash: o.password === undefined ? null : await hashPassword(o.password),
        oauth_providers: [],
      };
      store.put("users", user);
      grantDefaultProjectPermissions(store, store.tables.projects.get(o.projectId)!, user.id);
      if (o.email !== undefined) {
        store.put("contactChannels", {
          id: randomId(),
          project_id: o.projectId,
          user_id: user.id,
          type: "email",
          value: o.email,
          is_verified: o.emailVerified ?? true,
          is_primary: true,
          used_for_auth: true,
        });
      }
      return user;
    },
    async createSession(userId) {
      const user = store.tables.users.get(userId);
      if (!user) throw new RangeError(`No user ${userId} in the emulator`);
      const signedIn = await ctx.signIn(user);
      return { accessToken: signedIn.access_token, refreshToken: signedIn.refresh_token };
    },
    setFixedChallenge: (challenge) => setFixedChallenge(store, challenge),
    fixedChallenge: () => fixedChallengeOf(store),
  };
}

export type { Fault, KnownErrorCode };
