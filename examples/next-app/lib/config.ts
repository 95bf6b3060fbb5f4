// The Stack Auth project the app talks to, from the server's environment:
// STACK_PROJECT_ID, STACK_PUBLISHABLE_CLIENT_KEY, STACK_SECRET_SERVER_KEY and
// STACK_API_URL. Unset, it is the local emulator's demo project
// (`npm run emulator`). None of these reaches a browser: only server code and
// the middleware import this file, and the names have no NEXT_PUBLIC_ prefix.
// Read at run time, so one build serves any project.

/** The demo project of the local emulator, whose keys are public. */
const EMULATOR = {
  projectId: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
  publishableClientKey: "pck_example_publishable_client_key",
  secretServerKey: "ssk_example_secret_server_key",
  apiUrl: "http://127.0.0.1:8102",
};

/** What every part of the app needs to reach the project as its users. */
export function projectConfig() {
  return {
    projectId: process.env.STACK_PROJECT_ID || EMULATOR.projectId,
    publishableClientKey: process.env.STACK_PUBLISHABLE_CLIENT_KEY || EMULATOR.publishableClientKey,
    baseUrl: process.env.STACK_API_URL || EMULATOR.apiUrl,
  };
}

/** The secret server key: server code only, never the middleware's answers. */
export function secretServerKey(): string {
  return process.env.STACK_SECRET_SERVER_KEY || EMULATOR.secretServerKey;
}
