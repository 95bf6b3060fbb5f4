// The control surface of the emulator, for tests and tools: reset and seed,
// export and import the state, move the clock, inject faults, read the request
// log, the codes and the mail, and create users and sessions directly. The HTTP
// form (`/emulator/v1/…`, emulator/routes.ts) calls these same functions.
import type { KnownErrorCode } from "../generated/known-errors.js";
import type { OperationId } from "../generated/operations.js";
import { createInspection, type EmulatorInspection } from "./control-inspect.js";
import type { Engine, Fault } from "./engine/engine.js";
import type { LoggedRequest } from "./engine/request-log.js";
import { mailboxOf } from "./engine/mail.js";
import { parseSignUpRules, type SignUpRuleCondition, type SignUpRulesConfig } from "./engine/sign-up-rules.js";
import type { CodeRecord, EmailRecord, StateJson, Store, UserRecord } from "./engine/store.js";
import { hashPassword, randomId } from "./engine/tokens.js";
import { fixedChallengeOf, setFixedChallenge } from "./handlers/passkeys.js";
import { grantDefaultProjectPermissions } from "./handlers/permissions.js";

/**
 * What {@link EmulatorControl.createUser} takes: the project, and optionally the
 * user's sign-in e-mail, password, display name and metadata.
 *
 * @example
 * ```ts
 * const options: CreateUserOptions = {
 *   projectId: DEMO_KEYS.projectId,
 *   email: "ada@example.com",
 *   password: "correct-horse-battery",
 *   displayName: "Ada",
 * };
 * const user = await emulator.control.createUser(options);
 * ```
 */
export interface CreateUserOptions {
  /** The project the user belongs to; it must exist in the emulator (e.g. `DEMO_KEYS.projectId`). */
  readonly projectId: string;
  /** The primary e-mail, used for sign-in; default none. Must not already sign in a user of the project. */
  readonly email?: string;
  /** The password to sign in with (stored hashed); default none, so the user has no password. */
  readonly password?: string;
  /** The display name; default null. */
  readonly displayName?: string | null;
  /** Whether the primary e-mail is verified; default true. */
  readonly emailVerified?: boolean;
  /** Whether the user is anonymous; default false. */
  readonly isAnonymous?: boolean;
  /** Whether an administrator restricted the user (on 2.8.86 their tokens are then restricted users'); default false. */
  readonly restrictedByAdmin?: boolean;
  /** The user's client metadata (readable and writable by the user); default `{}`. */
  readonly clientMetadata?: unknown;
  /** The user's server metadata (seen only by server apps); default `{}`. */
  readonly serverMetadata?: unknown;
}

/** What a test does to the emulator's state (`emulator.control`): reset, snapshot and restore it, create users and sessions, read the e-mails and codes it sent, move its clock, inject faults and read the request log. */
export interface EmulatorControl extends EmulatorInspection {
  /**
   * Back to the default projects (or nothing, with `{ empty: true }`): every user, session, code and e-mail gone.
   * Also clears the injected faults, the request log and a fixed passkey challenge.
   *
   * @example
   * ```ts
   * afterEach(() => emulator.control.reset());
   * // A store with no projects at all:
   * emulator.control.reset({ empty: true });
   * ```
   */
  reset(options?: { readonly empty?: boolean }): void;
  /**
   * A JSON snapshot of the whole state (projects, users, sessions, codes, e-mails), for importState or
   * for `createEmulator({ state })`.
   *
   * @example
   * ```ts
   * await createTestUser(emulator, { email: "ada@example.com" });
   * const snapshot = emulator.control.exportState();
   * const copy = await createEmulator({ state: snapshot });
   * ```
   */
  exportState(): StateJson;
  /**
   * Replaces the state with a snapshot from exportState (what was there before is gone).
   *
   * @example
   * ```ts
   * const snapshot = emulator.control.exportState();
   * await createTestUser(emulator, { email: "ada@example.com" });
   * emulator.control.importState(snapshot); // the user is gone again
   * ```
   */
  importState(state: StateJson): void;
  /**
   * Moves the clock forward (expires access tokens, codes, API keys). Throws a RangeError for a negative or
   * non-finite number of milliseconds.
   *
   * @example
   * ```ts
   * // Past the 10-minute access-token lifetime: the next call refreshes the token.
   * emulator.control.advanceClock(11 * 60 * 1000);
   * const user = await app.getUser();
   * ```
   */
  advanceClock(ms: number): void;
  /**
   * The emulator's current time in epoch milliseconds: the real time, shifted by `startTimeMs` and every advanceClock.
   *
   * @example
   * ```ts
   * const before = emulator.control.now();
   * emulator.control.advanceClock(60_000);
   * expect(emulator.control.now() - before).toBeGreaterThanOrEqual(60_000);
   * ```
   */
  now(): number;
  /**
   * Makes the next `times` requests of an operation (default 1; `Infinity` for all) fail as told: a known error,
   * an HTTP status, a 429 with Retry-After, a dropped connection, or added latency.
   *
   * @example
   * ```ts
   * emulator.control.injectFault("listTeams", { kind: "status", status: 503 }, { times: 2 });
   * emulator.control.injectFault("signInWithPassword", { kind: "known-error", code: "EMAIL_PASSWORD_MISMATCH" });
   * emulator.control.injectFault("getCurrentUser", { kind: "latency", ms: 500 });
   * ```
   */
  injectFault(operationId: OperationId, fault: Fault, options?: { readonly times?: number }): void;
  /**
   * Removes every injected fault, also those with requests left to apply to.
   *
   * @example
   * ```ts
   * emulator.control.injectFault("listTeams", { kind: "drop" }, { times: Infinity });
   * // ... assert how the app copes ...
   * emulator.control.clearFaults();
   * ```
   */
  clearFaults(): void;
  /**
   * Every request answered under /api/v1 since the last clear, oldest first, optionally only those of one operation,
   * or only those after the line numbered `since` (what a reader polling the log last saw): number, method, path,
   * operationId, project, access type, status, known error and duration of each.
   *
   * @example
   * ```ts
   * await signInAs(app, user);
   * const signIns = emulator.control.requests({ operationId: "signInWithPassword" });
   * expect(signIns.map((request) => request.status)).toEqual([200]);
   * const newer = emulator.control.requests({ since: signIns.at(-1)!.id });
   * ```
   */
  requests(filter?: { readonly operationId?: OperationId; readonly since?: number }): readonly LoggedRequest[];
  /**
   * Empties the request log, so that requests() shows only what follows.
   *
   * @example
   * ```ts
   * await signInAs(app, user);
   * emulator.control.clearRequests();
   * await app.signOut();
   * console.log(emulator.control.requests().map((request) => `${request.method} ${request.path}`));
   * ```
   */
  clearRequests(): void;
  /**
   * Captured e-mails, oldest first; `to` filters by address or Inbucket mailbox name, `projectId` by project.
   *
   * @example
   * ```ts
   * await app.sendForgotPasswordEmail("ada@example.com", { callbackUrl: "http://localhost:3000/handler/password-reset" });
   * const [email] = emulator.control.emails({ to: "ada@example.com" });
   * expect(email?.subject).toContain("password");
   * ```
   */
  emails(filter?: { readonly to?: string; readonly projectId?: string }): readonly EmailRecord[];
  /**
   * The codes issued (verification, reset, magic link, invitation, MFA, passkey), oldest first; filtered by
   * recipient address (case-insensitive) and kind.
   *
   * @example
   * ```ts
   * await app.sendForgotPasswordEmail("ada@example.com", { callbackUrl: "http://localhost:3000/handler/password-reset" });
   * const [reset] = emulator.control.codes({ recipient: "ada@example.com", kind: "password_reset" });
   * await app.resetPassword({ code: reset!.code, password: "a-new-password-123" });
   * ```
   */
  codes(filter?: { readonly recipient?: string; readonly kind?: CodeRecord["kind"] }): readonly CodeRecord[];
  /**
   * A user made directly (no sign-up request), with a verified primary e-mail used for sign-in; resolves to the
   * emulator's record. Rejects with a RangeError when the project does not exist or the e-mail is taken.
   *
   * @example
   * ```ts
   * const record = await emulator.control.createUser({
   *   projectId: DEMO_KEYS.projectId,
   *   email: "ada@example.com",
   *   password: "correct-horse-battery",
   * });
   * console.log(record.id);
   * ```
   */
  createUser(options: CreateUserOptions): Promise<UserRecord>;
  /**
   * A session for a user, as a sign-in would start it: resolves to its access and refresh tokens. Rejects with a
   * RangeError when there is no such user.
   *
   * @example
   * ```ts
   * const record = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
   * const tokens = await emulator.control.createSession(record.id);
   * const app = appsFor(emulator).client({ tokenStore: tokens });
   * ```
   */
  createSession(userId: string): Promise<{ readonly accessToken: string; readonly refreshToken: string }>;
  /**
   * Whether the project requires a verified e-mail (2.8.86's `onboarding.requireEmailVerification`, which the REST
   * API does not set): on 2.8.86 its users whose primary e-mail is unverified are then restricted
   * (`email_not_verified`). 2.8.11 has no such requirement and ignores it. Default false.
   *
   * @example
   * ```ts
   * emulator.control.setEmailVerificationRequired(DEMO_KEYS.projectId, true);
   * // ... a user who signs up now is restricted until they verify their e-mail ...
   * ```
   */
  setEmailVerificationRequired(projectId: string, required: boolean): void;
  /**
   * Whether client requests to the project must carry its publishable client key (2.8.86's
   * `project.requirePublishableClientKey`): when false, 2.8.86 serves a client request without the key; when true,
   * it refuses one with 401 PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT. 2.8.11 always requires the key and
   * ignores this. Default true.
   *
   * @example
   * ```ts
   * emulator.control.setPublishableClientKeyRequired(DEMO_KEYS.projectId, false);
   * ```
   */
  setPublishableClientKeyRequired(projectId: string, required: boolean): void;
  /**
   * The project's sign-up rules (2.8.86's `auth.signUpRules` and `auth.signUpRulesDefaultAction`, with a structured
   * {@link SignUpRuleCondition} in place of a CEL expression), replacing any before; `{ rules: {} }` for none. On
   * 2.8.86 they decide every sign-up (password, a new user's magic link or OAuth account, an anonymous user's
   * upgrade): `reject` is 403 SIGN_UP_REJECTED, `restrict` makes the user restricted (`restricted_by_administrator`).
   * 2.8.11 has no sign-up rules and ignores them. Throws a TypeError for a malformed rule, a RangeError for an
   * unknown project. Default: no rules, every sign-up allowed.
   *
   * @example
   * ```ts
   * emulator.control.setSignUpRules(DEMO_KEYS.projectId, {
   *   rules: { "no-gmail": { enabled: true, condition: { emailDomains: ["gmail.com"] }, action: { type: "reject" } } },
   *   defaultAction: "allow",
   * });
   * ```
   */
  setSignUpRules(projectId: string, config: SignUpRulesConfig): void;
  /**
   * Makes every passkey ceremony use this challenge (base64url, as `options_json.challenge`
   * shows it), so that a test can compute its WebAuthn answers in advance; null: random
   * challenges again (also after `reset`).
   *
   * @example
   * ```ts
   * emulator.control.setFixedChallenge("dGVzdC1jaGFsbGVuZ2U");
   * // ... register or sign in with a passkey, answering that challenge ...
   * emulator.control.setFixedChallenge(null);
   * ```
   */
  setFixedChallenge(challenge: string | null): void;
  /**
   * The challenge set with setFixedChallenge, or null while challenges are random.
   *
   * @example
   * ```ts
   * emulator.control.setFixedChallenge("dGVzdC1jaGFsbGVuZ2U");
   * expect(emulator.control.fixedChallenge()).toBe("dGVzdC1jaGFsbGVuZ2U");
   * ```
   */
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
    ...createInspection(engine, store),
    reset(options = {}) {
      store.clear();
      engine.faults.length = 0;
      engine.log.clear();
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
    requests: (filter = {}) =>
      engine.log.lines.filter(
        (entry) =>
          (filter.operationId === undefined || entry.operationId === filter.operationId) &&
          (filter.since === undefined || entry.id > filter.since),
      ),
    clearRequests() {
      engine.log.clear();
    },
    emails(filter = {}) {
      const wanted = filter.to?.toLowerCase();
      return store
        .emails()
        .filter((email) => filter.projectId === undefined || email.project_id === filter.projectId)
        .filter((email) => wanted === undefined || email.to.some((to) => to.toLowerCase() === wanted || mailboxOf(to) === wanted))
        .sort((a, b) => a.sent_at_millis - b.sent_at_millis);
    },
    codes(filter = {}) {
      return store
        .codes()
        .filter((code) => filter.kind === undefined || code.kind === filter.kind)
        .filter((code) => filter.recipient === undefined || code.recipient.toLowerCase() === filter.recipient.toLowerCase())
        .sort((a, b) => a.created_at_millis - b.created_at_millis);
    },
    async createUser(o) {
      if (store.project(o.projectId) === undefined) throw new RangeError(`No project ${o.projectId} in the emulator`);
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
        client_metadata: o.clientMetadata ?? null,
        client_read_only_metadata: null,
        server_metadata: o.serverMetadata ?? null,
        selected_team_id: null,
        is_anonymous: o.isAnonymous ?? false,
        ...(o.restrictedByAdmin === true ? { restricted_by_admin: true } : {}),
        otp_auth_enabled: false,
        passkey_auth_enabled: false,
        totp_secret_base64: null,
        password_hash: o.password === undefined ? null : await hashPassword(o.password),
        oauth_providers: [],
      };
      store.insert("users", user);
      grantDefaultProjectPermissions(store, store.project(o.projectId)!, user.id);
      if (o.email !== undefined) {
        store.insert("contactChannels", {
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
      const user = store.user(userId);
      if (!user) throw new RangeError(`No user ${userId} in the emulator`);
      const signedIn = await ctx.signIn(user);
      return { accessToken: signedIn.access_token, refreshToken: signedIn.refresh_token };
    },
    setEmailVerificationRequired(projectId, required) {
      if (!store.updateProject(projectId, { require_email_verification: required }))
        throw new RangeError(`No project ${projectId} in the emulator`);
    },
    setPublishableClientKeyRequired(projectId, required) {
      if (!store.updateProject(projectId, { require_publishable_client_key: required }))
        throw new RangeError(`No project ${projectId} in the emulator`);
    },
    setSignUpRules(projectId, config) {
      if (!store.project(projectId)) throw new RangeError(`No project ${projectId} in the emulator`);
      store.updateProject(projectId, { sign_up_rules: parseSignUpRules(config) });
    },
    setFixedChallenge: (challenge) => setFixedChallenge(store, challenge),
    fixedChallenge: () => fixedChallengeOf(store),
  };
}

export type { Fault, KnownErrorCode, SignUpRuleCondition, SignUpRulesConfig };
