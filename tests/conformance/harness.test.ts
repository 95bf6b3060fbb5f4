// The harness itself: a raw request reaches the emulator of each version, and a
// project made the way the service's own tests make one is usable with the
// owner's access token.
import { describe, expect, it } from "vitest";
import { ownedProject, serviceOf, SERVICE_VERSIONS, signUp } from "./harness.js";

describe.each(SERVICE_VERSIONS)("the conformance harness on %s", (version) => {
  it("signs a user up with a raw request and reads them back", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const me = await service.call("GET", "/users/me", { token: user.accessToken });
    expect([me.status, me.body.id, me.body.primary_email]).toEqual([200, user.userId, "ada@example.com"]);
  });

  it("makes a project owned by a user of the internal project", async () => {
    const service = await serviceOf(version);
    const { projectId } = await ownedProject(service);
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
