// The engine end to end, in-process: routing, project authentication and the
// known-error protocol, every exchange checked against the document.
import { describe, expect, it } from "vitest";
import { demoApps, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();

describe("the emulator in-process", () => {
  it("answers a client app's getProject with the demo project", async () => {
    const project = await demoApps(emulator()).client().getProject();
    expect(project.displayName).toBe("Demo");
    expect(
      emulator()
        .control.requests()
        .map((r) => [r.operationId, r.status]),
    ).toEqual([["getCurrentProject", 200]]);
  });

  it("answers GET /health as the service does", async () => {
    const response = await emulator().fetch(new Request(`${emulator().apiOrigin}/health`));
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("the document check of every exchange", () => {
  it("catches an answer the document does not allow (here an injected one)", async () => {
    const { checkedEmulator } = await import("../helpers/emulator.js");
    const checked = await checkedEmulator();
    checked.control.injectFault("getCurrentProject", { kind: "status", status: 200, body: "not the project" });
    await demoApps(checked)
      .client()
      .getProject()
      .catch(() => undefined);
    expect(checked.violations.length).toBeGreaterThan(0);
    expect(checked.violations[0]).toMatch(/^GET \/api\/v1\/projects\/current 200: /);
  });
});
