/// <reference types="vite/client" />

// The project settings vite.config.ts puts into the bundle ("" when unset).
interface ImportMetaEnv {
  /** The Stack Auth project's id. */
  readonly STACK_PROJECT_ID: string;
  /** The project's publishable client key. */
  readonly STACK_PUBLISHABLE_CLIENT_KEY: string;
  /** The API's origin, without /api/v1. */
  readonly STACK_API_URL: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
