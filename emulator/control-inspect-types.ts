// What the control functions of emulator/control-inspect.ts answer and take: summaries of projects, users,
// teams and sessions (what a list shows of each), a page of a list, a team with its members, the changes
// an administrator makes to a user, a sign-in as a user, a pending fault.
import type { components } from "../generated/schema.js";
import type { OperationId } from "../generated/operations.js";
import type { Fault } from "./engine/engine.js";

/** A project of the emulator and the keys apps authenticate with (`control.projects()`). */
export interface ProjectSummary {
  readonly id: string;
  readonly displayName: string;
  /** Each key set of the project that is neither revoked nor expired. */
  readonly keys: readonly {
    readonly publishableClientKey: string | null;
    readonly secretServerKey: string | null;
    readonly superSecretAdminKey: string | null;
  }[];
}

/** One line of a project's user list (`control.listUsers()`). */
export interface UserSummary {
  readonly id: string;
  readonly displayName: string | null;
  readonly primaryEmail: string | null;
  readonly primaryEmailVerified: boolean;
  readonly isAnonymous: boolean;
  /** Why 2.8.86 restricts the user (`anonymous`, `email_not_verified`, `restricted_by_administrator`); null when it does not, and always on 2.8.11. */
  readonly restrictedReason: string | null;
  readonly signedUpAtMillis: number;
  readonly teams: readonly { readonly id: string; readonly displayName: string }[];
}

/** One line of a project's team list (`control.listTeams()`). */
export interface TeamSummary {
  readonly id: string;
  readonly displayName: string;
  readonly createdAtMillis: number;
  readonly memberCount: number;
}

/** One page of a list, and the cursor of the next page (null after the last). */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
  /** How many there are in all; null when a query filters them (counting would read every one). */
  readonly total: number | null;
}

/**
 * What {@link EmulatorInspection.listUsers} and {@link EmulatorInspection.listTeams} take: a query, a cursor and a page size.
 *
 * @example
 * ```ts
 * const options: ListPageOptions = { query: "example.com", limit: 20 };
 * const page = emulator.control.listUsers(DEMO_KEYS.projectId, options);
 * ```
 */
export interface ListPageOptions {
  /** Only those whose id, display name (or, for users, primary e-mail) contains this, any case; default all. */
  readonly query?: string;
  /** The `nextCursor` of the page before; default the first page. */
  readonly cursor?: string;
  /** How many on a page, 1 to 200; default 50. */
  readonly limit?: number;
}

/** A team with its members and what each may do (`control.team()`). */
export interface TeamDetails {
  readonly team: components["schemas"]["ServerTeam"];
  readonly members: readonly {
    readonly userId: string;
    readonly displayName: string | null;
    readonly primaryEmail: string | null;
    /** The team permissions the member holds, those contained in others included. */
    readonly permissions: readonly string[];
  }[];
}

/** A session of a user (`control.sessions()`): no token is shown. */
export interface SessionSummary {
  readonly id: string;
  readonly createdAtMillis: number;
  readonly lastUsedAtMillis: number | null;
  readonly expiresAtMillis: number | null;
  readonly isImpersonation: boolean;
}

/**
 * What {@link EmulatorInspection.updateUser} changes; a field left out stays as it is.
 *
 * @example
 * ```ts
 * const changes: UpdateUserOptions = { displayName: "Ada L.", primaryEmailVerified: true, serverMetadata: { plan: "pro" } };
 * emulator.control.updateUser(record.id, changes);
 * ```
 */
export interface UpdateUserOptions {
  /** The display name; null for none. */
  readonly displayName?: string | null;
  /** The client metadata (readable and writable by the user). */
  readonly clientMetadata?: unknown;
  /** The client read-only metadata (readable by the user, writable by the server). */
  readonly clientReadOnlyMetadata?: unknown;
  /** The server metadata (seen only by server apps). */
  readonly serverMetadata?: unknown;
  /** Whether the primary e-mail is verified; the user must have one. */
  readonly primaryEmailVerified?: boolean;
  /** Whether an administrator restricted the user: 2.8.86 then restricts them (2.8.11 keeps it and ignores it). */
  readonly restrictedByAdmin?: boolean;
}

/** What a sign-in as a user gives: a session's tokens, and a magic link into the app when a callback URL was given. */
export interface SignInAs {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** The callback URL with a one-time magic-link `code` for the user's primary e-mail; null without one. */
  readonly link: string | null;
}

/** A fault waiting for the requests it applies to (`control.faults()`). */
export interface PendingFault {
  readonly operationId: OperationId;
  readonly fault: Fault;
  /** How many more requests it applies to; Infinity for all. */
  readonly remaining: number;
}
