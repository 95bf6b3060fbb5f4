// A request body checked against the document's schema of it, in the words of
// the service's validation library (yup, through its own schema helpers): every
// problem, not only the first ("body.email must be defined", "body contains
// unknown properties: a, b", "body.x must be a `string` type, but the final
// value was: `{}`."), and values coerced as yup coerces them (a number where a
// string is wanted is taken as its text), since the service takes those.
import type { Shape } from "../../generated/shapes.js";
import { shapes } from "../../generated/shapes.js";

/** What a body turned into after coercion, and what is wrong with it (empty: nothing). */
export interface Checked {
  readonly value: unknown;
  readonly problems: readonly string[];
}

const CLOSED = "!";

/** `value` at `path` checked against `shape`: yup's coercions applied, its messages for what stays wrong. */
export function checkValue(shape: Shape, value: unknown, path: string): Checked {
  if (typeof shape === "number") return checkValue(shapes[shape] as Shape, value, path);
  if (value === undefined) return { value, problems: [] };
  if (typeof shape === "string") return checkPrimitive(shape, value, path);
  if (!Array.isArray(shape)) return checkObject(shape as { readonly [field: string]: Shape }, value, path);
  const [tag, ...args] = shape as unknown as readonly [string, ...unknown[]];
  switch (tag) {
    case "a": {
      if (!Array.isArray(value)) return notType(path, "array", value);
      const items = value.map((item, i) => checkValue(args[0] as Shape, item, `${path}[${i}]`));
      return { value: items.map((c) => c.value), problems: items.flatMap((c) => c.problems) };
    }
    case "|":
    case "@": {
      // Nullable fields are unions with null; any option that takes the value will do.
      let best: Checked | undefined;
      for (const option of args) {
        const checked = checkValue(option as Shape, value, path);
        if (checked.problems.length === 0) return checked;
        if (option !== "z" && (best === undefined || checked.problems.length < best.problems.length)) best = checked;
      }
      if (value === null) return { value, problems: [`${path} cannot be null`] };
      return best ?? { value, problems: [`${path} is invalid`] };
    }
    case "=": {
      const coerced = typeof args[0] === "string" && (typeof value === "number" || typeof value === "boolean") ? String(value) : value;
      if (args.includes(coerced)) return { value: coerced, problems: [] };
      if (value === null) return { value, problems: [`${path} cannot be null`] };
      return { value, problems: [`${path} must be one of the following values: ${args.join(", ")}`] };
    }
    case "p": {
      const checked = checkPrimitive("s", value, path);
      if (checked.problems.length > 0) return checked;
      const ok = new RegExp(args[0] as string).test(checked.value as string);
      return ok ? checked : { value, problems: [`${path} is invalid`] };
    }
    case "r": {
      const [min, max, integer] = args as [number, number, number];
      const checked = checkPrimitive(integer ? "i" : "n", value, path);
      if (checked.problems.length > 0) return checked;
      const n = checked.value as number;
      if (n < min) return { value, problems: [`${path} must be greater than or equal to ${min}`] };
      if (n > max) return { value, problems: [`${path} must be less than or equal to ${max}`] };
      return checked;
    }
    default:
      return { value, problems: [] };
  }
}

function checkObject(fields: { readonly [field: string]: Shape }, value: unknown, path: string): Checked {
  if (value === null) return { value, problems: [`${path} cannot be null`] };
  if (typeof value !== "object" || Array.isArray(value)) return notType(path, "object", value);
  const object = { ...(value as Record<string, unknown>) };
  const problems: string[] = [];
  for (const key of Object.keys(fields)) {
    if (key === CLOSED) continue;
    const optional = key.endsWith("?");
    const name = optional ? key.slice(0, -1) : key;
    const at = `${path}.${name}`;
    if (object[name] === undefined) {
      if (!optional) problems.push(`${at} must be defined`);
      continue;
    }
    const checked = checkValue(fields[key] as Shape, object[name], at);
    object[name] = checked.value;
    problems.push(...checked.problems);
  }
  // The object's own test runs after its fields' (yup lists field errors first).
  if (CLOSED in fields) {
    const unknown = Object.keys(object).filter((name) => !(name in fields) && !(`${name}?` in fields));
    if (unknown.length > 0) problems.push(`${path} contains unknown properties: ${unknown.join(", ")}`);
  }
  return { value: object, problems };
}

const TYPE_NAMES: Readonly<Record<string, string>> = { s: "string", n: "number", i: "number", b: "boolean", o: "object" };

function checkPrimitive(code: string, value: unknown, path: string): Checked {
  if (value === null) return code === "z" ? { value, problems: [] } : { value, problems: [`${path} cannot be null`] };
  switch (code) {
    case "s":
      if (typeof value === "string") return { value, problems: [] };
      // yup's string() takes the text of a number or a boolean, never of an object or an array.
      if (typeof value === "number" || typeof value === "boolean") return { value: String(value), problems: [] };
      return notType(path, "string", value);
    case "n":
    case "i": {
      let n: unknown = value;
      if (typeof n === "string") n = n.replace(/\s/g, "") === "" ? NaN : Number(n.replace(/\s/g, ""));
      else if (typeof n !== "number") n = parseFloat(String(n));
      if (typeof n !== "number" || Number.isNaN(n)) return notType(path, "number", n, value);
      if (code === "i" && !Number.isInteger(n)) return { value: n, problems: [`${path} must be an integer`] };
      return { value: n, problems: [] };
    }
    case "b":
      if (typeof value === "boolean") return { value, problems: [] };
      if (/^(true|1)$/i.test(String(value))) return { value: true, problems: [] };
      if (/^(false|0)$/i.test(String(value))) return { value: false, problems: [] };
      return notType(path, "boolean", value);
    case "o":
      if (typeof value === "object" && !Array.isArray(value)) return { value, problems: [] };
      return notType(path, "object", value);
    case "z":
      return { value, problems: [`${path} must be null`] };
    case "*":
      return { value, problems: [] };
    default:
      return { value, problems: [`${path} is invalid`] };
  }
}

/** yup's type error: the value it ended with, and the one it was cast from when that differs. */
function notType(path: string, type: string, value: unknown, original: unknown = value): Checked {
  const cast =
    original !== null && original !== undefined && !Object.is(original, value)
      ? ` (cast from the value \`${printValue(original)}\`).`
      : ".";
  return {
    value: original,
    problems: [`${path} must be a \`${TYPE_NAMES[type] ?? type}\` type, but the final value was: \`${printValue(value)}\`${cast}`],
  };
}

/** A value as yup prints it in messages: strings quoted, objects as indented JSON. */
function printValue(value: unknown): string {
  const simple = printSimple(value);
  if (simple !== null) return simple;
  return JSON.stringify(
    value,
    function (this: Record<string, unknown>, key) {
      return printSimple(this[key]) ?? this[key];
    },
    2,
  );
}

function printSimple(value: unknown): string | null {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "string") return `"${value}"`;
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "boolean") return String(value);
  return null;
}

/**
 * `shape` without the fields at `paths`, as a version that does not know them checks a body: `name` a field of the
 * object, `outer.inner` a field of a field, `list[].name` a field of a list's every item.
 */
export function withoutFields(shape: Shape | undefined, paths: readonly string[]): Shape | undefined {
  if (paths.length === 0 || shape === undefined) return shape;
  if (typeof shape === "number") return withoutFields(shapes[shape] as Shape, paths);
  if (Array.isArray(shape)) {
    const [tag, ...args] = shape as unknown as readonly [string, ...unknown[]];
    const inner = paths.filter((path) => path.startsWith("[]")).map((path) => path.slice(2).replace(/^\./, ""));
    if (tag !== "a" || inner.length === 0) return shape;
    return ["a", withoutFields(args[0] as Shape, inner)];
  }
  if (typeof shape !== "object") return shape;
  const kept: Record<string, Shape> = {};
  for (const [key, field] of Object.entries(shape as Record<string, Shape>)) {
    const name = key.replace(/\?$/, "");
    if (paths.includes(name)) continue;
    const nested = paths
      .filter((path) => path.startsWith(`${name}.`) || path.startsWith(`${name}[]`))
      .map((path) => path.slice(name.length).replace(/^\./, ""));
    kept[key] = nested.length === 0 ? field : (withoutFields(field, nested) as Shape);
  }
  return kept;
}

/**
 * What is wrong with a request's query for an operation that knows the names `known` (undefined: it takes any
 * query): its unknown names, in the order of the object the service makes of the query (`Object.fromEntries` of the
 * search parameters, whose keys list integer-like names first).
 */
export function queryProblems(known: readonly string[] | undefined, search: URLSearchParams): string[] {
  if (known === undefined) return [];
  const unknown = Object.keys(Object.fromEntries(search.entries())).filter((name) => !known.includes(name));
  return unknown.length > 0 ? [`query contains unknown properties: ${unknown.join(", ")}`] : [];
}
