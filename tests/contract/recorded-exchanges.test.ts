// Replays exchanges recorded from the real service (its public end-to-end test
// snapshots, and the full exchanges of /work/shared/reference) through the bundled
// document's validator: the document must accept every request the service accepted
// and describe every answer it gave, known errors included. The recordings are the
// evidence; when one fails, the document is what needs fixing.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { OperationId } from "../../generated/operations.js";
import { answerShapeOf, describeMismatch, mismatchOf } from "../../runtime/http/shape.js";
import { createExchangeValidator, type Exchange } from "../helpers/openapi-validator.js";

interface RecordedExchange extends Exchange {
  readonly source: string;
}

// The recordings cover this many of the document's operations at least; raise it as recordings are added.
const MIN_DISTINCT_OPERATIONS = 80;

const exchangesDir = new URL("../fixtures/exchanges/", import.meta.url);
const files = readdirSync(exchangesDir)
  .filter((name) => name.endsWith(".json"))
  .sort();
const recordings = files.flatMap((file) =>
  (JSON.parse(readFileSync(new URL(file, exchangesDir), "utf8")) as RecordedExchange[]).map((exchange, index) => ({
    file,
    index,
    exchange,
  })),
);
const document = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8")) as object;
const validator = createExchangeValidator(document);

const operationOf = (exchange: Exchange) => validator.findOperation(exchange.request.method, exchange.request.path)?.operationId;

describe("recorded exchanges", () => {
  for (const file of files) {
    describe(file, () => {
      for (const { index, exchange } of recordings.filter((recording) => recording.file === file)) {
        const operation = operationOf(exchange) ?? `${exchange.request.method} ${exchange.request.path}`;
        it(`#${index} ${operation} ${exchange.response.status} ← ${exchange.source}`, () => {
          expect(validator.validate(exchange)).toEqual([]);
        });
      }
    });
  }
});

describe("the runtime's answer check (generated/shapes.ts)", () => {
  const VIEWS = { client: 0, server: 1, admin: 2 } as const;
  const successes = recordings.filter(
    ({ exchange }) =>
      exchange.response.status >= 200 &&
      exchange.response.status <= 299 &&
      exchange.response.headers?.["x-stack-known-error"] === undefined &&
      exchange.response.body !== undefined,
  );

  it("accepts every recorded success, each in the view of the access type that asked", () => {
    const refused = successes.flatMap(({ file, index, exchange }) => {
      const id = operationOf(exchange) as OperationId | undefined;
      const shape = answerShapeOf(id, exchange.response.status);
      const accessType = exchange.request.headers?.["x-stack-access-type"] as keyof typeof VIEWS | undefined;
      const mismatch = shape === undefined ? undefined : mismatchOf(shape, exchange.response.body, "$", accessType && VIEWS[accessType]);
      return mismatch ? [`${file}#${index} ${String(id)} (${String(accessType)}): ${describeMismatch(mismatch)}`] : [];
    });
    expect(successes.length).toBeGreaterThan(150);
    expect(refused).toEqual([]);
  });
});

describe("the recordings", () => {
  it("are well-formed: a source, a method, a relative path and a numeric status each", () => {
    const malformed = recordings.filter(
      ({ exchange }) =>
        !(
          typeof exchange.source === "string" &&
          exchange.source.length > 0 &&
          /^(GET|POST|PATCH|PUT|DELETE)$/.test(exchange.request.method) &&
          exchange.request.path.startsWith("/") &&
          !exchange.request.path.startsWith("/api/") &&
          Number.isInteger(exchange.response.status)
        ),
    );
    expect(malformed.map(({ file, index }) => `${file}#${index}`)).toEqual([]);
  });

  it("carry no snapshot placeholders left unredacted", () => {
    const leftovers = recordings.filter(({ exchange }) => /<stripped|<some fields/.test(JSON.stringify(exchange)));
    expect(leftovers.map(({ file, index }) => `${file}#${index}`)).toEqual([]);
  });

  it(`cover at least ${MIN_DISTINCT_OPERATIONS} distinct operations of the document`, () => {
    const operations = new Set(recordings.map(({ exchange }) => operationOf(exchange)).filter((id) => id !== undefined));
    const all = Object.values((document as { paths: Record<string, Record<string, { operationId?: string }>> }).paths)
      .flatMap((item) => Object.values(item).map((operation) => operation.operationId))
      .filter((id) => typeof id === "string");
    console.info(`recorded exchanges: ${recordings.length}; distinct operations covered: ${operations.size} of ${all.length}`);
    console.info(`operations without a recording: ${all.filter((id) => !operations.has(id)).join(", ")}`);
    expect(operations.size).toBeGreaterThanOrEqual(MIN_DISTINCT_OPERATIONS);
  });
});
