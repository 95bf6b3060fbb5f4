// The tables and their indexes, private to the store: records go in, change
// and go out only through `insert`, `patch` and `remove`, which keep every
// index current, so that no read has to check an index against its table.
// The store (store.ts) builds its queries and cascading deletes on these.
import {
  TABLE_NAMES,
  type Changes,
  type ContactChannelRecord,
  type RowOf,
  type SessionRecord,
  type StateJson,
  type TableName,
  type Tables,
} from "./records.js";

/** The key a record is kept under in its table (what the state's records do not carry as one field). */
function keyOf(table: TableName, record: Readonly<Record<string, unknown>>): string {
  switch (table) {
    case "memberships":
      return `${String(record["team_id"])}/${String(record["user_id"])}`;
    case "permissionDefinitions":
      return `${String(record["project_id"])}/${String(record["scope"])}/${String(record["id"])}`;
    case "grants":
      return [record["project_id"], record["scope"], record["team_id"] ?? "", record["user_id"], record["permission_id"]]
        .map(String)
        .join("/");
    case "codes":
      return String(record["code"]);
    default:
      return String(record["id"]);
  }
}

/** E-mail addresses are compared without case, as the service does. */
function authKey(projectId: string, email: string): string {
  return `${projectId}\n${email.toLowerCase()}`;
}

export class TableStore {
  readonly #tables: Tables = emptyTables();
  /** Session id by refresh token. */
  readonly #sessionsByToken = new Map<string, string>();
  /** Contact channel ids by user id. */
  readonly #channelsByUser = new Map<string, Set<string>>();
  /** The id of the channel a user signs in with, by project and e-mail. */
  readonly #authChannels = new Map<string, string>();

  /** The key `record` is kept under in `table`. */
  protected keyOf<T extends TableName>(table: T, record: RowOf<T>): string {
    return keyOf(table, record as Readonly<Record<string, unknown>>);
  }

  protected row<T extends TableName>(table: T, key: string): RowOf<T> | undefined {
    return (this.#tables[table] as Map<string, RowOf<T>>).get(key);
  }

  /** A copy of the table's records: the caller may remove some while going through them. */
  protected rows<T extends TableName>(table: T): RowOf<T>[] {
    return [...(this.#tables[table] as Map<string, RowOf<T>>).values()];
  }

  /** Adds `record` (or replaces the one under its key), and indexes it. */
  insert<T extends TableName>(table: T, record: RowOf<T>): void {
    const key = this.keyOf(table, record);
    const before = this.row(table, key);
    if (before !== undefined) this.#unindex(table, key, before, false);
    (this.#tables[table] as Map<string, RowOf<T>>).set(key, record);
    this.#index(table, key, record);
  }

  /**
   * Changes the record under `key` in place (whoever holds it sees the change), moving it when its key changes and
   * re-indexing it. Undefined when there is none.
   */
  protected patch<T extends TableName>(table: T, key: string, changes: Changes<RowOf<T>>): RowOf<T> | undefined {
    const record = this.row(table, key);
    if (record === undefined) return undefined;
    this.#unindex(table, key, record, false);
    Object.assign(record as object, changes);
    const moved = this.keyOf(table, record);
    if (moved !== key) {
      if (table === "contactChannels") this.#channelsByUser.get((record as ContactChannelRecord).user_id)?.delete(key);
      this.#tables[table].delete(key);
      (this.#tables[table] as Map<string, RowOf<T>>).set(moved, record);
    }
    this.#index(table, moved, record);
    return record;
  }

  /** Removes the record under `key`, and its index entries. */
  protected remove(table: TableName, key: string): void {
    const record = this.row(table, key);
    if (record === undefined) return;
    this.#unindex(table, key, record, true);
    this.#tables[table].delete(key);
  }

  /** Removes every record of `table` that `test` picks. */
  protected removeWhere<T extends TableName>(table: T, test: (record: RowOf<T>) => boolean): void {
    for (const record of this.rows(table)) if (test(record)) this.remove(table, this.keyOf(table, record));
  }

  #index(table: TableName, key: string, record: unknown): void {
    if (table === "sessions") this.#sessionsByToken.set((record as SessionRecord).refresh_token, key);
    if (table !== "contactChannels") return;
    const channel = record as ContactChannelRecord;
    let ids = this.#channelsByUser.get(channel.user_id);
    if (!ids) this.#channelsByUser.set(channel.user_id, (ids = new Set()));
    ids.add(key);
    if (channel.used_for_auth) this.#authChannels.set(authKey(channel.project_id, channel.value), key);
  }

  /** `leaving`: the record goes; else it is indexed again at once, and keeps its place among its user's channels. */
  #unindex(table: TableName, key: string, record: unknown, leaving: boolean): void {
    if (table === "sessions") this.#sessionsByToken.delete((record as SessionRecord).refresh_token);
    if (table !== "contactChannels") return;
    const channel = record as ContactChannelRecord;
    if (leaving) {
      const ids = this.#channelsByUser.get(channel.user_id);
      ids?.delete(key);
      if (ids?.size === 0) this.#channelsByUser.delete(channel.user_id);
    }
    const auth = authKey(channel.project_id, channel.value);
    if (this.#authChannels.get(auth) === key) this.#authChannels.delete(auth);
  }

  /** The user's contact channels. */
  channelsOf(userId: string): ContactChannelRecord[] {
    return [...(this.#channelsByUser.get(userId) ?? [])].map((id) => this.row("contactChannels", id) as ContactChannelRecord);
  }

  /** The channel a user signs in with by this e-mail (any case) in this project. */
  authChannelByEmail(projectId: string, email: string): ContactChannelRecord | undefined {
    const id = this.#authChannels.get(authKey(projectId, email));
    return id === undefined ? undefined : this.row("contactChannels", id);
  }

  sessionByRefreshToken(token: string): SessionRecord | undefined {
    const id = this.#sessionsByToken.get(token);
    return id === undefined ? undefined : this.row("sessions", id);
  }

  /** How many records each table holds (what a test checks a cascade against). */
  sizes(): Record<TableName, number> {
    return Object.fromEntries(TABLE_NAMES.map((name) => [name, this.#tables[name].size])) as Record<TableName, number>;
  }

  clear(): void {
    for (const name of TABLE_NAMES) this.#tables[name].clear();
    this.#sessionsByToken.clear();
    this.#channelsByUser.clear();
    this.#authChannels.clear();
  }

  toJSON(): StateJson {
    const tables: Record<string, unknown[]> = {};
    for (const name of TABLE_NAMES) tables[name] = this.rows(name).map((record) => structuredClone(record));
    return { version: 1, tables };
  }

  /** Replaces the state with `json` (as `toJSON` writes it). */
  load(json: StateJson): void {
    if (json === null || typeof json !== "object" || json.version !== 1 || typeof json.tables !== "object") {
      throw new TypeError('Emulator state must be { "version": 1, "tables": { ... } }, as exportState() writes it.');
    }
    this.clear();
    for (const name of TABLE_NAMES) {
      for (const record of json.tables[name] ?? []) this.insert(name, structuredClone(record) as never);
    }
  }
}

function emptyTables(): Tables {
  return {
    projects: new Map(),
    keySets: new Map(),
    users: new Map(),
    contactChannels: new Map(),
    sessions: new Map(),
    teams: new Map(),
    memberships: new Map(),
    permissionDefinitions: new Map(),
    grants: new Map(),
    apiKeys: new Map(),
    codes: new Map(),
    emails: new Map(),
    cliLogins: new Map(),
    emailTemplates: new Map(),
    passkeys: new Map(),
    oauthCodes: new Map(),
    activityEvents: new Map(),
    files: new Map(),
  };
}
