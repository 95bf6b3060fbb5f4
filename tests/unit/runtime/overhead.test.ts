// client.api is openapi-fetch's own client over the pipeline: its Response is a
// real one, read once; the request goes out once per attempt; middleware gets a
// real Request; shared reads still give each caller its own answer.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStackClient } from "../../../runtime/http/client.js";
import { answerAsDocumented } from "../../helpers/documented-answers.js";
import { fakeService, testEnvironment, useFakeClock } from "../../helpers/fake-service.js";
import { rejectionOf } from "../../helpers/outcome.js";

function setup() {
  const service = fakeService((sent) => answerAsDocumented(sent));
  const seen: Request[] = [];
  const { env } = testEnvironment(async (request) => {
    seen.push(request);
    return service.fetch(request);
  });
  // One origin: `seen` is every Request the runtime makes, the failover's background one included.
  const client = createStackClient({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore: null,
    environment: env,
    failover: false,
  });
  return { service, client, seen };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("the Response a call hands back", () => {
  it("is a used Response whose body cannot be read again", async () => {
    const { client } = setup();
    const { data, response } = await client.api.GET("/projects/current");
    expect(data).toMatchObject({ id: expect.any(String) });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
  });

  it("gives callers sharing a read equal answers, each its own object", async () => {
    const { client, seen } = setup();
    const [a, b] = await Promise.all([client.api.GET("/projects/current"), client.api.GET("/projects/current")]);
    expect(seen).toHaveLength(1);
    expect(a.data).toEqual(b.data);
    expect(a.data).not.toBe(b.data);
  });
});

describe("the request sent", () => {
  it("is one Request per attempt, with the caller's headers, body and a manual redirect", async () => {
    const { client, seen, service } = setup();
    await client.api.POST("/teams", { body: { display_name: "A" }, headers: { "x-custom": "1" } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(Request);
    expect(seen[0]!.redirect).toBe("manual");
    const sent = service.requests[0]!;
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.headers["x-custom"]).toBe("1");
    expect(sent.body).toBe(JSON.stringify({ display_name: "A" }));
  });

  it("is a real Request for middleware registered on the client", async () => {
    const { client, service } = setup();
    const given: unknown[] = [];
    client.api.use({
      onRequest({ request }) {
        given.push(request);
        request.headers.set("x-from-middleware", "yes");
        return request;
      },
    });
    const { response } = await client.api.GET("/projects/current");
    expect(response.status).toBe(200);
    expect(given[0]).toBeInstanceOf(Request);
    expect(service.requests[0]!.headers["x-from-middleware"]).toBe("yes");
  });
});

describe("a read started without a signal", () => {
  it("is not cancelled when a caller that joined it with a signal leaves", async () => {
    let release: (response: Response) => void = () => {};
    const aborted: string[] = [];
    const service = fakeService(() => new Promise<Response>((resolve) => (release = resolve)));
    const { env } = testEnvironment(async (request) => {
      request.signal.addEventListener("abort", () => aborted.push(request.url));
      return service.fetch(request);
    });
    const client = createStackClient({ projectId: "proj-1", tokenStore: null, environment: env });
    const staying = client.api.GET("/projects/current");
    const leaving = new AbortController();
    const left = rejectionOf(client.api.GET("/projects/current", { signal: leaving.signal }));
    await vi.advanceTimersByTimeAsync(0);
    expect(service.requests).toHaveLength(1);
    leaving.abort();
    expect(await left).toBeInstanceOf(DOMException);
    expect(aborted).toEqual([]);
    release(answerAsDocumented(service.requests[0]!));
    expect((await staying).response.status).toBe(200);
  });
});
