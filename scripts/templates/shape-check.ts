// The interpreter of compiled schemas (the notation is described in
// scripts/lib/emit-shapes.mjs). The generator appends it to generated/shapes.ts,
// after the tables, so that the runtime (checking answers) and the emulator
// (checking requests) share one implementation without importing each other.

// --- template only: the generator drops this block ---
type Shape = string | number | readonly unknown[] | { readonly [field: string]: Shape };
declare const shapes: readonly Shape[];
// --- end ---

export interface Mismatch {
  /** The JSON path of the first field that is wrong, e.g. `$.items[2].id`. */
  readonly path: string;
  /** What the document wants there, in words. */
  readonly expected: string;
  /** What is there instead, by kind only (`null`, `a string`): values may be secrets. */
  readonly found: string;
}

const NAMES: Record<string, string> = { s: "a string", n: "a number", i: "an integer", b: "a boolean", z: "null", o: "an object" };

/** Which view of an answer that depends on who asks (client, server, admin) to hold it to. */
export type View = 0 | 1 | 2;

/** The first place where `value` is not `shape` (in `view`), or undefined when it is. */
export function mismatchOf(shape: Shape, value: unknown, path = "$", view?: View): Mismatch | undefined {
  // Most values fit: that is found without building a path or a message; a value
  // that does not is walked again to say where and why.
  return fits(shape, value, view) ? undefined : findMismatch(shape, value, path, view);
}

/** Whether `value` is `shape` (in `view`): mismatchOf's answer, without the why. */
function fits(shape: Shape, value: unknown, view: View | undefined): boolean {
  if (typeof shape === "number") return fits(shapes[shape] as Shape, value, view);
  if (typeof shape === "string") return shape === "*" || isPrimitive(shape, value);
  if (!Array.isArray(shape)) return fitsObject(shape as { readonly [field: string]: Shape }, value, view);
  const list = shape as readonly unknown[];
  switch (list[0]) {
    case "a": {
      if (!Array.isArray(value)) return false;
      for (const item of value) if (!fits(list[1] as Shape, item, view)) return false;
      return true;
    }
    case "|":
      for (let i = 1; i < list.length; i++) if (fits(list[i] as Shape, value, view)) return true;
      return false;
    case "@":
      if (view !== undefined) return fits(list[view + 1] as Shape, value, view);
      for (let i = 1; i < list.length; i++) if (fits(list[i] as Shape, value, undefined)) return true;
      return false;
    case "=":
      return list.indexOf(value, 1) > 0;
    case "p":
      return typeof value === "string" && patternOf(list[1] as string).test(value);
    case "r": {
      const integer = list[3] as number;
      return (
        isPrimitive(integer ? "i" : "n", value) && (value as number) >= (list[1] as number) && (value as number) <= (list[2] as number)
      );
    }
    default:
      return true;
  }
}

/** An object shape's fields, read once: name, whether optional, and shape. */
type Fields = { readonly keys: readonly (readonly [name: string, optional: boolean, shape: Shape])[]; readonly closed: boolean };
const fieldsOf = new WeakMap<object, Fields>();

function fitsObject(shape: { readonly [field: string]: Shape }, value: unknown, view: View | undefined): boolean {
  if (!isPrimitive("o", value)) return false;
  let fields = fieldsOf.get(shape);
  if (fields === undefined) {
    const keys = Object.keys(shape)
      .filter((key) => key !== CLOSED)
      .map((key) => [key.endsWith("?") ? key.slice(0, -1) : key, key.endsWith("?"), shape[key] as Shape] as const);
    fields = { keys, closed: CLOSED in shape };
    fieldsOf.set(shape, fields);
  }
  const object = value as Record<string, unknown>;
  for (const [name, optional, field] of fields.keys) {
    const got = Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined;
    if (got === undefined) {
      if (optional) continue;
      return false;
    }
    if (!fits(field, got, view)) return false;
  }
  if (fields.closed) for (const name of Object.keys(object)) if (!(name in shape) && !(`${name}?` in shape)) return false;
  return true;
}

const patterns = new Map<string, RegExp>();

function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (pattern === undefined) patterns.set(source, (pattern = new RegExp(source)));
  return pattern;
}

function findMismatch(shape: Shape, value: unknown, path: string, view: View | undefined): Mismatch | undefined {
  if (typeof shape === "number") return findMismatch(shapes[shape] as Shape, value, path, view);
  if (typeof shape === "string") {
    if (shape === "*" || isPrimitive(shape, value)) return undefined;
    return miss(path, NAMES[shape] ?? shape, value);
  }
  if (!Array.isArray(shape)) return objectMismatch(shape as { readonly [field: string]: Shape }, value, path, view);
  const [tag, ...args] = shape as unknown as readonly [string, ...unknown[]];
  switch (tag) {
    case "a": {
      if (!Array.isArray(value)) return miss(path, "an array", value);
      for (let i = 0; i < value.length; i++) {
        const found = findMismatch(args[0] as Shape, value[i], `${path}[${i}]`, view);
        if (found) return found;
      }
      return undefined;
    }
    case "|": {
      let best: Mismatch | undefined;
      for (const option of args) {
        const found = findMismatch(option as Shape, value, path, view);
        if (!found) return undefined;
        // The option that got furthest into the value says best what is wrong with it;
        // options that fail at the same place say together what would do there.
        if (!best || closeness(found) > closeness(best)) best = found;
        else if (found.path === best.path && closeness(found) === closeness(best) && !best.expected.includes(found.expected)) {
          best = { ...best, expected: `${best.expected} or ${found.expected}` };
        }
      }
      return best;
    }
    case "@":
      // Without a view (a caller that does not say who it is), any view will do.
      return view === undefined
        ? findMismatch(["|", ...args] as Shape, value, path, undefined)
        : findMismatch(args[view] as Shape, value, path, view);
    case "=":
      return args.includes(value) ? undefined : miss(path, `one of ${args.map((v) => JSON.stringify(v)).join(", ")}`, value);
    case "p":
      return typeof value === "string" && patternOf(args[0] as string).test(value)
        ? undefined
        : miss(path, `a string matching ${String(args[0])}`, value);
    case "r": {
      const [min, max, integer] = args as [number, number, number];
      const ok = isPrimitive(integer ? "i" : "n", value) && (value as number) >= min && (value as number) <= max;
      return ok ? undefined : miss(path, `${integer ? "an integer" : "a number"} from ${min} to ${max}`, value);
    }
    default:
      return undefined;
  }
}

function isPrimitive(code: string, value: unknown): boolean {
  switch (code) {
    case "s":
      return typeof value === "string";
    case "n":
      return typeof value === "number" && Number.isFinite(value);
    case "i":
      return Number.isInteger(value);
    case "b":
      return typeof value === "boolean";
    case "z":
      return value === null;
    case "o":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

function objectMismatch(
  fields: { readonly [field: string]: Shape },
  value: unknown,
  path: string,
  view: View | undefined,
): Mismatch | undefined {
  if (!isPrimitive("o", value)) return miss(path, "an object", value);
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (key === CLOSED) continue;
    const optional = key.endsWith("?");
    const name = optional ? key.slice(0, -1) : key;
    const at = fieldPath(path, name);
    if (!Object.prototype.hasOwnProperty.call(object, name) || object[name] === undefined) {
      if (optional) continue;
      return miss(at, "present", undefined);
    }
    const found = findMismatch(fields[key] as Shape, object[name], at, view);
    if (found) return found;
  }
  if (CLOSED in fields) {
    const extra = Object.keys(object).find((name) => !(name in fields) && !(`${name}?` in fields));
    if (extra !== undefined) return miss(fieldPath(path, extra), "absent (the API does not take it)", object[extra]);
  }
  return undefined;
}

/** The key that marks an object that takes no other fields (a request body). */
const CLOSED = "!";

function fieldPath(path: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

/** How far into the value a mismatch was found: nesting depth first, then a wrong value over a missing one. */
function closeness(m: Mismatch): number {
  return (m.path.match(/[.[]/g)?.length ?? 0) * 2 + (m.expected === "present" ? 0 : 1);
}

function miss(path: string, expected: string, value: unknown): Mismatch {
  return { path, expected, found: kindOf(value) };
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && !Number.isFinite(value)) return "a number out of range";
  const type = typeof value;
  return type === "object" ? "an object" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

/** `$.items[0].id should be a string, not null`, for messages. */
export function describeMismatch(m: Mismatch): string {
  return m.expected === "present" ? `${m.path} is missing` : `${m.path} should be ${m.expected}, not ${m.found}`;
}
