#!/usr/bin/env node
// @ts-check
// `make demo`: starts the local mock of the API (the embedded default) and runs
// the main job of an app against it with the built package: sign up, sign in,
// read the signed-in user, list their teams, sign out, printing what happens.
// Nothing leaves 127.0.0.1. Usage: node scripts/demo.mjs (after `make build`).

import { StackClientApp } from "../dist/index.js";
import { API_PREFIX, startMock } from "./mock.mjs";

const mock = await startMock({ quiet: true });
try {
  console.log(`Mock of the API listening on ${mock.baseUrl}${API_PREFIX}\n`);
  const app = new StackClientApp({
    projectId: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
    publishableClientKey: "pck_demo_publishable_client_key",
    baseUrl: mock.baseUrl,
    tokenStore: "memory",
    redirectMethod: "none",
  });
  const email = "ada@example.com";
  const password = "correct horse battery staple";

  const signUp = await app.signUpWithCredential({ email, password, verificationCallbackUrl: "http://localhost:5173/handler/email-verification" });
  console.log(`signUpWithCredential(${email}) -> ${signUp.status}`);
  const signIn = await app.signInWithCredential({ email, password });
  console.log(`signInWithCredential(${email}) -> ${signIn.status}`);

  const user = await app.getUser({ or: "throw" });
  console.log(`getUser() -> ${user.displayName} <${user.primaryEmail}>, id ${user.id}, signed up ${user.signedUpAt.toISOString()}`);
  const teams = await user.listTeams();
  console.log(`user.listTeams() -> ${teams.map((team) => `${team.displayName} (${team.id})`).join(", ")}`);
  const project = await app.getProject();
  console.log(`getProject() -> ${project.displayName}; sign-up ${project.config.signUpEnabled ? "enabled" : "disabled"}`);

  await app.signOut();
  console.log(`signOut() -> getUser() now returns ${await app.getUser()}`);
} finally {
  await mock.stop();
}
