// The answer shapes name no operation: they follow the route table's operations in
// order, and answerShapeOf finds an operation's answers by its place there.
import { describe, expect, it } from "vitest";
import { operationRoutes } from "../../generated/operations.js";
import { answerShapes } from "../../generated/shapes.js";
import { answerShapeOf } from "../../runtime/http/shape.js";
import { operations, resolve } from "../fixtures/document.js";

const routeOrder = operationRoutes.flatMap(([, ...ops]) => ops.map(([, id]) => id));

describe("answerShapes", () => {
  it("has one entry per operation of the route table, in its order", () => {
    expect(answerShapes).toHaveLength(routeOrder.length);
    expect(routeOrder).toEqual(operations.map(({ op }) => op.operationId));
  });

  it("holds each operation's 2xx JSON answers by status, and nothing for an operation without one", () => {
    operations.forEach(({ op }, index) => {
      const json = Object.entries(op.responses)
        .filter(([status, response]) => /^2\d\d$/.test(status) && resolve(response).content?.["application/json"]?.schema)
        .map(([status]) => Number(status));
      const entry = answerShapes[index];
      expect(entry === undefined ? [] : Object.keys(entry).map(Number), op.operationId).toEqual(json);
    });
  });

  it("is what answerShapeOf gives for an operationId; an unknown one has no shape", () => {
    expect(answerShapeOf("getCurrentUser", 200)).toBe(answerShapes[routeOrder.indexOf("getCurrentUser")]?.[200]);
    expect(answerShapeOf("pollCliLogin", 201)).toBe(answerShapes[routeOrder.indexOf("pollCliLogin")]?.[201]);
    expect(answerShapeOf("constructor" as never, 200)).toBeUndefined();
    expect(answerShapeOf(undefined, 200)).toBeUndefined();
  });
});
