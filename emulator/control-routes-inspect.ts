// The control routes the emulator's page is built on (and any test may call): the projects and
// their keys, a project's users and teams a page at a time, one user (as the server API shows
// them) with their sessions, an administrator's changes to a user, "sign in as", and one
// exchange of the request log. Each calls the function of emulator/control-inspect.ts.
import type { ListPageOptions } from "./control-inspect-types.js";
import { bodyOf, ControlError, ok, optionalBoolean, optionalString, type ControlRoutes } from "./control-http.js";

/** A list's query, cursor and page size from the query string. */
function pageOptions(url: URL): ListPageOptions {
  const query = url.searchParams.get("query");
  const cursor = url.searchParams.get("cursor");
  const limit = url.searchParams.get("limit");
  if (limit !== null && !/^\d{1,4}$/.test(limit)) throw new ControlError('"limit" must be a whole number from 1 to 200');
  return {
    ...(query === null || query === "" ? {} : { query }),
    ...(cursor === null ? {} : { cursor }),
    ...(limit === null ? {} : { limit: Number(limit) }),
  };
}

const param = (params: Readonly<Record<string, string>>, name: string) => params[name] as string;

/** Metadata fields take any JSON but undefined: left out, the field stays as it is. */
function metadataFields(body: Record<string, unknown>) {
  const keys = ["clientMetadata", "clientReadOnlyMetadata", "serverMetadata"] as const;
  return Object.fromEntries(keys.flatMap((key) => (body[key] === undefined ? [] : [[key, body[key]]])));
}

export const INSPECTION_ROUTES: ControlRoutes = {
  projects: {
    GET: (_request, _url, control) => ok({ serviceVersion: control.serviceVersion(), projects: control.projects() }),
  },
  "projects/{projectId}/users": {
    GET: (_request, url, control, params) => ok(control.listUsers(param(params, "projectId"), pageOptions(url))),
  },
  "projects/{projectId}/teams": {
    GET: (_request, url, control, params) => ok(control.listTeams(param(params, "projectId"), pageOptions(url))),
  },
  "users/{userId}": {
    GET: (_request, _url, control, params) => ok(control.user(param(params, "userId"))),
    async PATCH(request, _url, control, params) {
      const body = await bodyOf(request);
      const displayName = body["displayName"];
      if (displayName !== undefined && displayName !== null && typeof displayName !== "string")
        throw new ControlError('"displayName" must be a string, or null for none');
      const verified = optionalBoolean(body, "primaryEmailVerified");
      const restricted = optionalBoolean(body, "restrictedByAdmin");
      return ok(
        control.updateUser(param(params, "userId"), {
          ...(displayName === undefined ? {} : { displayName: displayName as string | null }),
          ...metadataFields(body),
          ...(verified === undefined ? {} : { primaryEmailVerified: verified }),
          ...(restricted === undefined ? {} : { restrictedByAdmin: restricted }),
        }),
      );
    },
    DELETE(_request, _url, control, params) {
      control.deleteUser(param(params, "userId"));
      return ok();
    },
  },
  "users/{userId}/sign-in": {
    async POST(request, _url, control, params) {
      const callbackUrl = optionalString(await bodyOf(request), "callbackUrl");
      return ok(await control.signInAs(param(params, "userId"), callbackUrl === undefined ? {} : { callbackUrl }), 201);
    },
  },
  "users/{userId}/sessions": {
    GET: (_request, _url, control, params) => ok(control.sessions(param(params, "userId"))),
  },
  "sessions/{sessionId}": {
    DELETE(_request, _url, control, params) {
      control.revokeSession(param(params, "sessionId"));
      return ok();
    },
  },
  "teams/{teamId}": {
    GET: (_request, _url, control, params) => ok(control.team(param(params, "teamId"))),
  },
  "requests/{requestId}": {
    GET(_request, _url, control, params) {
      const id = param(params, "requestId");
      const exchange = /^\d{1,15}$/.test(id) ? control.requestExchange(Number(id)) : undefined;
      if (exchange === undefined) throw new ControlError(`No exchange ${id} is kept in the request log (the latest 500 are)`, 404);
      return ok(exchange);
    },
  },
};
