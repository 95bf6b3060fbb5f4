// Failures of the fuzz test, grouped into classes a developer can fix one by
// one: the same error thrown from the same place, or the same object handed
// back with fields of the wrong type, is one class however many cases hit it.
import { KnownError } from "../../generated/known-errors.js";
import { isStackError } from "../../runtime/errors.js";
import { errorClass, firstFrame, isTypedError, SetupError, type CaseOutcome, type MethodCase } from "./harness.js";
import type { Mutation, MutationKind } from "./mutations.js";

export type Category = "untyped error" | "hang" | "unhandled rejection" | "bad value" | "valid answer rejected" | "harness";

export interface FailureClass {
  readonly category: Category;
  readonly what: string;
  readonly frame: string;
  count: number;
  readonly methods: Set<string>;
  readonly kinds: Set<MutationKind | "baseline">;
  /** For bad values: the fields found wrong. */
  readonly fields: Set<string>;
  readonly example: { readonly index: number; readonly method: string; readonly mutation: string; readonly detail: string };
}

/** Digits and double-quoted text vary from case to case; single-quoted names (a property read) do not. */
const normalize = (text: string) =>
  text
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\[\d+\]/g, "[]")
    .replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi, "N")
    .slice(0, 160);

const list = (items: Iterable<string>, max = 8) => {
  const all = [...items];
  return all.length <= max ? all.join(", ") : `${all.slice(0, max).join(", ")} (+${all.length - max} more)`;
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Mutations of a 2xx body: the error the rule asks for is a ResponseFormatError. */
const BODY_KINDS: ReadonlySet<MutationKind> = new Set([
  "wrong-type",
  "odd-value",
  "delete-field",
  "list-items",
  "list-element",
  "combined",
  "truncated",
  "whitespace-body",
  "empty-body",
]);

export class Ledger {
  readonly classes = new Map<string, FailureClass>();
  /** Outcomes per mutation kind: ok, or the class of what was thrown. Statistics, not assertions. */
  readonly byKind = new Map<MutationKind, Map<string, number>>();
  /** For body mutations that threw: which error, from where (statistics). */
  readonly bodyErrors = new Map<string, { count: number; example: string }>();
  /** Paths the SDK sent requests to that the API does not have (ids from broken answers put into URLs). */
  readonly unknownRoutes = new Map<string, { count: number; example: string }>();
  /** ResponseFormatErrors of single-field mutations whose `path` is the field mutated, and all of them. */
  readonly paths = { same: 0, all: 0, examples: [] as string[] };

  constructor(readonly seed: number) {}

  get size(): number {
    return this.classes.size;
  }

  add(
    category: Category,
    what: string,
    frame: string,
    index: number,
    method: MethodCase,
    mutation: Mutation | null,
    detail: string,
    field?: string,
  ) {
    const key = `${category}|${normalize(what)}|${frame}`;
    let entry = this.classes.get(key);
    if (!entry) {
      entry = {
        category,
        what: normalize(what),
        frame,
        count: 0,
        methods: new Set(),
        kinds: new Set(),
        fields: new Set(),
        example: { index, method: method.name, mutation: mutation?.label ?? "(none: the valid answer)", detail },
      };
      this.classes.set(key, entry);
    }
    entry.count++;
    entry.methods.add(method.name);
    entry.kinds.add(mutation?.kind ?? "baseline");
    if (field !== undefined) entry.fields.add(field);
  }

  /** Files the outcome of case `index` under its class, if it failed. */
  judge(index: number, method: MethodCase, mutation: Mutation | null, outcome: CaseOutcome): void {
    const { settled } = outcome;
    for (const missing of outcome.unanswered)
      this.add("harness", `no valid answer for ${missing}`, "tests/fuzz/answers.ts", index, method, mutation, missing);
    if ("hang" in settled) {
      this.add("hang", `${method.name} never settled`, "-", index, method, mutation, settled.hang);
      return;
    }
    if (!settled.ok) {
      const error = settled.error;
      const message = messageOf(error);
      if (error instanceof SetupError) this.add("harness", message, firstFrame(error), index, method, mutation, message);
      // The fake answers at once: an attempt that timed out means the driver fired a timer too early.
      else if (isStackError(error, "RequestTimeoutError"))
        this.add("harness", `spurious ${message}`, firstFrame(error), index, method, mutation, message);
      else if (!isTypedError(error))
        this.add("untyped error", `${errorClass(error)}: ${message}`, firstFrame(error), index, method, mutation, message);
      else if (mutation?.mustSucceed)
        this.add("valid answer rejected", `${errorClass(error)}: ${message}`, firstFrame(error), index, method, mutation, message);
      return;
    }
    for (const problem of outcome.problems) {
      // `result[0].selectedTeam.createdAt should be ...`: one class per object handed back, the fields listed.
      const path = problem.split(" ")[0] ?? problem;
      const cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
      const object = normalize(cut > 0 ? path.slice(0, cut) : path);
      const field = `${path.slice(cut)} ${problem.slice(path.length + 1).replace(/, is .*$/, "")}`.replace(/^\./, "");
      this.add(
        "bad value",
        `${method.target}: ${object} handed back with a field of the wrong type`,
        `result of ${method.name}`,
        index,
        method,
        mutation,
        problem,
        normalize(field),
      );
    }
  }

  /**
   * The ResponseFormatError the rule asks for names the operation and the JSON
   * path of the first bad field: checked wherever one is thrown. Which error a
   * broken body gets, and whether its path is the field mutated, is counted.
   */
  checkFormatError(index: number, method: MethodCase, mutation: Mutation, outcome: CaseOutcome): void {
    const { settled } = outcome;
    for (const route of outcome.unknownRoutes) {
      const key = `${method.name}: ${route.replace(/\/[^/]*\d[^/]*(?=\/|$)/g, "/{id}")}`;
      const entry = this.unknownRoutes.get(key) ?? { count: 0, example: `case ${index}: ${mutation.label} → ${route}` };
      entry.count++;
      this.unknownRoutes.set(key, entry);
    }
    if ("hang" in settled || settled.ok) return;
    const error = settled.error;
    if (BODY_KINDS.has(mutation.kind) && isTypedError(error)) {
      const key = `${errorClass(error)} ← ${firstFrame(error)}`;
      const entry = this.bodyErrors.get(key) ?? {
        count: 0,
        example: `${method.name} ← ${mutation.label}: ${messageOf(error).slice(0, 160)}`,
      };
      entry.count++;
      this.bodyErrors.set(key, entry);
    }
    if (!isStackError(error, "ResponseFormatError")) return;
    const { operationId, path } = error as unknown as { operationId: unknown; path: unknown };
    const message = messageOf(error);
    if (operationId !== method.target) {
      this.add(
        "bad value",
        `ResponseFormatError names operation ${String(operationId)}, not the one answered`,
        firstFrame(error),
        index,
        method,
        mutation,
        message,
      );
    }
    if (typeof path !== "string" || !path.startsWith("$")) {
      this.add(
        "bad value",
        "ResponseFormatError without a JSON path ($...)",
        firstFrame(error),
        index,
        method,
        mutation,
        `path: ${String(path)}; ${message}`,
      );
    } else if (!message.includes(String(operationId)) || (path !== "$" && !message.includes(path))) {
      // "$" is the body itself (not JSON, not an object): there is no field to name.
      this.add(
        "bad value",
        "ResponseFormatError message does not name its operation and path",
        firstFrame(error),
        index,
        method,
        mutation,
        message,
      );
    }
    if (mutation.path !== undefined && mutation.kind !== "combined" && typeof path === "string") {
      this.paths.all++;
      if (path === mutation.path) this.paths.same++;
      else if (this.paths.examples.length < 5) this.paths.examples.push(`${mutation.label} → path ${path}`);
    }
  }

  formatStatistics(): string {
    const lines = [
      `ResponseFormatError.path is the field mutated in ${this.paths.same} of ${this.paths.all} single-field mutations` +
        (this.paths.examples.length > 0 ? ` (otherwise e.g. ${this.paths.examples.join("; ")})` : ""),
      "errors thrown for broken 2xx bodies (by class and first frame):",
    ];
    for (const [key, { count, example }] of [...this.bodyErrors].sort((a, b) => b[1].count - a[1].count).slice(0, 12)) {
      lines.push(`  ${String(count).padStart(6)}  ${key}`, `          e.g. ${example}`);
    }
    if (this.unknownRoutes.size > 0) {
      lines.push("requests to paths the API does not have (an id from a broken answer put into a URL; answered 404):");
      for (const [key, { count, example }] of this.unknownRoutes)
        lines.push(`  ${String(count).padStart(6)}  ${key}`, `          e.g. ${example}`);
    }
    return lines.join("\n");
  }

  tally(kind: MutationKind, outcome: CaseOutcome): void {
    const { settled } = outcome;
    const label =
      "hang" in settled
        ? "hang"
        : settled.ok
          ? "ok"
          : !isTypedError(settled.error)
            ? "untyped"
            : settled.error instanceof KnownError
              ? "KnownError"
              : errorClass(settled.error);
    const row = this.byKind.get(kind) ?? new Map<string, number>();
    row.set(label, (row.get(label) ?? 0) + 1);
    this.byKind.set(kind, row);
  }

  statistics(): string {
    const columns = [...new Set([...this.byKind.values()].flatMap((row) => [...row.keys()]))].sort();
    const lines = [`outcomes by mutation kind (${columns.join(" / ")}):`];
    for (const [kind, row] of [...this.byKind].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`  ${kind.padEnd(28)} ${columns.map((c) => String(row.get(c) ?? 0).padStart(6)).join("")}`);
    }
    return lines.join("\n");
  }

  summary(limit = 30): string {
    const classes = [...this.classes.values()].sort((a, b) => b.count - a.count);
    const total = classes.reduce((sum, c) => sum + c.count, 0);
    const lines = [
      `${total} failures in ${classes.length} distinct classes (seed ${this.seed}); the ${Math.min(limit, classes.length)} largest:`,
    ];
    classes.slice(0, limit).forEach((c, i) => {
      // "where", not "at": vitest would read an "at" line of the message as a stack frame.
      lines.push("", `#${i + 1} ${c.category}: ${c.what}  ×${c.count}`, `   where: ${c.frame}`);
      if (c.fields.size > 0) lines.push(`   fields: ${list(c.fields, 12)}`);
      lines.push(
        `   methods: ${list(c.methods)}`,
        `   mutations: ${list(c.kinds)}`,
        `   e.g. case ${c.example.index}: ${c.example.method} ← ${c.example.mutation}`,
        `        ${c.example.detail.slice(0, 300)}`,
      );
      if (c.example.index >= 0) lines.push(`        replay: FUZZ_SEED=${this.seed} FUZZ_CASE=${c.example.index} npx vitest run tests/fuzz`);
    });
    return lines.join("\n");
  }
}
