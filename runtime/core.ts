// What every part of the runtime shares: errors, lazy loading, constants, the
// platform (environment, browser), cancellation, the bounded cache and token
// pairs, and cookie parsing. The rest of the runtime imports these through this module (they import
// each other directly), so that a bundler keeps them in one chunk of an app's
// first load rather than in a small chunk each, one request apiece. The error
// classes an app may import on their own (request-errors.ts, verify/errors.ts,
// messages/) import errors.ts directly, so that they do not bring the rest along.
export {
  StackError,
  isStackError,
  StackAssertionError,
  StackConfigurationError,
  NetworkError,
  UserNotSignedInError,
  type StackErrorName,
} from "./errors.js";
export { lazy, preloadAll, type Lazy } from "./lazy.js";
export {
  DEFAULT_BASE_URL,
  API_PREFIX,
  REFRESH_COOKIE_MAX_AGE_S,
  ACCESS_COOKIE_MAX_AGE_S,
  OAUTH_VERIFIER_COOKIE_MAX_AGE_S,
  COOKIE_POLL_INTERVAL_MS,
  DEFAULT_MIN_TOKEN_LIFE_MS,
  MAX_REQUIRED_TOKEN_LIFE_MS,
  MAX_ATTEMPTS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  RETRY_BASE_DELAY_MS,
  MAX_SINGLE_WAIT_MS,
  REFRESH_FAILURE_COOLDOWN_MS,
  NONCE_BITS,
  SESSION_CACHE_LIMIT,
} from "./constants.js";
export { platformEnvironment, reportsOffline, environment, sleep, type Fetch, type TimerId, type Environment } from "./env.js";
export { abortReason, throwIfAborted, raceAbort } from "./abort.js";
export { LruMap } from "./lru.js";
export { NO_TOKENS, sameTokens, type TokenPair, type StoredTokens, type SessionTokens, type TokenStore } from "./tokens/store.js";
export { usableToken, isUsableToken, usableTokens, assertUsableTokens } from "./tokens/check.js";
export { platformBrowser, requireBrowser, type BrowserLocation, type Browser } from "./browser.js";
export { signalOf, callOf, untilAborted, checkAborted, type CallOptions } from "./call-options.js";
export { parse as parseCookie, serialize as serializeCookie, type SerializeOptions } from "cookie";
