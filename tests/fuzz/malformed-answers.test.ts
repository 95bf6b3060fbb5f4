// A seeded fuzz test of malformed service answers. Every public method in
// tests/fuzz/methods.ts is called many times against a fake service that
// answers the method's operation with a mutated answer (wrong types, missing
// and extra fields, broken lists, truncated, blank and HTML bodies, wrong
// content types, inconsistent known errors, junk Retry-After, redirects, odd
// statuses) and every other request validly, on a virtual clock.
//
// The rule: a method returns a value whose documented fields have their
// documented types, or throws a typed error (one of the runtime's own, or a
// known error). Never a built-in error, never a hang, never an unhandled
// rejection, never a value whose getters throw. Unknown extra fields are
// accepted: a call whose only change is an extra field must succeed.
//
// Reproducible: FUZZ_SEED=<n> replays a run; FUZZ_CASE=<i> runs one case of it
// and prints everything about it; FUZZ_CASES=<n> sets how many cases run;
// FUZZ_VERBOSE=1 also lists the valid answers the baseline could not use.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessType, OperationId } from "../../generated/operations.js";
import { loadAnswerBook, type BaseAnswer } from "./answers.js";
import { errorClass, firstFrame, isTypedError, runCase, SetupError, type CaseOutcome, type MethodCase } from "./harness.js";
import { Ledger } from "./ledger.js";
import { METHODS } from "./methods.js";
import { caseSeed, drawMutation, Rng, type Mutation } from "./mutations.js";
import { obj, str } from "./shapes.js";

const DEFAULT_SEED = 20261121;
const MIN_MUTATED_ANSWERS = 10_000;
const MIN_METHODS = 30;
const env = (name: string) => process.env[name];
const seed = env("FUZZ_SEED") === undefined ? DEFAULT_SEED : Number(env("FUZZ_SEED")) >>> 0;
const onlyCase = env("FUZZ_CASE") === undefined ? undefined : Number(env("FUZZ_CASE"));
// A little over the minimum: a case whose call fails before reaching its operation serves no mutated answer.
const caseCount = env("FUZZ_CASES") === undefined ? 10_200 : Number(env("FUZZ_CASES"));
const verbose = env("FUZZ_VERBOSE") === "1";

/** The access type a method's requests carry, from the object it is called on. */
function accessOf(method: MethodCase): AccessType {
  if (/^(server|serverUser|serverTeam)\b/.test(method.name)) return "server";
  if (/^(admin|adminProject|internalApiKey)\b/.test(method.name)) return "admin";
  return "client";
}

// UNHANDLED REJECTIONS, FILED UNDER THE CASE THAT CAUSED THEM

let current:
  { readonly ledger: Ledger; readonly index: number; readonly method: MethodCase; readonly mutation: Mutation | null } | undefined;
const savedListeners: NodeJS.UnhandledRejectionListener[] = [];
const onUnhandled: NodeJS.UnhandledRejectionListener = (reason) => {
  const message = reason instanceof Error ? `${errorClass(reason)}: ${reason.message}` : `non-Error ${String(reason)}`;
  // `current` stays set after a case ends: a rejection that surfaces late is the last case's.
  if (current)
    current.ledger.add("unhandled rejection", message, firstFrame(reason), current.index, current.method, current.mutation, message);
  else throw reason instanceof Error ? reason : new Error(message);
};

beforeAll(() => {
  // Ours alone while the fuzz runs (vitest's would fail the run without saying which case).
  savedListeners.push(...process.listeners("unhandledRejection"));
  process.removeAllListeners("unhandledRejection");
  process.on("unhandledRejection", onUnhandled);
});

afterAll(() => {
  process.removeListener("unhandledRejection", onUnhandled);
  for (const listener of savedListeners) process.on("unhandledRejection", listener);
});

/** Runs one case with `current` set, and lets rejections it left behind surface before the next. */
async function run(
  ledger: Ledger,
  index: number,
  method: MethodCase,
  valid: Parameters<typeof runCase>[1],
  base: BaseAnswer,
  mutation: Mutation | null,
) {
  current = { ledger, index, method, mutation };
  const outcome = await runCase(method, valid, base, mutation);
  await new Promise((resolve) => setImmediate(resolve));
  return outcome;
}

// VALID ANSWERS THAT WORK

const book = loadAnswerBook();
/** Valid answers per operation and access type that made a method succeed; the first is what every non-target request gets. */
const working = new Map<string, BaseAnswer[]>();
const validAnswer = (op: OperationId, access: AccessType) => working.get(`${op} ${access}`)?.[0] ?? book.candidates(op, access)[0];

interface Baseline {
  /** The valid answers of the method's target that it handles. */
  readonly passing: BaseAnswer[];
  /** Why the others were not used. */
  readonly skipped: string[];
  /** Valid answers that ended in a built-in error: findings, not just skipped candidates. */
  readonly untyped: CaseOutcome[];
}

async function baseline(ledger: Ledger, method: MethodCase): Promise<Baseline> {
  const result: Baseline = { passing: [], skipped: [], untyped: [] };
  for (const candidate of book.candidates(method.target, accessOf(method))) {
    const outcome = await run(ledger, -1, method, validAnswer, candidate, null);
    const { settled } = outcome;
    if ("ok" in settled && settled.ok && outcome.problems.length === 0 && outcome.targetServed > 0 && outcome.unanswered.length === 0) {
      result.passing.push(candidate);
      continue;
    }
    const why =
      "hang" in settled
        ? settled.hang
        : !settled.ok
          ? `${errorClass(settled.error)}: ${settled.error instanceof Error ? settled.error.message : String(settled.error)}`
          : outcome.targetServed === 0
            ? `never asked for ${method.target} (asked: ${outcome.operations.join(", ")})`
            : outcome.unanswered.length > 0
              ? `unanswered: ${outcome.unanswered.join(", ")}`
              : outcome.problems.join("; ");
    result.skipped.push(`${method.name} ← ${candidate.source}: ${why}`);
    if ("ok" in settled && !settled.ok && !isTypedError(settled.error) && !(settled.error instanceof SetupError))
      result.untyped.push(outcome);
  }
  return result;
}

describe("malformed answers of the service (seeded fuzz)", () => {
  it("the harness notices untyped errors, hangs, unhandled rejections, throwing getters and bad values", async () => {
    const ledger = new Ledger(seed);
    const answer: BaseAnswer = { status: 200, body: { id: "x" }, source: "self-test" };
    const probe = (name: string, run: MethodCase["run"]): MethodCase => ({ name, target: "getCurrentUser", run, shape: obj({ id: str }) });
    const probes = [
      probe("untyped", async () => (undefined as unknown as { x: number }).x),
      probe("hang", () => new Promise(() => undefined)),
      probe("unhandled", async () => {
        void Promise.reject(new RangeError("left behind"));
        return { id: "x" };
      }),
      probe("getter", async () => ({
        get id(): string {
          throw new TypeError("late");
        },
      })),
      probe("bad value", async () => ({ id: 7, when: new Date(Number.NaN) })),
    ];
    for (const [index, method] of probes.entries())
      ledger.judge(index, method, null, await run(ledger, index, method, () => answer, answer, null));
    const categories = [...ledger.classes.values()].map((c) => `${c.category} ${[...c.methods].join()}`).sort();
    expect(categories).toEqual([
      "bad value bad value",
      "bad value getter",
      "hang hang",
      "unhandled rejection unhandled",
      "untyped error untyped",
    ]);
  });

  it(`turn into typed errors or well-typed values, never untyped errors, hangs or unhandled rejections (at least ${MIN_MUTATED_ANSWERS} mutated answers)`, async () => {
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const ledger = new Ledger(seed);
    const skipped: string[] = [];
    // Two passes: the second sees the answers the first found to work for every operation.
    const passing = new Map<MethodCase, BaseAnswer[]>();
    for (let pass = 0; pass < 2; pass++) {
      for (const method of METHODS) {
        if (passing.has(method)) continue;
        const found = await baseline(ledger, method);
        if (found.passing.length === 0 && pass === 0) continue;
        passing.set(method, found.passing);
        skipped.push(...found.skipped);
        for (const outcome of found.untyped) ledger.judge(-1, method, null, outcome);
        if (found.passing.length > 0) working.set(`${method.target} ${accessOf(method)}`, found.passing);
      }
    }
    const usable = METHODS.filter((m) => (passing.get(m)?.length ?? 0) > 0);
    for (const method of METHODS.filter((m) => !usable.includes(m))) {
      const why = skipped.filter((s) => s.startsWith(`${method.name} ←`)).join(" | ");
      ledger.add(
        "harness",
        `${method.name}: no valid answer of ${method.target} makes the call succeed`,
        "tests/fuzz/answers.ts",
        -1,
        method,
        null,
        why,
      );
    }

    let mutatedAnswers = 0;
    let servedAnswers = 0;
    const indices = onlyCase === undefined ? Array.from({ length: caseCount }, (_, i) => i) : [onlyCase];
    for (const index of indices) {
      const method = usable[index % usable.length]!;
      const rng = new Rng(caseSeed(seed, index));
      const base = rng.pick(passing.get(method)!);
      const mutation = drawMutation(rng, method.target, base);
      const outcome = await run(ledger, index, method, validAnswer, base, mutation);
      if (outcome.targetServed > 0) mutatedAnswers++;
      servedAnswers += outcome.targetServed;
      ledger.judge(index, method, mutation, outcome);
      ledger.checkFormatError(index, method, mutation, outcome);
      ledger.tally(mutation.kind, outcome);
      if (onlyCase !== undefined) {
        const { settled } = outcome;
        console.log(
          [
            `case ${index} (seed ${seed}): ${method.name}, target ${method.target}, base ${base.source}`,
            `mutation: ${mutation.label}`,
            `first answer served: ${JSON.stringify(mutation.answer(0))}`,
            `requests: ${outcome.operations.join(", ")}`,
            "hang" in settled
              ? `hang: ${settled.hang}`
              : settled.ok
                ? `returned; problems: ${outcome.problems.join("; ") || "none"}`
                : `threw: ${settled.error instanceof Error ? settled.error.stack : String(settled.error)}`,
          ].join("\n"),
        );
      }
    }

    // Every request must leave a redirect to the caller (`redirect: "manual"`): a followed one would carry the keys elsewhere.
    const followed = new Set<string>();
    for (const method of usable) {
      const outcome = await run(ledger, -1, method, validAnswer, passing.get(method)![0]!, null);
      for (const op of outcome.followedRedirects) followed.add(op);
    }
    if (followed.size > 0) {
      ledger.add(
        "bad value",
        'requests sent without redirect: "manual" (a 3xx would be followed, not reported)',
        "the Request the runtime builds",
        -1,
        usable[0]!,
        null,
        [...followed].join(", "),
      );
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const cpu = process.cpuUsage(cpuStart);
    const cpuSeconds = ((cpu.user + cpu.system) / 1e6).toFixed(1);
    console.log(`fuzz: ${mutatedAnswers} mutated answers, seed ${seed}, ${usable.length} methods`);
    console.log(
      `fuzz: ${servedAnswers} mutated answers served in all (retries included), ${indices.length} cases, ${seconds} s (${cpuSeconds} s of CPU)`,
    );
    console.log(ledger.statistics());
    console.log(ledger.formatStatistics());
    if (skipped.length > 0) {
      console.log(
        verbose
          ? `valid answers the baseline could not use (${skipped.length}):\n  ${skipped.join("\n  ")}`
          : `${skipped.length} valid answers the baseline could not use (mostly client views of server operations); FUZZ_VERBOSE=1 lists them`,
      );
    }

    if (onlyCase === undefined) expect(mutatedAnswers).toBeGreaterThanOrEqual(MIN_MUTATED_ANSWERS);
    expect(usable.length).toBeGreaterThanOrEqual(MIN_METHODS);
    if (ledger.size > 0) throw new Error(`malformed answers are not all handled: ${ledger.summary()}`);
  }, 600_000);
});
