// Valid answers of the service, per operation and access type: what the fuzz
// test mutates, and what it answers every request that is not the one under
// test. Sources, best first: the recorded exchanges of the real service
// (tests/fixtures/exchanges, for the caller's access type), then the examples
// of the bundled OpenAPI document, then recordings made with another access type.
import { readdirSync, readFileSync } from "node:fs";
import type { AccessType, OperationId } from "../../generated/operations.js";
import { matchOperation } from "../../runtime/http/operations.js";
import { doc, resolve, type Example, type MediaType } from "../fixtures/document.js";
import { jwt } from "../helpers/fake-service.js";

/** A 2xx answer: its status and its JSON body (undefined: no body). */
export interface BaseAnswer {
  readonly status: number;
  readonly body: unknown;
  /** Where it comes from, for messages. */
  readonly source: string;
}

interface Recording {
  readonly source: string;
  readonly request: { readonly method: string; readonly path: string; readonly headers?: Record<string, string> };
  readonly response: { readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown };
}

/** The virtual clock of every case starts here (2026-11-21T12:00:00Z). */
export const START_MILLIS = Date.UTC(2026, 10, 21, 12, 0, 0);
/** An access token good for an hour of virtual time. */
export const freshAccessToken = (sub = "3241a285-8329-4d69-8f3d-316e08cf140c") => jwt({ exp: Math.floor(START_MILLIS / 1000) + 3600, sub });
/** The project of the admin app; the admin project answers are rewritten to it. */
export const ADMIN_PROJECT_ID = "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b";

const ACCESS_TYPES: readonly AccessType[] = ["client", "server", "admin"];

function loadRecordings(): { readonly op: OperationId; readonly access: string; readonly answer: BaseAnswer }[] {
  const dir = new URL("../fixtures/exchanges/", import.meta.url);
  const out: { op: OperationId; access: string; answer: BaseAnswer }[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const recordings = JSON.parse(readFileSync(new URL(file, dir), "utf8")) as Recording[];
    recordings.forEach((recording, index) => {
      const { request, response } = recording;
      if (response.status < 200 || response.status > 299) return;
      // A known error sent with HTTP 200 (override-error-status) is not a success.
      if (response.headers?.["x-stack-known-error"] !== undefined) return;
      const op = matchOperation(request.method, request.path.split("?")[0] ?? "").operationId;
      if (op === undefined) return;
      const access = request.headers?.["x-stack-access-type"] ?? "-";
      out.push({ op, access, answer: { status: response.status, body: response.body, source: `exchanges/${file}#${index}` } });
    });
  }
  return out;
}

function loadExamples(): Map<OperationId, BaseAnswer[]> {
  const out = new Map<OperationId, BaseAnswer[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const id = op.operationId as OperationId | undefined;
      if (id === undefined || typeof op.responses !== "object") continue;
      for (const [status, raw] of Object.entries(op.responses)) {
        if (!/^2\d\d$/.test(status)) continue;
        const response = resolve(raw);
        const media: MediaType | undefined = response.content?.["application/json"];
        const answers: BaseAnswer[] = [];
        if (media?.example !== undefined)
          answers.push({ status: Number(status), body: media.example, source: `openapi ${method.toUpperCase()} ${path} example` });
        for (const [name, example] of Object.entries(media?.examples ?? {})) {
          const value = resolve<Example>(example).value;
          if (value !== undefined)
            answers.push({ status: Number(status), body: value, source: `openapi ${method.toUpperCase()} ${path} examples.${name}` });
        }
        // An answer without content (a 200 with no body) is an answer too.
        if (media === undefined && response.content === undefined)
          answers.push({ status: Number(status), body: undefined, source: `openapi ${method.toUpperCase()} ${path} (no body)` });
        if (answers.length > 0) out.set(id, [...(out.get(id) ?? []), ...answers]);
      }
    }
  }
  return out;
}

/** Rewrites what a valid answer must carry in this test's world: tokens alive on the virtual clock, the admin app's project. */
function fixup(op: OperationId, body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const copy = structuredClone(body) as Record<string, unknown>;
  if (typeof copy["access_token"] === "string") copy["access_token"] = freshAccessToken();
  if (typeof copy["refresh_token"] === "string") copy["refresh_token"] = "rt-fuzz-signed-in";
  if (op === "getAdminProject" || op === "updateAdminProject") copy["id"] = ADMIN_PROJECT_ID;
  return copy;
}

const exampleValue = (name: string): unknown => structuredClone(doc.components.examples[name]?.value);

/**
 * Server views that neither the recordings nor the document's examples show:
 * made from the examples the way the document's schema composes them.
 */
function synthesized(op: OperationId, access: AccessType): BaseAnswer[] {
  if (access === "client") return [];
  if (op === "listTeamMemberProfiles") {
    const list = exampleValue("TeamMemberProfileList") as { items: Record<string, unknown>[] } | undefined;
    const user = exampleValue("ServerUser") as Record<string, unknown> | undefined;
    if (!list || !user) return [];
    // ServerTeamMemberProfile = TeamMemberProfile + { user: ServerUser }.
    const items = list.items.map((item) => ({ ...item, user: { ...user, id: item["user_id"] } }));
    return [
      { status: 200, body: { ...list, items }, source: "openapi examples TeamMemberProfileList + ServerUser (ServerTeamMemberProfile)" },
    ];
  }
  return [];
}

const size = (answer: BaseAnswer) => JSON.stringify(answer.body ?? null).length;

export interface AnswerBook {
  /** Every valid answer known for `op` as `access` sees it, best first. */
  candidates(op: OperationId, access: AccessType): readonly BaseAnswer[];
}

export function loadAnswerBook(): AnswerBook {
  const recordings = loadRecordings();
  const examples = loadExamples();
  const cache = new Map<string, BaseAnswer[]>();
  return {
    candidates(op, access) {
      const key = `${op} ${access}`;
      const known = cache.get(key);
      if (known) return known;
      const recorded = (accessTypes: readonly string[]) =>
        recordings
          .filter((r) => r.op === op && accessTypes.includes(r.access))
          .map((r) => r.answer)
          // The richest recording first: more fields and list items to mutate.
          .sort((a, b) => size(b) - size(a));
      const others = [...ACCESS_TYPES.filter((a) => a !== access), "-"];
      const all = [...recorded([access]), ...(examples.get(op) ?? []), ...synthesized(op, access), ...recorded(others)];
      const seen = new Set<string>();
      const unique = all
        .map((answer) => ({ ...answer, body: fixup(op, answer.body) }))
        .filter((answer) => {
          const text = `${answer.status} ${JSON.stringify(answer.body ?? null)}`;
          if (seen.has(text)) return false;
          seen.add(text);
          return true;
        });
      cache.set(key, unique);
      return unique;
    },
  };
}
