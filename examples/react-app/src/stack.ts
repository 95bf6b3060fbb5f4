// The app's StackClientApp, created once for the whole app. The project comes
// from STACK_PROJECT_ID, STACK_PUBLISHABLE_CLIENT_KEY and STACK_API_URL (see
// .env.example and vite.config.ts); unset, it is the local emulator's demo project.
import { StackClientApp } from "stackkit";
import { watchedFetch } from "./connection.js";
import { navigate } from "./router.js";

/** The demo project of the local emulator (`npm run emulator`, `make demo` in the stackkit repository). */
const EMULATOR = {
  projectId: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
  publishableClientKey: "pck_example_publishable_client_key",
  apiUrl: "http://127.0.0.1:8102",
};

export const stackApp = new StackClientApp({
  projectId: import.meta.env.STACK_PROJECT_ID || EMULATOR.projectId,
  publishableClientKey: import.meta.env.STACK_PUBLISHABLE_CLIENT_KEY || EMULATOR.publishableClientKey,
  baseUrl: import.meta.env.STACK_API_URL || EMULATOR.apiUrl,
  tokenStore: "cookie",
  // New accounts (a sign-up, or a first OAuth sign-in) land on a welcome page; returning users on the home page.
  urls: { afterSignUp: "/welcome" },
  // The app's redirects (after sign-in, to sign-in, …) change the page without a reload.
  redirectMethod: { navigate: (url) => navigate(url) },
  // A short Retry-After is waited for quietly; a longer one fails at once, and the page says how long to wait,
  // instead of a button that stays busy for minutes.
  maxRetryAfterMs: 10_000,
  // Every request's outcome reaches the connection banner (connection.ts).
  environment: { fetch: watchedFetch },
});
