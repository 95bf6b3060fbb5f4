// Answers as the document's examples give them: a fake service that answers
// each request with a body the API allows, so that a test about what is sent
// is not also a test of a malformed answer.
import type { OperationId } from "../../generated/operations.js";
import type { components } from "../../generated/schema.js";
import { matchOperation } from "../../runtime/http/operations.js";
import { answerShapeOf, mismatchOf } from "../../runtime/http/shape.js";
import { doc, operations, resolve, type Example } from "../fixtures/document.js";
import { json, type SentRequest } from "./fake-service.js";

const VIEWS = { client: 0, server: 1, admin: 2 } as const;

/**
 * The first 2xx status and the first example body the document gives operation
 * `id`; for an answer whose view depends on who asks, the first example of the
 * view `accessType` gets (the client's by default).
 */
export function documentedAnswer(
  id: OperationId,
  accessType: keyof typeof VIEWS = "client",
): { readonly status: number; readonly body: unknown } {
  const found = operations.find(({ op }) => op.operationId === id);
  if (!found) throw new Error(`no operation ${id} in the document`);
  const [status, response] = Object.entries(found.op.responses).find(([code]) => /^2\d\d$/.test(code)) ?? [];
  const media = response ? resolve(response).content?.["application/json"] : undefined;
  if (!status || !media) return { status: Number(status ?? 200), body: undefined };
  const candidates =
    media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => resolve(e as Example).value);
  const shape = answerShapeOf(id, Number(status));
  const example = candidates.find((value) => shape === undefined || !mismatchOf(shape, value, "$", VIEWS[accessType])) ?? candidates[0];
  return { status: Number(status), body: structuredClone(example) };
}

/** The documented answer of the operation `sent` calls (`{ success: true }` for a path the document does not list). */
export function documentedAnswerTo(sent: SentRequest): { readonly status: number; readonly body: unknown } {
  const path = new URL(sent.url).pathname.replace(/^\/api\/v1/, "");
  const id = matchOperation(sent.method, path).operationId;
  const accessType = sent.headers["x-stack-access-type"];
  return id
    ? documentedAnswer(id, accessType === "server" || accessType === "admin" ? accessType : "client")
    : { status: 200, body: { success: true } };
}

/**
 * A fake-service handler: every request is answered with its operation's
 * documented example, with `extra` fields added to an object body (the service
 * may add fields; clients must keep working).
 */
export function answerAsDocumented(sent: SentRequest, extra: Record<string, unknown> = {}): Response {
  const { status, body } = documentedAnswerTo(sent);
  if (body === undefined) return new Response(null, { status });
  const isObject = typeof body === "object" && body !== null && !Array.isArray(body);
  return json(isObject ? { ...body, ...extra } : body, { status });
}

/** A copy of the document's named example `name` (components.examples), with `overrides` on top. */
export function documentedExample<T = Record<string, unknown>>(name: string, overrides: Record<string, unknown> = {}): T {
  const example = doc.components.examples[name];
  if (!example) throw new Error(`no example ${name} in the document`);
  return { ...(structuredClone(example.value) as Record<string, unknown>), ...overrides } as T;
}

/** Tokens as a sign-in answers them (SignInTokens), with `overrides`. */
export const wireTokens = (overrides: Record<string, unknown> = {}) =>
  documentedExample<Record<string, unknown>>("SignInTokens", overrides);
/** A user as the client sees it (ClientUser), with `overrides`. */
export const wireUser = (overrides: Record<string, unknown> = {}) =>
  documentedExample<components["schemas"]["ClientUser"]>("ClientUser", overrides);

export { doc };
