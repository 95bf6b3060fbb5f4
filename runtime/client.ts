// Puts the runtime together: options in, a typed client over every operation out.
import createClient, { type Client } from "openapi-fetch";
import type { AccessType } from "../generated/operations.js";
import type { paths } from "../generated/schema.js";
import { API_PREFIX, DEFAULT_BASE_URL } from "./constants.js";
import { environment, type Environment } from "./env.js";
import { StackConfigurationError } from "./errors.js";
import { createStackFetch, type OwnerSession } from "./pipeline.js";
import { refreshWithTokenEndpoint } from "./refresh.js";
import { SessionManager } from "./session.js";
import { noTokenStoreError, resolveTokenStore, type TokenStoreInit } from "./tokens/resolve.js";
import { CLIENT_VERSION } from "./version.js";

export interface StackClientOptions {
  readonly projectId: string;
  /** Which kind of app calls: `client` (default), `server` or `admin`. */
  readonly accessType?: AccessType;
  /** Default `https://api.stack-auth.com`; `/api/v1` is added. */
  readonly baseUrl?: string;
  readonly publishableClientKey?: string;
  readonly secretServerKey?: string;
  readonly superSecretAdminKey?: string;
  /** For admin apps acting as a project owner instead of with a key. */
  readonly projectOwnerSession?: OwnerSession;
  /** Where the user's tokens live. `null`: no user. Default `"memory"`. */
  readonly tokenStore?: TokenStoreInit;
  /** Sent with every request, after (and over) the headers the runtime sets. */
  readonly extraRequestHeaders?: Readonly<Record<string, string>>;
  /** Replaces parts of the platform: fetch, clock, timers, randomness. */
  readonly environment?: Partial<Environment>;
}

export interface StackClient {
  /** Typed calls over every operation of the document (openapi-fetch). Failures are thrown as typed errors. */
  readonly api: Client<paths>;
  readonly env: Environment;
  /** Null when the app was made with `tokenStore: null`. */
  readonly sessions: SessionManager | null;
  /** The session manager, or the error that explains how to get one. */
  requireSessions(): SessionManager;
}

export function createStackClient(options: StackClientOptions): StackClient {
  if (typeof options.projectId !== "string" || options.projectId === "") {
    throw new StackConfigurationError("projectId is required: the id of your project on the Stack Auth dashboard.");
  }
  const env = environment(options.environment);
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const accessType = options.accessType ?? "client";
  const store = resolveTokenStore(options.tokenStore === undefined ? "memory" : options.tokenStore, {
    projectId: options.projectId,
    env,
  });
  const refresh = refreshWithTokenEndpoint({
    env,
    baseUrl,
    projectId: options.projectId,
    publishableClientKey: options.publishableClientKey,
  });
  const sessions = store ? new SessionManager(store, env, refresh) : null;
  const fetch = createStackFetch({
    env,
    baseUrl,
    projectId: options.projectId,
    accessType,
    clientVersion: CLIENT_VERSION,
    publishableClientKey: options.publishableClientKey,
    secretServerKey: options.secretServerKey,
    superSecretAdminKey: options.superSecretAdminKey,
    projectOwnerSession: options.projectOwnerSession,
    extraRequestHeaders: options.extraRequestHeaders,
    sessions,
  });
  const api = createClient<paths>({ baseUrl: `${baseUrl}${API_PREFIX}`, fetch });
  return {
    api,
    env,
    sessions,
    requireSessions() {
      if (!sessions) throw noTokenStoreError();
      return sessions;
    },
  };
}
