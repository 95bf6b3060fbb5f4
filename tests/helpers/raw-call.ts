// One raw request to an emulator, authenticated as a client of the service
// would authenticate it: the access type, and the project's keys or the owner's
// admin access token. Answered as `{ status, headers, body }`, the body parsed as
// JSON where it is JSON. The conformance suite and the emulator's version tests
// speak to the emulator through it.
import type { Emulator } from "../../emulator/index.js";
import { DEMO_KEYS } from "../../emulator/index.js";

/** Project keys a request authenticates with; any left out is not sent. */
export interface Keys {
  readonly projectId: string;
  readonly publishableClientKey?: string;
  readonly secretServerKey?: string;
  readonly superSecretAdminKey?: string;
}

/** How a request is authenticated: its access type, and what stands for the project's keys. */
export interface CallOptions {
  /** Default `"client"`. */
  readonly as?: "client" | "server" | "admin";
  /** Default the demo project's keys. */
  readonly keys?: Keys;
  /** `x-stack-access-token`: a user's. */
  readonly token?: string;
  /** `x-stack-admin-access-token`: the project owner's access token of the internal project, instead of the keys. */
  readonly adminToken?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body. */
  readonly body?: unknown;
  /** Under `/api/v1` unless told (`/api/latest`). */
  readonly prefix?: string;
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** JSON parsed; plain text as a string; an empty body undefined. */
  readonly body: any;
}

/** Sends one request to `emulator`'s API and reads the answer. */
export async function rawCall(emulator: Emulator, method: string, route: string, o: CallOptions = {}): Promise<RawAnswer> {
  const as = o.as ?? "client";
  const keys: Keys = o.keys ?? DEMO_KEYS;
  const headers: Record<string, string> = { "x-stack-project-id": keys.projectId, "x-stack-access-type": as };
  if (o.adminToken !== undefined) headers["x-stack-admin-access-token"] = o.adminToken;
  else if (as === "client" && keys.publishableClientKey !== undefined)
    headers["x-stack-publishable-client-key"] = keys.publishableClientKey;
  else if (as === "server" && keys.secretServerKey !== undefined) headers["x-stack-secret-server-key"] = keys.secretServerKey;
  else if (as === "admin" && keys.superSecretAdminKey !== undefined) headers["x-stack-super-secret-admin-key"] = keys.superSecretAdminKey;
  if (o.token !== undefined) headers["x-stack-access-token"] = o.token;
  if (o.body !== undefined) headers["content-type"] = "application/json";
  const response = await emulator.fetch(
    new Request(`${emulator.apiOrigin}${o.prefix ?? "/api/v1"}${route}`, {
      method,
      headers: { ...headers, ...o.headers },
      ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    }),
  );
  const text = await response.text();
  let body: unknown = text === "" ? undefined : text;
  try {
    if (text !== "") body = JSON.parse(text);
  } catch {
    // plain text stays a string
  }
  return { status: response.status, headers: response.headers, body };
}
