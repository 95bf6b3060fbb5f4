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
  if (typeof shape === "number") return mismatchOf(shapes[shape] as Shape, value, path, view);
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
        const found = mismatchOf(args[0] as Shape, value[i], `${path}[${i}]`, view);
        if (found) return found;
      }
      return undefined;
    }
    case "|": {
      let best: Mismatch | undefined;
      for (const option of args) {
        const found = mismatchOf(option as Shape, value, path, view);
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
      return view === undefined ? mismatchOf(["|", ...args] as Shape, value, path) : mismatchOf(args[view] as Shape, value, path, view);
    case "=":
      return args.includes(value) ? undefined : miss(path, `one of ${args.map((v) => JSON.stringify(v)).join(", ")}`, value);
    case "p":
      return typeof value === "string" && new RegExp(args[0] as string).test(value)
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
    const found = mismatchOf(fields[key] as Shape, object[name], at, view);
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
