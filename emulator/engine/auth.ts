// Project and user authentication of a request, as the service does it (wire
// contract §2): the access type, the project, the key (or a project owner's
// admin access token), whether the operation allows this access type, and the
// user of the access token. Each failure is the service's known error.
import { operations, type AccessType, type OperationId } from "../../generated/operations.js";
import type { EmulatorContext } from "./context.js";
import { fail, statusFailure } from "./errors.js";
import type { ProjectRecord, SessionRecord, UserRecord } from "./store.js";
import { decodeJwt } from "jose";
import { verifyIssuedAccessToken } from "./tokens.js";

export const INTERNAL_PROJECT_ID = "internal";

/** The branch a request names without `x-stack-branch-id`, and the only one the emulator's projects have. */
export const DEFAULT_BRANCH_ID = "main";

/** What 2.8.86's clients may send as the publishable key of a project that does not require one: no key. */
export const PUBLIC_CLIENT_SENTINEL = "__stack_public_client__";

export interface Caller {
  readonly project: ProjectRecord;
  readonly accessType: AccessType;
  readonly user: UserRecord | null;
  readonly session: SessionRecord | null;
  readonly owner: UserRecord | null;
}

const ACCESS_TYPES: readonly string[] = ["client", "server", "admin"];

export async function authenticate(ctx: EmulatorContext, operationId: OperationId, headers: Headers): Promise<Caller> {
  const op = operations[operationId];
  const get = (name: string) => {
    const value = headers.get(name);
    return value === null || value === "" ? undefined : value;
  };
  const accessType = get("x-stack-access-type");
  const projectId = get("x-stack-project-id");
  const publishable = get("x-stack-publishable-client-key");
  const secret = get("x-stack-secret-server-key");
  const admin = get("x-stack-super-secret-admin-key");
  const adminToken = get("x-stack-admin-access-token");

  if (accessType === undefined) {
    if (publishable ?? secret ?? admin ?? adminToken) throw fail("PROJECT_KEY_WITHOUT_ACCESS_TYPE");
    throw fail("ACCESS_TYPE_REQUIRED");
  }
  if (!ACCESS_TYPES.includes(accessType)) {
    throw fail(
      "INVALID_ACCESS_TYPE",
      undefined,
      `The x-stack-access-type header must be 'client', 'server', or 'admin', but was '${accessType}'.`,
    );
  }
  if (projectId === undefined) throw fail("ACCESS_TYPE_WITHOUT_PROJECT_ID", { request_type: accessType });
  // Both versions read the user's access token before the project and its keys, on every route that takes the
  // x-stack headers, whether it uses the user or not: an expired token is ACCESS_TOKEN_EXPIRED even where the keys
  // are wrong, the project is unknown or the operation has no use for a user.
  const accessToken = get("x-stack-access-token");
  const claims = accessToken !== undefined ? await verifyIssuedAccessToken(ctx, accessToken, projectId, ctx.now()) : null;
  if (claims && ctx.profile.gatesAnonymousAndRestrictedUsers) {
    // As the service's request gate: the anonymous header implies the restricted one.
    const allowAnonymous = headers.get("x-stack-allow-anonymous-user") === "true";
    const allowRestricted = allowAnonymous || headers.get("x-stack-allow-restricted-user") === "true";
    if (claims.is_anonymous && !allowAnonymous) throw fail("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    if (claims.restricted_reason && !allowRestricted)
      throw fail("RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: claims.restricted_reason });
  }
  const project = ctx.store.project(projectId);
  const perProjectKey = ctx.profile.publishableClientKey === "per-project";
  // 2.8.86 looks the project up first: an unknown one is CURRENT_PROJECT_NOT_FOUND whatever stands for its keys.
  if (!project && perProjectKey) throw fail("CURRENT_PROJECT_NOT_FOUND", { project_id: projectId });
  const type = accessType as AccessType;

  let owner: UserRecord | null = null;
  if (adminToken !== undefined) {
    // The owner's admin access token stands for the project's keys at every access type; keys sent beside it are not read.
    owner = await projectOwner(ctx, projectId, adminToken);
    // 2.8.11: a project the user still manages (its id in their list) that no longer exists.
    if (!project) throw fail("INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN");
  } else if (type === "client" && perProjectKey && (publishable === undefined || publishable === PUBLIC_CLIENT_SENTINEL)) {
    if (project?.require_publishable_client_key !== false)
      throw fail("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: projectId });
  } else if (type === "client") {
    if (publishable === undefined) throw fail("CLIENT_AUTHENTICATION_REQUIRED");
    if (!hasKey(ctx, projectId, "publishable_client_key", publishable))
      throw fail("INVALID_PUBLISHABLE_CLIENT_KEY", { project_id: projectId });
  } else if (type === "server") {
    if (secret === undefined) throw fail("SERVER_AUTHENTICATION_REQUIRED");
    if (!hasKey(ctx, projectId, "secret_server_key", secret)) throw fail("INVALID_SECRET_SERVER_KEY", { project_id: projectId });
  } else {
    if (admin === undefined) throw fail("ADMIN_AUTHENTICATION_REQUIRED");
    if (!hasKey(ctx, projectId, "super_secret_admin_key", admin)) throw fail("INVALID_SUPER_SECRET_ADMIN_KEY", { project_id: projectId });
  }
  // 2.8.11 says a project does not exist only once its keys were shown valid, so an unknown project's keys are
  // simply invalid above (a deleted project's keys went with it).
  if (!project) throw fail("PROJECT_NOT_FOUND", { project_id: projectId });
  // Both versions read the branch (default `main`) and, once the keys are good, refuse one the project does not
  // have; the emulator keeps one branch per project.
  const branchId = get("x-stack-branch-id") ?? DEFAULT_BRANCH_ID;
  if (branchId !== DEFAULT_BRANCH_ID) throw fail("BRANCH_DOES_NOT_EXIST", { branch_id: branchId });
  if (!(op.accessTypes as readonly string[]).includes(type)) {
    throw fail("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: type, allowed_access_types: [...op.accessTypes] });
  }

  let user: UserRecord | null = null;
  let session: SessionRecord | null = null;
  // Only an operation that takes a user is handed one (the others' handlers never read it).
  if (claims && op.userTokens !== "none") {
    user = ctx.store.user(claims.sub) ?? null;
    session = ctx.store.session(claims.refresh_token_id) ?? null;
    // A token outlives its user only as far as its signature: a deleted user is nobody.
    if (user && user.project_id !== projectId) user = null;
  }
  return { project, accessType: type, user, session, owner };
}

/** Whether `value` is a live key of `kind` in one of the project's key sets. */
function hasKey(
  ctx: EmulatorContext,
  projectId: string,
  kind: "publishable_client_key" | "secret_server_key" | "super_secret_admin_key",
  value: string,
): boolean {
  const now = ctx.now();
  for (const set of ctx.store.keySetsOf(projectId)) {
    if (set[kind] !== value) continue;
    if (set.manually_revoked_at_millis !== undefined || set.expires_at_millis <= now) continue;
    return true;
  }
  return false;
}

/**
 * The ids of the projects `user` (of the internal project) manages: on 2.8.11 the list in their server metadata
 * (anything but a list of strings counts as none), on 2.8.86 the projects owned by a team they are a member of.
 */
export function managedProjectIds(ctx: EmulatorContext, user: UserRecord): string[] {
  if (ctx.profile.managedProjects === "server-metadata") {
    const ids = (user.server_metadata as { managedProjectIds?: unknown } | null)?.managedProjectIds;
    return Array.isArray(ids) && ids.every((id) => typeof id === "string") ? [...(ids as string[])] : [];
  }
  const ids: string[] = [];
  for (const project of ctx.store.projects()) {
    if (project.owner_team_id !== null && ctx.store.membership(project.owner_team_id, user.id) !== undefined) ids.push(project.id);
  }
  return ids;
}

/** The project an access token's audience names (2.8.86 marks anonymous and restricted users' audiences with a suffix). */
function audienceProject(ctx: EmulatorContext, token: string): { readonly projectId: string; readonly normal: boolean } {
  let audience: unknown;
  try {
    audience = decodeJwt(token).aud;
  } catch {
    throw fail("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  }
  if (typeof audience !== "string") throw fail("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  if (ctx.profile.accessTokens === "per-audience") {
    const suffix = /:(anon|restricted)$/.exec(audience);
    if (suffix) return { projectId: audience.slice(0, suffix.index), normal: false };
  }
  return { projectId: audience, normal: true };
}

/**
 * The internal-project user an admin access token stands for, who must manage the project, as both versions check
 * it: the token is verified first (expired: ADMIN_ACCESS_TOKEN_EXPIRED, else unparsable; 2.8.86 accepts only a
 * normal user's token, so an anonymous or restricted user's is unparsable), then it must be of the internal project
 * and its user must manage the project (ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN).
 */
async function projectOwner(ctx: EmulatorContext, projectId: string, token: string): Promise<UserRecord> {
  const audience = audienceProject(ctx, token);
  if (!audience.normal) throw fail("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  const claims = await verifyIssuedAccessToken(ctx, token, audience.projectId, ctx.now(), "admin");
  if (audience.projectId !== INTERNAL_PROJECT_ID) throw fail("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  const owner = ctx.store.user(claims.sub);
  // A deleted user's token is still valid until it expires: the service answers it with a status error, not a known one.
  if (!owner || owner.project_id !== INTERNAL_PROJECT_ID) {
    throw statusFailure(
      401,
      "The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.",
    );
  }
  if (!managedProjectIds(ctx, owner).includes(projectId)) throw fail("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  return owner;
}
