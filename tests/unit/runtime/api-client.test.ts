// client.api on a fresh copy of the runtime: middleware registered or removed
// before the first call applies in order, and it shares client.send's pipeline.
import { describe, expect, it, vi } from "vitest";
import { answerAsDocumented } from "../../helpers/documented-answers.js";
import { fakeService, testEnvironment } from "../../helpers/fake-service.js";

/** createStackClient from a fresh copy of the runtime (nothing cached from other tests). */
async function freshRuntime() {
  vi.resetModules();
  const { createStackClient } = await import("../../../runtime/http/client.js");
  const service = fakeService((sent) => answerAsDocumented(sent));
  const { env } = testEnvironment(service.fetch);
  const client = createStackClient({ projectId: "p-1", baseUrl: "https://api.example.com", tokenStore: null, environment: env });
  return { client, requests: service.requests };
}

describe("client.api on a fresh copy of the runtime", () => {
  it("runs middleware in order, without the ejected one, on the Request openapi-fetch builds", async () => {
    const { client, requests } = await freshRuntime();
    const calls: string[] = [];
    const first = { onRequest: () => void calls.push("first") };
    const ejected = { onRequest: () => void calls.push("ejected") };
    const last = {
      onRequest: ({ request }: { request: Request }) => {
        calls.push("last");
        const changed = new Request(request);
        changed.headers.set("x-from-middleware", "1");
        return changed;
      },
    };
    client.api.use(first, ejected, last);
    client.api.eject(ejected);
    const { data } = await client.api.GET("/projects/current");
    expect(data?.id).toEqual(expect.any(String));
    expect(calls).toEqual(["first", "last"]);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers["x-from-middleware"]).toBe("1");
  });

  it("answers a call made at once, with the project's headers, through the same pipeline as client.send", async () => {
    const { client, requests } = await freshRuntime();
    const [viaApi, viaSend] = await Promise.all([client.api.GET("/projects/current"), client.send("GET /projects/current")]);
    expect(viaApi.data).toEqual(viaSend.data);
    // One pipeline: the two identical reads in flight were one request.
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers["x-stack-project-id"]).toBe("p-1");
  });
});
