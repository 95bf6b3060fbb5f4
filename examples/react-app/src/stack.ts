// The app's StackClientApp, as a customer creates it once for the whole app.
// Pointed at the local emulator of the API (`make emulator`, `make demo`) unless VITE_STACK_API_URL says otherwise.
import { StackClientApp } from "stackkit";
import { navigate } from "./router.js";

export const stackApp = new StackClientApp({
  projectId: import.meta.env.VITE_STACK_PROJECT_ID ?? "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
  publishableClientKey: import.meta.env.VITE_STACK_PUBLISHABLE_CLIENT_KEY ?? "pck_example_publishable_client_key",
  baseUrl: import.meta.env.VITE_STACK_API_URL ?? "http://127.0.0.1:8102",
  tokenStore: "cookie",
  // New accounts (a sign-up, or a first OAuth sign-in) land on a welcome page; returning users on the home page.
  urls: { afterSignUp: "/welcome" },
  // The app's redirects (after sign-in, to sign-in, …) change the page without a reload.
  redirectMethod: { navigate: (url) => navigate(url) },
});
