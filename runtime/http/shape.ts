// Checks an answer against what the document says it is (generated/shapes.ts,
// compiled from the schemas). Every 2xx JSON answer passes through here before
// anything reads it, so mappers can trust the documented types and a broken
// answer fails as one typed error naming the first bad field, never as a
// TypeError somewhere later. Fields the document does not list are allowed:
// the service adds fields over time.
import { operationRoutes, type OperationId } from "../../generated/operations.js";
import { answerShapes, knownErrorDetailShapes, type Shape } from "../../generated/shapes.js";

export { describeMismatch, mismatchOf, type Mismatch, type View } from "../../generated/shapes.js";

/**
 * What operation `id` answers with `status`. A 2xx status the document does not
 * list is held to every 2xx answer the document does list (any may match).
 */
export function answerShapeOf(id: OperationId | undefined, status: number): Shape | undefined {
  const index = id === undefined ? undefined : answerIndex().get(id);
  const byStatus = index === undefined ? undefined : answerShapes[index];
  if (!byStatus) return undefined;
  return byStatus[status] ?? ["|", ...Object.values(byStatus)];
}

let answerIndexes: Map<string, number> | undefined;

/** Each operation's place in answerShapes: its place among the operations of the route table. */
function answerIndex(): Map<string, number> {
  if (answerIndexes === undefined) {
    answerIndexes = new Map(operationRoutes.flatMap(([, ...ops]) => ops).map(([, id], index) => [id, index]));
  }
  return answerIndexes;
}

/** What the `details` of known error `code` hold; undefined for a code the catalogue does not give details. */
export function detailsShapeOf(code: string): Shape | undefined {
  return Object.prototype.hasOwnProperty.call(knownErrorDetailShapes, code) ? knownErrorDetailShapes[code] : undefined;
}
