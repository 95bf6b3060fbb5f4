// What the adapter tests share: a signed-in user of the emulator's demo
// project, the token cookies a browser would send for them, and a reading of
// the `Set-Cookie` lines an adapter answers with.
import { serialize } from "cookie";
import { DEMO_KEYS, type Emulator } from "../../emulator/index.js";
import { StackServerApp } from "../../runtime/index.js";
import { demoAppOptions, TEST_PASSWORD } from "../helpers/emulator.js";

export const PROJECT_ID = DEMO_KEYS.projectId;
export const REFRESH_COOKIE = `stack-refresh-${PROJECT_ID}`;
/** Longer than an access token lives (10 minutes). */
export const PAST_EXPIRY_MS = 11 * 60 * 1000;

export interface Tokens {
  readonly accessToken: string;
  readonly refreshToken: string;
}

/** A user of the demo project and a session of theirs. */
export async function signedIn(emulator: Emulator, email: string) {
  const user = await emulator.control.createUser({ projectId: PROJECT_ID, email, password: TEST_PASSWORD });
  const tokens: Tokens = await emulator.control.createSession(user.id);
  return { user, tokens };
}

/** The `cookie` request header a browser sends after the SDK's cookie store saved `tokens`. */
export function tokenCookieHeader(tokens: Tokens, ...others: string[]): string {
  const pair = JSON.stringify([tokens.refreshToken, tokens.accessToken]);
  return [...others, serialize(REFRESH_COOKIE, tokens.refreshToken), serialize("stack-access", pair)].join("; ");
}

export interface SetCookie {
  readonly name: string;
  readonly value: string;
  /** Attribute names (lower case) to their values ("" for a flag). */
  readonly attributes: Readonly<Record<string, string>>;
}

/** One `Set-Cookie` line, read as a browser does: the first pair, then `; `-separated attributes. */
export function readSetCookie(line: string): SetCookie {
  const [pair = "", ...rest] = line.split("; ");
  const at = pair.indexOf("=");
  const attributes: Record<string, string> = {};
  for (const attribute of rest) {
    const eq = attribute.indexOf("=");
    attributes[(eq < 0 ? attribute : attribute.slice(0, eq)).toLowerCase()] = eq < 0 ? "" : attribute.slice(eq + 1);
  }
  return { name: pair.slice(0, at), value: decodeURIComponent(pair.slice(at + 1)), attributes };
}

/** The cookies `lines` set, by name. */
export function setCookies(lines: readonly string[]): Record<string, SetCookie> {
  return Object.fromEntries(lines.map((line) => [readSetCookie(line).name, readSetCookie(line)]));
}

/** The access token in a `stack-access` value. */
export function accessTokenOf(cookie: SetCookie | undefined): string | undefined {
  return cookie === undefined ? undefined : (JSON.parse(cookie.value) as [string, string])[1];
}

/** A server app of the demo project on `emulator` with no token store of its own: each call names the request's. */
export function demoServerApp(emulator: Emulator): StackServerApp {
  return new StackServerApp({ ...demoAppOptions(emulator), secretServerKey: DEMO_KEYS.secretServerKey, tokenStore: null });
}

/** How many refresh-token grants the emulator answered. */
export function refreshCount(emulator: Emulator): number {
  return emulator.control.requests().filter((r) => r.operationId === "exchangeOAuthToken").length;
}
