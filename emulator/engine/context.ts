// What every handler is given: the request as the engine understood it (the
// operation, its parameters, the authenticated caller) and the emulator's
// shared parts (state, clock, signing key, mailer). Handlers are functions of
// these two, so each area of the API is one module.
import type { AccessType, OperationId } from "../../generated/operations.js";
import type { Answer } from "./http.js";
import type { Mailer } from "./mail.js";
import type { ProjectRecord, SessionRecord, Store, UserRecord } from "./store.js";
import type { ServiceProfile } from "./profile.js";
import type { Signers } from "./tokens.js";

export interface EmulatorRequest {
  readonly operationId: OperationId;
  readonly method: string;
  readonly url: URL;
  /** Path parameters by name, decoded (`me` is left as `me`). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON (or form) body, checked against the document; undefined without one. */
  readonly body: any;
  readonly headers: Headers;
  /** The id the answer carries in `x-stack-request-id` (and the service's 500 text names). */
  readonly requestId: string;
  /** The project the request authenticated for; undefined only for operations without project authentication. */
  readonly project: ProjectRecord;
  readonly accessType: AccessType;
  /** The user of `x-stack-access-token`, when one was sent and is valid. */
  readonly user: UserRecord | null;
  /** The session the access token belongs to. */
  readonly session: SessionRecord | null;
  /** For admin requests made with a project owner's admin access token: that owner (a user of the internal project). */
  readonly owner: UserRecord | null;
}

export interface EmulatorContext {
  readonly store: Store;
  /** The projects' signing keys. */
  readonly signers: Signers;
  /** The service version the emulator answers as, and what differs with it: handlers read this, never the version. */
  readonly profile: ServiceProfile;
  readonly mail: Mailer;
  /** The emulator's clock (ms since the epoch), which tests can move forward. */
  now(): number;
  /** The API origin apps use (token issuers, links in e-mails). */
  readonly apiOrigin: string;
  /** Where stored files' URLs point (2.8.86's pictures and logos): `<apiOrigin>/emulator/storage` unless told otherwise. */
  readonly storageUrl: string;
  readonly accessTokenLifetimeMs: number;
  /** Starts a session for a user: a refresh token and a first access token. */
  signIn(user: UserRecord, options?: { readonly isImpersonation?: boolean; readonly expiresAtMillis?: number | null }): Promise<SignedIn>;
  /** A fresh access token for a session. */
  accessTokenFor(session: SessionRecord): Promise<string>;
  /** Records a one-time code (e-mail verification, password reset, magic link, invitation) and returns it. */
  issueCode(o: IssueCode): string;
}

export interface IssueCode {
  readonly projectId: string;
  readonly kind: import("./store.js").CodeKind;
  readonly recipient: string;
  /** The callback URL the code is appended to (`?code=`), when it is mailed as a link. */
  readonly callbackUrl: string | null;
  readonly lifetimeMs: number;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface SignedIn {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly session: SessionRecord;
}

export type Handler = (request: EmulatorRequest, ctx: EmulatorContext) => Answer | Promise<Answer>;

/** Every operation's handler; each area's module contributes its part. */
export type Handlers = { readonly [K in OperationId]?: Handler };
