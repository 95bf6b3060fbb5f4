// What a public method promises to return, checked on the value it did
// return: documented fields with their documented types, plus a walk over
// everything reachable (no getter throws, no invalid Date, ids are strings).
import { KnownError } from "../../generated/known-errors.js";

/** Checks `value` at `path`, adding what is wrong to `problems`. */
export type Shape = (value: unknown, path: string, problems: string[]) => void;

const show = (value: unknown): string => {
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? "Invalid" : value.toISOString()})`;
  if (typeof value === "function") return "a function";
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 40 ? `${text.slice(0, 37)}...` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
};

const check =
  (what: string, ok: (value: unknown) => boolean): Shape =>
  (value, path, problems) => {
    if (!ok(value)) problems.push(`${path} should be ${what}, is ${show(value)}`);
  };

export const str = check("a string", (v) => typeof v === "string");
export const bool = check("a boolean", (v) => typeof v === "boolean");
export const num = check("a finite number", (v) => typeof v === "number" && Number.isFinite(v));
export const date = check("a valid Date", (v) => v instanceof Date && !Number.isNaN(v.getTime()));
export const fn = check("a function", (v) => typeof v === "function");
export const undef = check("undefined", (v) => v === undefined);
export const any: Shape = () => undefined;
export const lit = (...values: readonly unknown[]): Shape =>
  check(`one of ${values.map((v) => JSON.stringify(v)).join(", ")}`, (v) => values.includes(v));
export const knownError = check("a KnownError", (v) => v instanceof KnownError);

export const nullable =
  (shape: Shape): Shape =>
  (value, path, problems) => {
    if (value === null) return;
    const found: string[] = [];
    shape(value, path, found);
    // Only the value itself may be null; what is wrong inside it is reported as it is.
    problems.push(
      ...found.map((problem) =>
        problem.startsWith(`${path} should be `) ? problem.replace(/ should be (.*?), is /, " should be $1 or null, is ") : problem,
      ),
    );
  };

/** May be absent (undefined). */
export const opt =
  (shape: Shape): Shape =>
  (value, path, problems) => {
    if (value !== undefined) shape(value, path, problems);
  };

export const nstr = nullable(str);
export const ndate = nullable(date);

export const arr =
  (item: Shape): Shape =>
  (value, path, problems) => {
    if (!Array.isArray(value)) {
      problems.push(`${path} should be an array, is ${show(value)}`);
      return;
    }
    value.forEach((v, i) => item(v, `${path}[${i}]`, problems));
  };

/** An object with at least these fields (extra fields are fine). Reading a field runs its getter; a throw is a problem. */
export const obj =
  (fields: Readonly<Record<string, Shape>>): Shape =>
  (value, path, problems) => {
    if ((typeof value !== "object" && typeof value !== "function") || value === null) {
      problems.push(`${path} should be an object, is ${show(value)}`);
      return;
    }
    for (const [key, shape] of Object.entries(fields)) {
      let field: unknown;
      try {
        field = (value as Record<string, unknown>)[key];
      } catch (error) {
        problems.push(`${path}.${key}: reading it threw ${errorName(error)}`);
        continue;
      }
      shape(field, `${path}.${key}`, problems);
    }
  };

/** Passes when any of `shapes` passes; otherwise reports the problems of the first. */
export const oneOf =
  (...shapes: Shape[]): Shape =>
  (value, path, problems) => {
    let first: string[] | undefined;
    for (const shape of shapes) {
      const found: string[] = [];
      shape(value, path, found);
      if (found.length === 0) return;
      first ??= found;
    }
    problems.push(...(first ?? []));
  };

/** Both shapes (an intersection). */
export const and =
  (...shapes: Shape[]): Shape =>
  (value, path, problems) => {
    for (const shape of shapes) shape(value, path, problems);
  };

/** Calls the zero-argument synchronous method `name` and checks what it returns. */
export const calls =
  (name: string, result: Shape): Shape =>
  (value, path, problems) => {
    const method = (value as Record<string, unknown> | null)?.[name];
    if (typeof method !== "function") {
      problems.push(`${path}.${name} should be a method`);
      return;
    }
    let returned: unknown;
    try {
      returned = (method as () => unknown).call(value);
    } catch (error) {
      problems.push(`${path}.${name}() threw ${errorName(error)}`);
      return;
    }
    result(returned, `${path}.${name}()`, problems);
  };

/** The reference SDK's Result: `{ status: "ok", data }` or `{ status: "error", error: KnownError }`. */
export const result = (data: Shape): Shape => oneOf(obj({ status: lit("ok"), data }), obj({ status: lit("error"), error: knownError }));

function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : `a non-Error ${show(error)}`;
}

/** Fields whose values are the caller's own JSON (or deliberately untyped): not walked. */
const OPAQUE = new Set([
  "clientMetadata",
  "clientReadOnlyMetadata",
  "serverMetadata",
  "content",
  "details",
  "originalDetails",
  "error",
  "geoInfo",
  "cause",
]);

/**
 * Ids that a standard OAuth provider has as members whether or not they apply to it, as the
 * reference's objects do: undefined where they do not (Facebook's for Microsoft, and so on).
 */
const PROVIDER_SPECIFIC_IDS = new Set(["facebookConfigId", "microsoftTenantId"]);

/**
 * Walks everything reachable from `value` through arrays and plain objects
 * (class instances such as apps and errors are not entered): every getter
 * must answer, every Date must be valid, every `id` and `…Id` must be a string.
 */
export function walk(value: unknown, path: string, problems: string[], seen = new WeakSet<object>(), depth = 0): void {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) problems.push(`${path} should be a valid Date, is Date(Invalid)`);
    return;
  }
  if (typeof value !== "object" || value === null || depth > 16 || seen.has(value)) return;
  seen.add(value);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return;
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (Array.isArray(value) && key === "length") continue;
    // A user object's `user` throws on purpose (destructuring `{ user }` is a mistake);
    // it is not enumerable, so a spread, JSON and this walk's other readers never meet it.
    if (key === "user" && descriptor.get && !descriptor.enumerable) continue;
    let field: unknown;
    if (descriptor.get) {
      try {
        field = descriptor.get.call(value);
      } catch (error) {
        problems.push(`${path}.${key}: its getter threw ${errorName(error)}`);
        continue;
      }
    } else {
      field = descriptor.value;
    }
    if (typeof field === "function") continue;
    const at = Array.isArray(value) && /^\d+$/.test(key) ? `${path}[${key}]` : `${path}.${key}`;
    const absentOptionalId = field === undefined && PROVIDER_SPECIFIC_IDS.has(key);
    if (!Array.isArray(value) && (key === "id" || /[a-z]Id$/.test(key)) && typeof field !== "string" && !absentOptionalId) {
      problems.push(`${at} should be a string id, is ${show(field)}`);
    }
    if (OPAQUE.has(key)) continue;
    walk(field, at, problems, seen, depth + 1);
  }
}
