/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API's origin (without /api/v1); default the local emulator, http://127.0.0.1:8102. */
  readonly VITE_STACK_API_URL?: string;
  readonly VITE_STACK_PROJECT_ID?: string;
  readonly VITE_STACK_PUBLISHABLE_CLIENT_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
