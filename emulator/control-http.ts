// What the control API's routes share (emulator/routes.ts, emulator/control-routes-inspect.ts):
// the table they are written in, its matching of a path to a route (`users/{userId}`: a segment
// in braces takes any one segment), the JSON answers, and the reading of request bodies.
import type { EmulatorControl } from "./control.js";

export type ControlMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** One route's answer to one method; `params`: the path's segments in braces, decoded. */
export type ControlHandler = (
  request: Request,
  url: URL,
  control: EmulatorControl,
  params: Readonly<Record<string, string>>,
) => Response | Promise<Response>;
/** Control routes by path under /emulator/v1 (`users/{userId}/sessions`), each with what its methods do. */
export type ControlRoutes = Readonly<Record<string, Readonly<Partial<Record<ControlMethod, ControlHandler>>>>>;

/** A refusal the control API answers as `{ "error": message }` with `status`. */
export class ControlError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export const ok = (body: unknown = { ok: true }, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });

/** The route `path` is (a literal route first), with the values of its segments in braces; undefined for none. */
export function matchControlRoute(
  routes: ControlRoutes,
  path: string,
): { methods: ControlRoutes[string]; params: Record<string, string> } | undefined {
  if (Object.hasOwn(routes, path)) return { methods: routes[path] as ControlRoutes[string], params: {} };
  const segments = path.split("/");
  for (const [pattern, methods] of Object.entries(routes)) {
    if (!pattern.includes("{")) continue;
    const parts = pattern.split("/");
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = parts.every((part, i) => {
      const segment = segments[i] as string;
      if (!part.startsWith("{")) return part === segment;
      if (segment === "") return false;
      try {
        params[part.slice(1, -1)] = decodeURIComponent(segment);
      } catch {
        return false;
      }
      return true;
    });
    if (fits) return { methods, params };
  }
  return undefined;
}

export async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ControlError("The body is not JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ControlError("The body must be a JSON object");
  return body as Record<string, unknown>;
}

export function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ControlError(`"${key}" must be a string`);
  return value;
}

export function optionalBoolean(body: Record<string, unknown>, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw new ControlError(`"${key}" must be true or false`);
  return value;
}
