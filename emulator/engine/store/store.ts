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
  TeamRecord,
  UserRecord,
} from "./records.js";
import { TABLE_NAMES } from "./records.js";
import { TableStore, type IndexName } from "./tables.js";

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
  keySetsOf = (projectId: string): KeySetRecord[] => this.rowsBy("keySets", "project", projectId);
  users = (): UserRecord[] => this.rows("users");
  usersOf = (projectId: string): UserRecord[] => this.rowsBy("users", "project", projectId);
  channelsOfProject = (projectId: string): ContactChannelRecord[] => this.rowsBy("contactChannels", "project", projectId);
  sessions = (): SessionRecord[] => this.rows("sessions");
  sessionsOf = (userId: string): SessionRecord[] => this.rowsBy("sessions", "user", userId);
  teams = (): TeamRecord[] => this.rows("teams");
  teamsOf = (projectId: string): TeamRecord[] => this.rowsBy("teams", "project", projectId);
  teamsOfUser = (userId: string): TeamRecord[] => this.membershipsOfUser(userId).flatMap((m) => this.team(m.team_id) ?? []);
  memberships = (): MembershipRecord[] => this.rows("memberships");
  membershipsOfTeam = (teamId: string): MembershipRecord[] => this.rowsBy("memberships", "team", teamId);
  membershipsOfUser = (userId: string): MembershipRecord[] => this.rowsBy("memberships", "user", userId);
  permissionDefinitionsOf = (projectId: string, scope: Scope): PermissionDefinitionRecord[] =>
    this.rowsBy("permissionDefinitions", "project", projectId).filter((d) => d.scope === scope);
  grants = (): GrantRecord[] => this.rows("grants");
  grantsOf = (projectId: string, scope: Scope): GrantRecord[] =>
    this.rowsBy("grants", "project", projectId).filter((g) => g.scope === scope);
  apiKeysOf = (projectId: string): ApiKeyRecord[] => this.rowsBy("apiKeys", "project", projectId);
  /** The codes of a project, of one kind or all. */
  codesOf = (projectId: string, kind?: CodeRecord["kind"]): CodeRecord[] =>
    this.rowsBy("codes", "project", projectId).filter((code) => kind === undefined || code.kind === kind);
  codes = (): CodeRecord[] => this.rows("codes");
  passkeys = (): PasskeyRecord[] => this.rows("passkeys");
  passkeysOf = (userId: string): PasskeyRecord[] => this.rowsBy("passkeys", "user", userId);
  passkeysByCredential = (projectId: string, credentialId: string): PasskeyRecord[] =>
    this.rowsBy("passkeys", "project", projectId).filter((passkey) => passkey.credential_id === credentialId);
  oauthCodes = (): OAuthCodeRecord[] => this.rows("oauthCodes");
  emails = (): EmailRecord[] => this.rows("emails");
  emailsOf = (projectId: string): EmailRecord[] => this.rowsBy("emails", "project", projectId);
  /** A project's activity events, oldest first. */
  activityEventsOf = (projectId: string): ActivityEventRecord[] => this.rowsBy("activityEvents", "project", projectId);
  cliLoginBy = (field: "polling_code" | "login_code", code: string): CliLoginRecord | undefined =>
    this.rowsBy("cliLogins", field === "polling_code" ? "polling" : "login", code)[0];

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
    this.removeWhere("sessions", (session) => !keep?.(session), this.sessionsOf(userId));
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
    const user = this.user(id);
    const logins = user === undefined ? [] : this.rowsBy("cliLogins", "project", user.project_id);
    this.removeWhere("cliLogins", (login) => login.refresh_token !== null && tokens.has(login.refresh_token), logins);
    const all = () => true;
    this.removeWhere("sessions", all, this.sessionsOf(id));
    this.removeWhere("contactChannels", all, this.channelsOf(id));
    this.removeWhere("memberships", all, this.membershipsOfUser(id));
    this.removeWhere("grants", all, this.rowsBy("grants", "user", id));
    this.removeWhere("apiKeys", (key) => key.type === "user", this.rowsBy("apiKeys", "user", id));
    this.removeWhere("passkeys", all, this.passkeysOf(id));
    this.removeWhere("codes", all, this.rowsBy("codes", "user", id));
    this.removeWhere("oauthCodes", all, this.rowsBy("oauthCodes", "user", id));
    this.remove("users", id);
  }

  /** Ends a membership: the member's permissions in the team go with it, and so does the team's selection. */
  deleteMembership(teamId: string, userId: string): void {
    this.remove("memberships", `${teamId}/${userId}`);
    this.removeWhere("grants", (g) => g.scope === "team" && g.team_id === teamId, this.rowsBy("grants", "user", userId));
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
    this.removeWhere("grants", (g) => g.scope === scope && g.permission_id === id, this.rowsBy("grants", "project", projectId));
  }

  /** Deletes a team and what hangs on it: memberships, grants, team API keys, invitations; no user keeps it selected. */
  deleteTeam(id: string): void {
    const team = this.team(id);
    const all = () => true;
    this.removeWhere("memberships", all, this.membershipsOfTeam(id));
    this.removeWhere("grants", all, this.rowsBy("grants", "team", id));
    this.removeWhere("apiKeys", all, this.rowsBy("apiKeys", "team", id));
    const invitations = team === undefined ? [] : this.codesOf(team.project_id, "team_invitation");
    this.removeWhere("codes", (code) => code.data["team_id"] === id, invitations);
    for (const user of this.rowsBy("users", "selectedTeam", id)) this.patch("users", user.id, { selected_team_id: null });
    this.remove("teams", id);
  }

  /** Deletes a project and every record of it, in every table. */
  deleteProject(id: string): void {
    for (const name of TABLE_NAMES) {
      if (name === "projects") continue;
      // Every table but the projects' is indexed by project.
      this.removeWhere(name, () => true, this.rowsBy(name, "project" as IndexName<typeof name>, id));
    }
    this.remove("projects", id);
  }
}
