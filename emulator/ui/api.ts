// The page's only way to the emulator: its control API, at the page's own origin (`/emulator/v1/…`).
// Every action of the page is a request a test or another language can send too.
import type { LoggedExchange, LoggedRequest } from "../engine/request-log.js";
import type {
  ListPage,
  PendingFault,
  ProjectSummary,
  SessionSummary,
  SignInAs,
  TeamDetails,
  TeamSummary,
  UserSummary,
} from "../control-inspect-types.js";
import type { CodeRecord, EmailRecord } from "../engine/store.js";

/** A refusal of the control API, with the message it gave. */
export class ControlFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function control<T>(method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`/emulator/v1/${route}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  const text = await response.text();
  const parsed: unknown = text === "" ? undefined : JSON.parse(text);
  if (!response.ok) {
    const error = (parsed as { error?: string } | undefined)?.error ?? `${response.status} ${response.statusText}`;
    throw new ControlFailure(error, response.status);
  }
  return parsed as T;
}

const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== "") search.set(name, String(value));
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
};
const id = encodeURIComponent;

export type ServerUser = Record<string, unknown> & { id: string; display_name: string | null; primary_email: string | null };

/** The control API, one function per route the page uses. */
export const api = {
  projects: () => control<{ serviceVersion: string; projects: ProjectSummary[] }>("GET", "projects"),
  users: (projectId: string, o: { query?: string; cursor?: string; limit?: number }) =>
    control<ListPage<UserSummary>>("GET", `projects/${id(projectId)}/users${query(o)}`),
  createUser: (body: Record<string, unknown>) => control<{ id: string }>("POST", "users", body),
  user: (userId: string) => control<ServerUser>("GET", `users/${id(userId)}`),
  updateUser: (userId: string, changes: Record<string, unknown>) => control<ServerUser>("PATCH", `users/${id(userId)}`, changes),
  deleteUser: (userId: string) => control("DELETE", `users/${id(userId)}`),
  signInAs: (userId: string, callbackUrl?: string) =>
    control<SignInAs>("POST", `users/${id(userId)}/sign-in`, callbackUrl ? { callbackUrl } : {}),
  sessions: (userId: string) => control<SessionSummary[]>("GET", `users/${id(userId)}/sessions`),
  revokeSession: (sessionId: string) => control("DELETE", `sessions/${id(sessionId)}`),
  teams: (projectId: string, o: { query?: string; cursor?: string; limit?: number }) =>
    control<ListPage<TeamSummary>>("GET", `projects/${id(projectId)}/teams${query(o)}`),
  team: (teamId: string) => control<TeamDetails>("GET", `teams/${id(teamId)}`),
  emails: (projectId: string) => control<EmailRecord[]>("GET", `emails${query({ project_id: projectId })}`),
  codes: (recipient: string) => control<CodeRecord[]>("GET", `codes${query({ recipient })}`),
  requests: (since: number | undefined) => control<LoggedRequest[]>("GET", `requests${query({ since })}`),
  exchange: (requestId: number) => control<LoggedExchange>("GET", `requests/${requestId}`),
  clearRequests: () => control("DELETE", "requests"),
  clock: () => control<{ now: number; iso: string }>("GET", "clock"),
  advanceClock: (ms: number) => control<{ now: number; iso: string }>("POST", "clock/advance", { ms }),
  faults: () => control<(Omit<PendingFault, "remaining"> & { remaining: number | "always" })[]>("GET", "faults"),
  injectFault: (body: Record<string, unknown>) => control("POST", "faults", body),
  clearFaults: () => control("DELETE", "faults"),
  reset: () => control("POST", "reset", {}),
  exportState: () => control<unknown>("GET", "state"),
  importState: (state: unknown) => control("PUT", "state", state),
};
