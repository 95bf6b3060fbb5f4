// The request log's masking (emulator/engine/request-log.ts): what the emulator's page and
// `GET /emulator/v1/requests/{id}` show of an exchange never holds a credential, and holds
// everything else as it was.
import { describe, expect, it } from "vitest";
import { MASK, maskedBody, maskedHeaders, readAnswer, redactedSearch, RequestLog } from "../../emulator/engine/request-log.js";

describe("the request log's masking", () => {
  it("masks credential headers and keeps the others", () => {
    expect(
      maskedHeaders([
        ["authorization", "Bearer abc"],
        ["cookie", "stack-refresh=xyz"],
        ["set-cookie", "a=b"],
        ["x-stack-access-token", "a.b.c"],
        ["x-stack-refresh-token", "r"],
        ["x-stack-secret-server-key", "ssk"],
        ["x-stack-super-secret-admin-key", "sak"],
        ["x-stack-admin-access-token", "t"],
        ["x-stack-publishable-client-key", "pck"],
        ["x-stack-project-id", "p"],
        ["content-type", "application/json"],
      ]),
    ).toEqual({
      authorization: MASK,
      cookie: MASK,
      "set-cookie": MASK,
      "x-stack-access-token": MASK,
      "x-stack-refresh-token": MASK,
      "x-stack-secret-server-key": MASK,
      "x-stack-super-secret-admin-key": MASK,
      "x-stack-admin-access-token": MASK,
      "x-stack-publishable-client-key": "pck",
      "x-stack-project-id": "p",
      "content-type": "application/json",
    });
  });

  it("masks secret fields of a JSON body at any depth, keeping a known error's code and the publishable key", () => {
    const body = {
      password: "hunter22",
      old_password: "x",
      code: "abcdefghijklmnopqrstuvwxyz0123456789abcdefghi",
      nonce: "n",
      otp: "ABC123",
      items: [{ secret_server_key: "ssk", publishable_client_key: "pck", super_secret_admin_key: "sak", id_token: "i" }],
      totp_secret_base64: "T",
      code_verifier: "v",
      is_code_valid: true,
      has_password: false,
      email: "ada@example.com",
    };
    expect(JSON.parse(maskedBody(JSON.stringify(body))!)).toEqual({
      password: MASK,
      old_password: MASK,
      code: MASK,
      nonce: MASK,
      otp: MASK,
      items: [{ secret_server_key: MASK, publishable_client_key: "pck", super_secret_admin_key: MASK, id_token: MASK }],
      totp_secret_base64: MASK,
      code_verifier: MASK,
      is_code_valid: true,
      has_password: false,
      email: "ada@example.com",
    });
    expect(JSON.parse(maskedBody('{"code":"USER_NOT_FOUND","error":"User not found."}')!)).toEqual({
      code: "USER_NOT_FOUND",
      error: "User not found.",
    });
  });

  it("masks a form body parameter by parameter, and keeps any other body as it is", () => {
    expect(maskedBody("grant_type=refresh_token&refresh_token=abc&client_secret=pck&client_id=p")).toBe(
      `grant_type=refresh_token&refresh_token=${encodeURIComponent(MASK)}&client_secret=${encodeURIComponent(MASK)}&client_id=p`,
    );
    expect(maskedBody("404 — this page does not exist")).toBe("404 — this page does not exist");
    expect(maskedBody("")).toBeNull();
  });

  it("keeps the bodies of the latest 500 exchanges, cut past 64 KiB, and numbers lines on across a clear", () => {
    const log = new RequestLog();
    const line = (id: number) => ({
      id,
      at: 0,
      method: "GET",
      path: "/x",
      operationId: null,
      projectId: null,
      accessType: null,
      status: 200,
      knownError: null,
      durationMs: 1,
    });
    for (let i = 0; i < 501; i++) {
      log.add(line(log.nextId()), {
        requestHeaders: [],
        requestBody: "",
        responseHeaders: [],
        responseBody: i === 500 ? "y".repeat(70_000) : "{}",
      });
    }
    expect(log.exchange(1)).toBeUndefined();
    expect(log.exchange(2)?.response.body).toBe("{}");
    expect(log.exchange(501)?.response.body).toBe(`${"y".repeat(65_536)}\n[… ${70_000 - 65_536} more characters not kept]`);
    log.clear();
    expect([log.lines, log.exchange(501)]).toEqual([[], undefined]);
    expect(log.nextId()).toBe(502);
  });

  it("reads an answer's text from what it was made of, else once, answering a Response that can still be read", async () => {
    const made = new Response("kept");
    expect(await readAnswer(made, "made of")).toEqual({ response: made, text: "made of" });
    const read = await readAnswer(new Response('{"a":1}', { status: 201, headers: { "x-a": "b" } }), undefined);
    expect([read.text, read.response.status, read.response.headers.get("x-a"), await read.response.text()]).toEqual([
      '{"a":1}',
      201,
      "b",
      '{"a":1}',
    ]);
    expect((await readAnswer(new Response(null, { status: 204 }), undefined)).text).toBe("");
  });

  it("redacts credentials in the query string of a logged path", () => {
    expect(redactedSearch(new URL("http://x/api/v1/a?code=abc&state=s&user_id=u"))).toBe(
      "?code=%5Bredacted%5D&state=%5Bredacted%5D&user_id=u",
    );
    expect(redactedSearch(new URL("http://x/api/v1/a"))).toBe("");
  });
});
