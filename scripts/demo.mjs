#!/usr/bin/env node
// @ts-check
// `make demo`: starts the local mock of the API (the embedded default) and walks
// through sign-up, sign-in, reading the signed-in user and listing their teams,
// printing each request and what came back. Nothing leaves 127.0.0.1.
// Usage: node scripts/demo.mjs

import createClient from "openapi-fetch";
import { API_PREFIX, startMock } from "./mock.mjs";

const PROJECT_ID = "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b";
const PUBLISHABLE_CLIENT_KEY = "pck_demo_publishable_client_key";

const mock = await startMock({ quiet: true });
try {
  console.log(`Mock of the API listening on ${mock.baseUrl}${API_PREFIX}\n`);
  /** @type {import("openapi-fetch").Client<import("../generated/schema.js").paths>} */
  const client = createClient({
    baseUrl: mock.baseUrl + API_PREFIX,
    headers: {
      "x-stack-project-id": PROJECT_ID,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": PUBLISHABLE_CLIENT_KEY,
      "x-stack-override-error-status": "true",
    },
  });
  // Tokens are secrets: the walk-through shows only their first characters.
  const redact = (/** @type {string} */ key, /** @type {unknown} */ value) =>
    /token/.test(key) && typeof value === "string" ? `${value.slice(0, 8)}… (redacted)` : value;
  /** @param {string} title @param {{ response: Response, data?: unknown, error?: unknown }} result */
  const show = (title, { response, data, error }) => {
    const body = JSON.stringify(data ?? error, redact, 2).replace(/\n/g, "\n     ");
    console.log(`${title}\n  -> HTTP ${response.status} ${body}\n`);
    if (!response.ok) throw new Error(`${title} failed`);
    return /** @type {any} */ (data);
  };

  show(
    "POST /auth/password/sign-up {email: ada@example.com}",
    await client.POST("/auth/password/sign-up", { body: { email: "ada@example.com", password: "correct horse battery staple" } }),
  );
  const tokens = show(
    "POST /auth/password/sign-in {email: ada@example.com}",
    await client.POST("/auth/password/sign-in", { body: { email: "ada@example.com", password: "correct horse battery staple" } }),
  );
  const asUser = { headers: { "x-stack-access-token": tokens.access_token } };
  const user = show("GET /users/me (with the access token)", await client.GET("/users/me", asUser));
  const teams = show("GET /teams?user_id=me", await client.GET("/teams", { ...asUser, params: { query: { user_id: "me" } } }));
  console.log(`Signed in as ${user.display_name} <${user.primary_email}>, member of: ${teams.items.map((/** @type {any} */ t) => t.display_name).join(", ")}`);
} finally {
  await mock.stop();
}
