// `new StackServerApp({ inheritsFrom: clientApp, secretServerKey })`, as in the
// reference SDK: the server app takes the client app's project, keys, URLs,
// navigation, platform and token store, and options given alongside win.
import { requireOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import { internalsOf } from "../app-internals.js";
import type { StackClientApp } from "../client-app.js";
import type { StackClientAppOptions } from "../client-app-options.js";

/**
 * The options every server app takes (the admin app adds its keys to these): a client app's options
 * with the secret server key, either with the project and token store or taken from `inheritsFrom`.
 *
 * @example
 * ```ts
 * const server = new StackServerApp({
 *   projectId: process.env.STACK_PROJECT_ID!,
 *   secretServerKey: process.env.STACK_SECRET_SERVER_KEY!,
 *   tokenStore: null,
 * });
 * const sameProject = new StackServerApp({ inheritsFrom: clientApp, secretServerKey: process.env.STACK_SECRET_SERVER_KEY! });
 * ```
 */
export type StackServerAppOptions = Omit<StackClientAppOptions, "projectId" | "tokenStore"> & {
  /** The project's secret server key, sent as `x-stack-secret-server-key` with every request. */
  readonly secretServerKey?: string;
} & (
    | {
        /** The project's id, as the Stack Auth dashboard shows it; sent with every request. */
        readonly projectId: string;
        /** Where the user's tokens live, as for a client app; on a server often null, each call naming its request's tokens. */
        readonly tokenStore: StackClientAppOptions["tokenStore"];
        /** Not given with `projectId` and `tokenStore`. */
        readonly inheritsFrom?: undefined;
      }
    | {
        /** A client app of the same project to take every option from. */
        readonly inheritsFrom: StackClientApp;
        /** The project's id; default the one of `inheritsFrom`. */
        readonly projectId?: string;
        /** Where the user's tokens live; default the token store of `inheritsFrom`, shared with it. */
        readonly tokenStore?: StackClientAppOptions["tokenStore"];
      }
  );

/** The client-app options of `options`, with those of `inheritsFrom` filled in. */
export function resolveServerAppOptions(options: StackServerAppOptions): StackClientAppOptions & { readonly secretServerKey?: string } {
  requireOptions(options, "StackServerApp", "{ projectId, publishableClientKey?, secretServerKey, tokenStore, ... }");
  const { inheritsFrom: parent, ...own } = options;
  if (parent === undefined) return own as StackClientAppOptions;
  // What the parent was built with; nothing for an object that is no app of this package.
  const parentInternals = internalsOf(parent);
  if (parentInternals === undefined) {
    throw new StackConfigurationError("inheritsFrom must be a StackClientApp (or a server app) of this package.");
  }
  const { ctx } = parentInternals;
  const runtime = ctx.client;
  const inherited: StackClientAppOptions = {
    projectId: ctx.projectId,
    ...(ctx.publishableClientKey !== undefined && { publishableClientKey: ctx.publishableClientKey }),
    baseUrl: ctx.baseUrl,
    ...(runtime.failover !== undefined && { failover: runtime.failover }),
    urls: ctx.urls,
    redirectMethod: ctx.redirectMethod,
    oauthScopesOnSignIn: ctx.oauthScopesOnSignIn,
    ...(ctx.botChallenge !== undefined && { botChallenge: ctx.botChallenge }),
    browser: ctx.browser,
    environment: runtime.env,
    requestTimeoutMs: runtime.policy.requestTimeoutMs,
    maxRetryAfterMs: runtime.policy.maxRetryAfterMs,
    ...(runtime.policy.hooks.onRequest && { onRequest: runtime.policy.hooks.onRequest }),
    ...(runtime.policy.hooks.onRetry && { onRetry: runtime.policy.hooks.onRetry }),
    // The same store: a sign-in through either app is seen by both.
    tokenStore: runtime.sessions?.store ?? null,
    // The client app has prefetched already.
    noAutomaticPrefetch: true,
  };
  const given = Object.fromEntries(Object.entries(own).filter(([, value]) => value !== undefined));
  return { ...inherited, ...given } as StackClientAppOptions;
}
