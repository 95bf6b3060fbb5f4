// A server user's sessions (SPEC §3 "Session", §6; endpoints.md §C): the list,
// revoking one, and creating one, which is how server code impersonates a user.
import { checkAborted, signalOf, type CallOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import type { UserSessionMethods } from "../objects/active-session.js";
import { activeSessionFromWire } from "../objects/active-session.js";
import { answered, itemsOf } from "../wire.js";
import { segment } from "./common.js";
import type { ServerAppContext } from "./context.js";

/** The reference's default lifetime of a created session's refresh token: 365 days. */
export const DEFAULT_SESSION_EXPIRES_IN_MILLIS = 31_536_000_000;

/**
 * How long a session made by server code (`user.createSession`) lasts, and whether it is an
 * impersonation.
 *
 * @example
 * ```ts
 * const options: CreateSessionOptions = { expiresInMillis: 60 * 60 * 1000, isImpersonation: true };
 * const session = await user.createSession(options);
 * const { refreshToken } = await session.getTokens();
 * ```
 */
export interface CreateSessionOptions {
  /** Lifetime of the refresh token; default 365 days (the service allows at most 367). */
  readonly expiresInMillis?: number;
  /** An impersonation session; it shows `isImpersonation` in the session list. Default false. */
  readonly isImpersonation?: boolean;
}

/** A session made by server code. Its tokens are what the service issued; they are never refreshed here. */
export interface CreatedSession {
  /**
   * The tokens the service issued for the session, `{ accessToken, refreshToken }`, as they were
   * issued (the access token is not refreshed).
   *
   * @example
   * ```ts
   * const session = await user.createSession({ isImpersonation: true });
   * const { accessToken, refreshToken } = await session.getTokens();
   * const asUser = new StackClientApp({ projectId, publishableClientKey, tokenStore: { accessToken, refreshToken } });
   * ```
   */
  getTokens(options?: CallOptions): Promise<{ accessToken: string | null; refreshToken: string | null }>;
}

export interface ServerUserSessionMethods extends UserSessionMethods {
  /**
   * Signs the user in without credentials (`POST /auth/sessions`) and answers the new session, whose
   * tokens act as the user; pass `isImpersonation: true` to mark it as an impersonation.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user === null) throw new Error("No such user");
   * const session = await user.createSession({ isImpersonation: true });
   * const { accessToken } = await session.getTokens();
   * ```
   */
  createSession(options?: CreateSessionOptions & CallOptions): Promise<CreatedSession>;
}

function sessionOptions(options: CreateSessionOptions | undefined) {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new StackConfigurationError("createSession takes options { expiresInMillis?, isImpersonation? } or nothing.");
  }
  const expiresInMillis = options?.expiresInMillis ?? DEFAULT_SESSION_EXPIRES_IN_MILLIS;
  const isImpersonation = options?.isImpersonation ?? false;
  if (typeof expiresInMillis !== "number" || !Number.isInteger(expiresInMillis) || expiresInMillis <= 0) {
    throw new StackConfigurationError(
      `createSession: expiresInMillis must be a positive whole number of milliseconds, got ${String(expiresInMillis)}.`,
    );
  }
  if (typeof isImpersonation !== "boolean") {
    throw new StackConfigurationError("createSession: isImpersonation must be true or false.");
  }
  return { expires_in_millis: expiresInMillis, is_impersonation: isImpersonation };
}

export function serverUserSessionMethods(ctx: ServerAppContext, userId: string): ServerUserSessionMethods {
  return {
    async getActiveSessions(options) {
      const { data } = await ctx.client.send("GET /auth/sessions", { params: { query: { user_id: userId } }, ...signalOf(options) });
      return itemsOf(data, "GET /auth/sessions").map(activeSessionFromWire);
    },
    async revokeSession(sessionId, options) {
      // The service needs the session's user as `user_id` (wire contract §16).
      await ctx.client.send("DELETE /auth/sessions/{session_id}", {
        params: { path: { session_id: segment(sessionId, "user.revokeSession", "the session id") }, query: { user_id: userId } },
        ...signalOf(options),
      });
    },
    async createSession(options) {
      const { data } = await ctx.client.send("POST /auth/sessions", {
        body: { user_id: userId, ...sessionOptions(options) },
        ...signalOf(options),
      });
      const { access_token, refresh_token } = answered(data, "POST /auth/sessions");
      return {
        // The tokens stay in this closure, out of any enumerable property.
        getTokens: async (tokenOptions) => {
          checkAborted(tokenOptions);
          return { accessToken: access_token, refreshToken: refresh_token };
        },
      };
    },
  };
}
