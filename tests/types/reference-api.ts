// Type test, checked by `make typecheck` (tsc): every public member of the
// reference SDK's apps, and of the objects they hand out, that serves a feature of
// SPEC.md exists in stackkit with a compatible signature. "Compatible" means code
// written against the reference's declarations (@stackframe/js, the closest
// published version to 2.8.11) compiles against stackkit: stackkit's member
// accepts every argument list the reference's accepts, and what it returns can be
// used wherever the reference's return value is used (on the members listed here).
//
// Members left out are either features the spec does not have (payments, items,
// notification categories, data vault, TSX e-mail themes, drafts and templates,
// AI chat, OAuth-provider management, project transfer, the config-override API,
// logos) or the reference's internals (`_internalSession`, `toClientJson`, the
// internals symbol). Deliberate differences are listed in `DELIBERATE` below and in
// the README's migration section.
import type { KnownError as RefKnownError } from "@stackframe/stack-shared";
import type * as Ref from "@stackframe/js";
import type * as Ours from "../../runtime/index.js";

// WHAT CODE WRITTEN FOR THE REFERENCE RELIES ON

/** What app code reads from a known error. */
interface KnownErrorShape {
  readonly errorCode: string;
  readonly statusCode: number;
  readonly humanReadableMessage: string;
  readonly message: string;
  readonly details?: unknown;
  toDescriptiveJson(): unknown;
}

type Keys<T, K extends keyof T> = K;

type HandlerUrlKeys = Keys<Ref.HandlerUrls, Exclude<keyof Ref.HandlerUrls, "mfa">>;
type ProjectConfigKeys = keyof Ref.ProjectConfig;
type AdminProjectConfigKeys = Exclude<keyof Ref.AdminProjectConfig, "emailTheme">;
type ProjectKeys = keyof Ref.Project;
type AdminProjectKeys =
  | ProjectKeys
  | Keys<Ref.AdminProject, "description" | "createdAt" | "isProductionMode" | "config" | "update" | "delete" | "getProductionModeErrors">;
type TeamKeys = Keys<
  Ref.Team,
  | "id"
  | "displayName"
  | "profileImageUrl"
  | "clientMetadata"
  | "clientReadOnlyMetadata"
  | "inviteUser"
  | "listUsers"
  | "listInvitations"
  | "update"
  | "delete"
  | "createApiKey"
  | "listApiKeys"
>;
type ServerTeamKeys = TeamKeys | Keys<Ref.ServerTeam, "createdAt" | "serverMetadata" | "addUser" | "removeUser">;
type BaseUserKeys = Exclude<keyof Ref.User, "toClientJson">;
type AuthKeys = Exclude<keyof Ref.Auth, "_internalSession">;
type UserExtraKeys = Keys<
  Ref.CurrentUser,
  | "setDisplayName"
  | "sendVerificationEmail"
  | "setClientMetadata"
  | "updatePassword"
  | "setPassword"
  | "update"
  | "listContactChannels"
  | "createContactChannel"
  | "delete"
  | "getConnectedAccount"
  | "hasPermission"
  | "getPermission"
  | "listPermissions"
  | "selectedTeam"
  | "setSelectedTeam"
  | "createTeam"
  | "leaveTeam"
  | "getActiveSessions"
  | "revokeSession"
  | "getTeamProfile"
  | "createApiKey"
  | "listApiKeys"
  | "getTeam"
  | "listTeams"
>;
type CurrentUserKeys = BaseUserKeys | AuthKeys | UserExtraKeys;
type InternalUserKeys = Keys<Ref.CurrentInternalUser, "createProject" | "listOwnedProjects">;
type ServerUserKeys =
  | BaseUserKeys
  | UserExtraKeys
  | Keys<
      Ref.ServerUser,
      | "lastActiveAt"
      | "serverMetadata"
      | "setServerMetadata"
      | "setClientReadOnlyMetadata"
      | "setPrimaryEmail"
      | "grantPermission"
      | "revokePermission"
      | "createSession"
    >;
type AdminSentEmailKeys = Keys<Ref.AdminSentEmail, "id" | "to" | "subject" | "recipient" | "sentAt" | "error">;
type ClientAppKeys = Exclude<keyof Ref.StackClientApp, symbol | "getItem" | "useItem" | "redirectToMfa" | "useProject">;
type ServerAppKeys =
  ClientAppKeys | Keys<Ref.StackServerApp, "createTeam" | "createUser" | "getUser" | "getTeam" | "listUsers" | "listTeams">;
type AdminAppKeys =
  | ServerAppKeys
  | Keys<
      Ref.StackAdminApp,
      | "getProject"
      | "listInternalApiKeys"
      | "createInternalApiKey"
      | "listTeamPermissionDefinitions"
      | "createTeamPermissionDefinition"
      | "updateTeamPermissionDefinition"
      | "deleteTeamPermissionDefinition"
      | "listProjectPermissionDefinitions"
      | "createProjectPermissionDefinition"
      | "updateProjectPermissionDefinition"
      | "deleteProjectPermissionDefinition"
      | "sendTestEmail"
      | "listSentEmails"
    >;

/**
 * The members `K` of a reference type, each projected. Array fields of these
 * snapshots may be readonly in stackkit; arrays that methods answer stay mutable.
 */
type Shape<T, K extends keyof T> = { [P in K]: ShapeField<T[P]> };
type ShapeField<F> = 0 extends 1 & F ? F : F extends readonly (infer E)[] ? readonly Proj<E>[] : Proj<F>;

/**
 * A reference type as app code uses it: reference objects reduced to the members
 * listed above (most specific first, since the types are structural), known errors
 * to what app code reads from them, everything else kept, recursively.
 */
type Proj<T> = 0 extends 1 & T
  ? T
  : T extends Promise<infer U>
    ? Promise<Proj<U>>
    : T extends RefKnownError
      ? KnownErrorShape
      : T extends Date | string | number | boolean | bigint | symbol | null | undefined | void
        ? T
        : T extends (...args: infer A) => infer R
          ? (...args: Params<A>) => Proj<R>
          : T extends readonly (infer E)[]
            ? ProjArray<T, E>
            : T extends Ref.StackAdminApp<false>
              ? Shape<T, AdminAppKeys>
              : T extends Ref.AdminOwnedProject
                ? Shape<T, AdminProjectKeys | "app">
                : T extends Ref.AdminProject
                  ? Shape<T, AdminProjectKeys>
                  : T extends Ref.Project
                    ? Shape<T, ProjectKeys>
                    : T extends Ref.AdminProjectConfig
                      ? Shape<T, AdminProjectConfigKeys>
                      : T extends Ref.ProjectConfig
                        ? Shape<T, ProjectConfigKeys>
                        : T extends Ref.CurrentServerUser
                          ? Shape<T, ServerUserKeys | AuthKeys>
                          : T extends Ref.ServerTeamUser
                            ? Shape<T, ServerUserKeys | "teamProfile">
                            : T extends Ref.ServerUser
                              ? Shape<T, ServerUserKeys>
                              : T extends Ref.CurrentInternalUser
                                ? Shape<T, CurrentUserKeys | InternalUserKeys>
                                : T extends Ref.CurrentUser
                                  ? Shape<T, CurrentUserKeys>
                                  : T extends Ref.ServerTeam
                                    ? Shape<T, ServerTeamKeys>
                                    : T extends Ref.Team
                                      ? Shape<T, TeamKeys>
                                      : T extends Ref.AdminSentEmail
                                        ? Shape<T, AdminSentEmailKeys>
                                        : T extends Ref.HandlerUrls
                                          ? Shape<T, HandlerUrlKeys>
                                          : T extends object
                                            ? { [P in keyof T]: Proj<T[P]> }
                                            : T;

/** Arrays keep their extra members (`listUsers()` answers an array with `nextCursor`). */
type ProjArray<T, E> = Proj<E>[] & { [P in Exclude<keyof T, keyof E[] | number>]: Proj<T[P]> };

/**
 * What an app passes in. The reference objects it passes back (a team to
 * `hasPermission`) are stackkit's in the app. Two option values of the newer
 * reference are not stackkit's, deliberately: the `"nextjs-cookie"` token store
 * (stackkit has no Next.js binding) and the `"resend"` e-mail server type (not a
 * type of the spec's e-mail config). The newer reference also declares a
 * `direct` option on the server user's permission reads that its implementation
 * ignores; stackkit reads `recursive`, as both do.
 */
type Param<T> = 0 extends 1 & T
  ? T
  : T extends Ref.ServerTeam
    ? Ours.ServerTeam
    : T extends Ref.Team
      ? Ours.Team
      : T extends "nextjs-cookie" | "resend"
        ? never
        : T extends Date | Uint8Array | string | number | boolean | bigint | symbol | null | undefined | ((...a: never[]) => unknown)
          ? T
          : T extends object
            ? { [P in keyof T as P extends "direct" ? never : P]: Param<T[P]> }
            : T;
type Params<A> = { [I in keyof A]: Param<A[I]> };

/** Up to six overloads of a function type, each as [parameters, return]. */
type Overloads<F> = F extends {
  (...a: infer A1): infer R1;
  (...a: infer A2): infer R2;
  (...a: infer A3): infer R3;
  (...a: infer A4): infer R4;
  (...a: infer A5): infer R5;
  (...a: infer A6): infer R6;
}
  ? [A1, R1] | [A2, R2] | [A3, R3] | [A4, R4] | [A5, R5] | [A6, R6]
  : never;

/** Each of the reference member's overloads, as the function app code calls. */
type Calls<F> =
  Overloads<F> extends infer O ? (O extends [infer A extends unknown[], infer R] ? (...a: Params<A>) => Proj<R> : never) : never;

/** The reference's members `K` of `R` that `O` lacks or declares incompatibly; `never` when there are none. */
type Incompatible<R, O, K extends keyof R> = {
  [P in K]-?: P extends keyof O
    ? 0 extends 1 & R[P]
      ? never
      : R[P] extends (...a: never[]) => unknown
        ? [Calls<R[P]>] extends [infer C]
          ? C extends unknown
            ? O[P] extends C
              ? never
              : P
            : never
          : never
        : O[P] extends ShapeField<R[P]>
          ? never
          : P
    : P;
}[K];

/** Fails to compile, naming the members, unless `T` is `never`. */
type None<T extends never> = T;

// THE CHECKS
// Each line names the reference type, stackkit's, and the members compared.

export type Checks = [
  None<Incompatible<Ref.StackClientApp, Ours.StackClientApp, ClientAppKeys>>,
  None<Incompatible<Ref.StackServerApp, Ours.StackServerApp, ServerAppKeys>>,
  None<Incompatible<Ref.StackAdminApp, Ours.StackAdminApp, AdminAppKeys>>,
  None<Incompatible<Ref.CurrentUser, Ours.CurrentUser, CurrentUserKeys>>,
  None<Incompatible<Ref.CurrentInternalUser, Ours.CurrentInternalUser, CurrentUserKeys | InternalUserKeys>>,
  None<Incompatible<Ref.ServerUser, Ours.ServerUser, ServerUserKeys>>,
  None<Incompatible<Ref.CurrentServerUser, Ours.CurrentServerUser, ServerUserKeys | AuthKeys>>,
  None<Incompatible<Ref.Team, Ours.Team, TeamKeys>>,
  None<Incompatible<Ref.ServerTeam, Ours.ServerTeam, ServerTeamKeys>>,
  None<Incompatible<Ref.TeamUser, Ours.TeamUser, keyof Ref.TeamUser>>,
  None<Incompatible<Ref.ServerTeamUser, Ours.ServerTeamUser, ServerUserKeys | "teamProfile">>,
  None<Incompatible<Ref.TeamInvitation, Ours.TeamInvitation, keyof Ref.TeamInvitation>>,
  None<Incompatible<Ref.EditableTeamMemberProfile, Ours.EditableTeamMemberProfile, keyof Ref.EditableTeamMemberProfile>>,
  None<Incompatible<Ref.ContactChannel, Ours.ContactChannel, keyof Ref.ContactChannel>>,
  None<Incompatible<Ref.ServerContactChannel, Ours.ServerContactChannel, keyof Ref.ServerContactChannel>>,
  None<Incompatible<Ref.Session, Ours.CurrentUser["currentSession"], keyof Ref.Session>>,
  None<Incompatible<Ref.OAuthConnection, Ours.OAuthConnection, keyof Ref.OAuthConnection>>,
  None<Incompatible<Ref.AdminTeamPermission, Ours.TeamPermission, keyof Ref.AdminTeamPermission>>,
  None<Incompatible<Ref.Project, Ours.Project, ProjectKeys>>,
  None<Incompatible<Ref.ProjectConfig, Ours.Project["config"], ProjectConfigKeys>>,
  None<Incompatible<Ref.AdminProject, Ours.AdminProject, AdminProjectKeys>>,
  None<Incompatible<Ref.AdminOwnedProject, Ours.AdminOwnedProject, AdminProjectKeys | "app">>,
  None<Incompatible<Ref.AdminProjectConfig, Ours.AdminProjectConfig, AdminProjectConfigKeys>>,
  None<Incompatible<Ref.HandlerUrls, Ours.HandlerUrls, HandlerUrlKeys>>,
  None<Incompatible<Ref.InternalApiKey, Ours.InternalApiKey, keyof Ref.InternalApiKey>>,
  None<Incompatible<Ref.InternalApiKeyFirstView, Ours.InternalApiKeyFirstView, keyof Ref.InternalApiKeyFirstView>>,
  None<Incompatible<Ref.AdminSentEmail, Ours.AdminSentEmail, AdminSentEmailKeys>>,
  None<
    Incompatible<Ref.AdminTeamPermissionDefinition, Ours.AdminTeamPermissionDefinition, "id" | "description" | "containedPermissionIds">
  >,
  None<
    Incompatible<Ref.AdminProjectPermissionDefinition, Ours.AdminProjectPermissionDefinition, keyof Ref.AdminProjectPermissionDefinition>
  >,
];

// Known errors: the reference's members, on every class and instance.
export type KnownErrorChecks = [
  None<Incompatible<KnownErrorShape, Ours.KnownError, keyof KnownErrorShape>>,
  None<Incompatible<KnownErrorShape, Ours.KnownErrors["EmailPasswordMismatch"], keyof KnownErrorShape>>,
];
