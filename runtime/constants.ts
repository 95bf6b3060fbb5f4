// Numbers the spec fixes (SPEC §9, wire contract §4, §7, §12). One place, named.

export const DEFAULT_BASE_URL = "https://api.stack-auth.com";
export const API_PREFIX = "/api/v1";

/** Cookie lifetimes, in seconds. */
export const REFRESH_COOKIE_MAX_AGE_S = 31_536_000;
export const ACCESS_COOKIE_MAX_AGE_S = 86_400;
export const OAUTH_VERIFIER_COOKIE_MAX_AGE_S = 3_600;
/** How often the cookie store looks for changes made by other tabs or scripts. */
export const COOKIE_POLL_INTERVAL_MS = 100;

/** An access token is refreshed unless it has at least this much life left. */
export const DEFAULT_MIN_TOKEN_LIFE_MS = 20_000;
/** Access tokens are short-lived; asking for this much life or more cannot be met. */
export const MAX_REQUIRED_TOKEN_LIFE_MS = 60_000;

export const MAX_ATTEMPTS = 5;
/** How long one attempt waits for its answer by default (the app's requestTimeoutMs). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const RETRY_BASE_DELAY_MS = 1_000;
/** The longest single wait timers allow (2^31 - 1 ms). */
export const MAX_SINGLE_WAIT_MS = 2_147_483_647;

/** After a refresh fails for a transient reason, further refreshes wait this long. */
export const REFRESH_FAILURE_COOLDOWN_MS = 1_000;

/** Bits of randomness in `x-stack-random-nonce`. */
export const NONCE_BITS = 224;

/** How many sessions (token pairs) a process keeps before forgetting the least recently used. */
export const SESSION_CACHE_LIMIT = 1_000;
