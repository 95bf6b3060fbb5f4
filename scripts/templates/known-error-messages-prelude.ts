// The part of generated/known-error-messages.ts that does not depend on the
// catalogue: the renderer of the service's message templates. scripts/generate.mjs
// copies it verbatim above the generated templates; it lives here as real
// TypeScript so that it is type-checked and read like any source.
//
// The runtime never imports it: the service sends its text with every error it
// answers, and an error built without that text has a short message of its own
// (known-errors-prelude.ts). The emulator words its answers with it, and
// stackkit/testing hands it to tests and mocks that need the service's exact text.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type Filter = (value: unknown) => string | undefined;

// Each filter answers undefined when the value cannot be shown, so that the
// template that needs it is skipped instead of printing "undefined" or throwing.
const filters: Record<string, Filter> = {
  raw: (v) => (v === undefined || v === null ? undefined : typeof v === "string" ? v : JSON.stringify(v)),
  json: (v) => (v === undefined || v === null ? undefined : JSON.stringify(v)),
  iso: (v) => {
    if (typeof v !== "number" || !Number.isFinite(v)) return undefined;
    const date = new Date(v);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  },
  quoted_or: (v) => (Array.isArray(v) && v.length > 0 ? v.map((x) => `'${String(x)}'`).join(" or ") : undefined),
  // The service indents the blocks (and every line in them) by two spaces.
  overloads: (v) =>
    Array.isArray(v)
      ? "\n\n  " +
        v
          .map((e, i) => `Overload ${i + 1}: ${JSON.stringify(e, undefined, 2)}`)
          .join("\n\n")
          .replaceAll("\n", "\n  ")
      : undefined,
};

// {key}, {key|filter}, and {key=value}: a condition that shows nothing and holds when the
// value, as text, is `value` (`{would_work_if_email_was_verified=true}`, `{context=null}`).
// A key may name a field of a field: {restricted_reason.type}.
const PLACEHOLDER = /\{([\w.]+)(?:\|(\w+)|=([\w-]+))?\}/g;

/** The value at a dotted path of the details; undefined when a step is missing. */
function valueAt(details: Record<string, unknown>, path: string): unknown {
  let value: unknown = details;
  for (const key of path.split(".")) value = isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  return value;
}

function renderTemplate(template: string, details: Record<string, unknown>): string | undefined {
  let complete = true;
  const text = template.replace(PLACEHOLDER, (_, key: string, filter: string | undefined, expected: string | undefined) => {
    const value = valueAt(details, key);
    if (expected !== undefined) {
      if (value === undefined || (value === null ? "null" : String(value)) !== expected) complete = false;
      return "";
    }
    const shown = (filters[filter ?? "raw"] ?? filters.raw!)(value);
    if (shown === undefined) complete = false;
    return shown ?? "";
  });
  return complete ? text : undefined;
}

/**
 * Builds a message from the first template whose placeholders `details` can
 * fill. When none fits, the last template is used with the gaps marked.
 */
export function renderKnownErrorMessage(templates: readonly string[], details: unknown): string {
  const values = isRecord(details) ? details : {};
  for (const template of templates) {
    const text = renderTemplate(template, values);
    if (text !== undefined) return text;
  }
  const last = templates[templates.length - 1] ?? "";
  return last.replace(PLACEHOLDER, (_, key: string, _filter: unknown, expected: string | undefined) =>
    expected === undefined ? `<${key} unknown>` : "",
  );
}
