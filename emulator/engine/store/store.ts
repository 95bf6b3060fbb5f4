// The emulator's state, as the handlers see it: named queries for reads, and
// operations for changes, the deletions cascading to everything that belongs
// to what goes (a user's sessions, channels, memberships, grants, keys,
// passkeys, codes, CLI logins and OAuth steps; a team's memberships, grants,
// keys and invitations; a project's every record), so that nothing is left
// pointing at a record that is gone, but for the log of issued access tokens,
// which outlives its users as the service's event log does.
import type {
  ActivityEventRecord,
  ApiKeyRecord,
  Changes,
  CliLoginRecord,
  CodeRecord,
  ContactChannelRecord,
  EmailRecord,
  FileRecord,
  GrantRecord,
  KeySetRecord,
  MembershipRecord,
  OAuthCodeRecord,
  PasskeyRecord,
  PermissionDefinitionRecord,
  ProjectRecord,
  RowOf,
  SessionRecord,
  TableName,
  TeamRecord,
  UserRecord,
} from "./records.js";
import { TABLE_NAMES } from "./records.js";
import { TableStore } from "./tables.js";

type Scope = "team" | "project";

export class Store extends TableStore {
  // One record by its key.
  project = (id: string): ProjectRecord | undefined => this.row("projects", id);
  keySet = (id: string): KeySetRecord | undefined => this.row("keySets", id);
  user = (id: string): UserRecord | undefined => this.row("users", id);
  channel = (id: string): ContactChannelRecord | undefined => this.row("contactChannels", id);
  session = (id: string): SessionRecord | undefined => this.row("sessions", id);
  team = (id: string): TeamRecord | undefined => this.row("teams", id);
  membership = (teamId: string, userId: string): MembershipRecord | undefined => this.row("memberships", `${teamId}/${userId}`);
  permissionDefinition = (projectId: string, scope: Scope, id: string): PermissionDefinitionRecord | undefined =>
    this.row("permissionDefinitions", `${projectId}/${scope}/${id}`);
  apiKey = (id: string): ApiKeyRecord | undefined => this.row("apiKeys", id);
  code = (code: string): CodeRecord | undefined => this.row("codes", code);
  oauthCode = (id: string): OAuthCodeRecord | undefined => this.row("oauthCodes", id);
  file = (id: string): FileRecord | undefined => this.row("files", id);
  emailTemplate = (key: string): RowOf<"emailTemplates"> | undefined => this.row("emailTemplates", key);

  // Lists, in the order the records were made.
  projects = (): ProjectRecord[] => this.rows("projects");
  keySetsOf = (projectId: string): KeySetRecord[] => this.rows("keySets").filter((set) => set.project_id === projectId);
  users = (): UserRecord[] => this.rows("users");
  usersOf = (projectId: string): UserRecord[] => this.rows("users").filter((user) => user.project_id === projectId);
  channelsOfProject = (projectId: string): ContactChannelRecord[] =>
    this.rows("contactChannels").filter((channel) => channel.project_id === projectId);
  sessions = (): SessionRecord[] => this.rows("sessions");
  sessionsOf = (userId: string): SessionRecord[] => this.rows("sessions").filter((session) => session.user_id === userId);
  teams = (): TeamRecord[] => this.rows("teams");
  teamsOf = (projectId: string): TeamRecord[] => this.rows("teams").filter((team) => team.project_id === projectId);
  teamsOfUser = (userId: string): TeamRecord[] => this.membershipsOfUser(userId).flatMap((m) => this.team(m.team_id) ?? []);
  memberships = (): MembershipRecord[] => this.rows("memberships");
  membershipsOfTeam = (teamId: string): MembershipRecord[] => this.rows("memberships").filter((m) => m.team_id === teamId);
  membershipsOfUser = (userId: string): MembershipRecord[] => this.rows("memberships").filter((m) => m.user_id === userId);
  permissionDefinitionsOf = (projectId: string, scope: Scope): PermissionDefinitionRecord[] =>
    this.rows("permissionDefinitions").filter((d) => d.project_id === projectId && d.scope === scope);
  grants = (): GrantRecord[] => this.rows("grants");
  grantsOf = (projectId: string, scope: Scope): GrantRecord[] =>
    this.rows("grants").filter((g) => g.project_id === projectId && g.scope === scope);
  apiKeysOf = (projectId: string): ApiKeyRecord[] => this.rows("apiKeys").filter((key) => key.project_id === projectId);
  /** The codes of a project, of one kind or all. */
  codesOf = (projectId: string, kind?: CodeRecord["kind"]): CodeRecord[] =>
    this.rows("codes").filter((code) => code.project_id === projectId && (kind === undefined || code.kind === kind));
  codes = (): CodeRecord[] => this.rows("codes");
  passkeys = (): PasskeyRecord[] => this.rows("passkeys");
  passkeysOf = (userId: string): PasskeyRecord[] => this.rows("passkeys").filter((passkey) => passkey.user_id === userId);
  passkeysByCredential = (projectId: string, credentialId: string): PasskeyRecord[] =>
    this.rows("passkeys").filter((passkey) => passkey.project_id === projectId && passkey.credential_id === credentialId);
  oauthCodes = (): OAuthCodeRecord[] => this.rows("oauthCodes");
  emails = (): EmailRecord[] => this.rows("emails");
  emailsOf = (projectId: string): EmailRecord[] => this.rows("emails").filter((email) => email.project_id === projectId);
  /** A project's activity events, oldest first. */
  activityEventsOf = (projectId: string): ActivityEventRecord[] =>
    this.rows("activityEvents").filter((event) => event.project_id === projectId);
  cliLoginBy = (field: "polling_code" | "login_code", code: string): CliLoginRecord | undefined =>
    this.rows("cliLogins").find((login) => login[field] === code);

  // Changes. Each changes the record in place and keeps the indexes current; undefined when there is none.
  updateProject = (id: string, changes: Changes<ProjectRecord>) => this.patch("projects", id, changes);
  updateKeySet = (id: string, changes: Changes<KeySetRecord>) => this.patch("keySets", id, changes);
  updateUser = (id: string, changes: Changes<UserRecord>) => this.patch("users", id, changes);
  updateChannel = (id: string, changes: Changes<ContactChannelRecord>) => this.patch("contactChannels", id, changes);
  updateSession = (id: string, changes: Changes<SessionRecord>) => this.patch("sessions", id, changes);
  updateTeam = (id: string, changes: Changes<TeamRecord>) => this.patch("teams", id, changes);
  updateMembership = (teamId: string, userId: string, changes: Changes<MembershipRecord>) =>
    this.patch("memberships", `${teamId}/${userId}`, changes);
  /** A permission renamed moves to its new key. */
  updatePermissionDefinition = (projectId: string, scope: Scope, id: string, changes: Changes<PermissionDefinitionRecord>) =>
    this.patch("permissionDefinitions", `${projectId}/${scope}/${id}`, changes);
  updateApiKey = (id: string, changes: Changes<ApiKeyRecord>) => this.patch("apiKeys", id, changes);
  updateCode = (code: string, changes: Changes<CodeRecord>) => this.patch("codes", code, changes);
  markCodeUsed = (code: string, at: number) => this.patch("codes", code, { used_at_millis: at });
  markOAuthCodeUsed = (id: string, at: number) => this.patch("oauthCodes", id, { used_at_millis: at });
  updatePasskey = (id: string, changes: Changes<PasskeyRecord>) => this.patch("passkeys", id, changes);
  updateCliLogin = (id: string, changes: Changes<CliLoginRecord>) => this.patch("cliLogins", id, changes);

  // Deletions of records nothing else hangs on.
  deleteChannel = (id: string) => this.remove("contactChannels", id);
  deleteSession = (id: string) => this.remove("sessions", id);
  deleteSessionsOf = (userId: string, keep?: (session: SessionRecord) => boolean) =>
    this.removeWhere("sessions", (session) => session.user_id === userId && !keep?.(session));
  deleteGrant = (grant: GrantRecord) => this.remove("grants", this.keyOf("grants", grant));
  deleteGrantsWhere = (test: (grant: GrantRecord) => boolean) => this.removeWhere("grants", test);
  deleteCode = (code: string) => this.remove("codes", code);
  deletePasskey = (id: string) => this.remove("passkeys", id);
  deleteOAuthCode = (id: string) => this.remove("oauthCodes", id);
  deleteOAuthCodesWhere = (test: (record: OAuthCodeRecord) => boolean) => this.removeWhere("oauthCodes", test);
  deleteEmail = (id: string) => this.remove("emails", id);
  deleteEmailTemplate = (key: string) => this.remove("emailTemplates", key);

  /**
   * Deletes a user and everything that is theirs: sessions (and the CLI logins that carry their refresh tokens),
   * contact channels, memberships, grants, user API keys, passkeys, the codes and OAuth steps issued for them
   * (`data.user_id`). Connected accounts live on the user record and go with it.
   */
  deleteUser(id: string): void {
    const tokens = new Set(this.sessionsOf(id).map((session) => session.refresh_token));
    this.removeWhere("cliLogins", (login) => login.refresh_token !== null && tokens.has(login.refresh_token));
    this.removeWhere("sessions", (session) => session.user_id === id);
    for (const channel of this.channelsOf(id)) this.remove("contactChannels", channel.id);
    this.removeWhere("memberships", (m) => m.user_id === id);
    this.removeWhere("grants", (g) => g.user_id === id);
    this.removeWhere("apiKeys", (key) => key.type === "user" && key.user_id === id);
    this.removeWhere("passkeys", (passkey) => passkey.user_id === id);
    this.removeWhere("codes", (code) => code.data["user_id"] === id);
    this.removeWhere("oauthCodes", (record) => record.data["user_id"] === id);
    this.remove("users", id);
  }

  /** Ends a membership: the member's permissions in the team go with it, and so does the team's selection. */
  deleteMembership(teamId: string, userId: string): void {
    this.remove("memberships", `${teamId}/${userId}`);
    this.removeWhere("grants", (g) => g.scope === "team" && g.team_id === teamId && g.user_id === userId);
    if (this.user(userId)?.selected_team_id === teamId) this.patch("users", userId, { selected_team_id: null });
  }

  /**
   * Deletes a permission definition, the grants of it, and its place in the definitions that contain it. (The
   * project's default lists are its configuration, which the caller updates.)
   */
  deletePermissionDefinition(projectId: string, scope: Scope, id: string): void {
    this.remove("permissionDefinitions", `${projectId}/${scope}/${id}`);
    for (const other of this.permissionDefinitionsOf(projectId, scope)) {
      const contained = other.contained_permission_ids.filter((c) => c !== id);
      this.patch("permissionDefinitions", this.keyOf("permissionDefinitions", other), { contained_permission_ids: contained });
    }
    this.removeWhere("grants", (g) => g.project_id === projectId && g.scope === scope && g.permission_id === id);
  }

  /** Deletes a team and what hangs on it: memberships, grants, team API keys, invitations; no user keeps it selected. */
  deleteTeam(id: string): void {
    this.removeWhere("memberships", (m) => m.team_id === id);
    this.removeWhere("grants", (g) => g.team_id === id);
    this.removeWhere("apiKeys", (key) => key.team_id === id);
    this.removeWhere("codes", (code) => code.kind === "team_invitation" && code.data["team_id"] === id);
    for (const user of this.rows("users")) if (user.selected_team_id === id) this.patch("users", user.id, { selected_team_id: null });
    this.remove("teams", id);
  }

  /** Deletes a project and every record of it, in every table. */
  deleteProject(id: string): void {
    for (const name of TABLE_NAMES) {
      if (name === "projects") continue;
      this.removeWhere(name as TableName, (record) => (record as { project_id?: unknown }).project_id === id);
    }
    this.remove("projects", id);
  }
}
