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
export function recordKey(table: TableName, record: Readonly<Record<string, unknown>>): string {
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

/**
 * What a table's lists select on, beside its key: each names a value of a record (undefined or null: not indexed).
 * Every store list and cascade reads one of these instead of going through a whole table.
 */
const INDEXES: { readonly [T in TableName]?: Readonly<Record<string, (record: RowOf<T>) => unknown>> } = {
  keySets: { project: (set) => set.project_id },
  users: { project: (user) => user.project_id, selectedTeam: (user) => user.selected_team_id },
  contactChannels: { project: (channel) => channel.project_id, user: (channel) => channel.user_id },
  sessions: { project: (session) => session.project_id, user: (session) => session.user_id },
  teams: { project: (team) => team.project_id },
  memberships: { project: (m) => m.project_id, team: (m) => m.team_id, user: (m) => m.user_id },
  permissionDefinitions: { project: (d) => d.project_id },
  grants: { project: (g) => g.project_id, team: (g) => g.team_id, user: (g) => g.user_id },
  apiKeys: { project: (key) => key.project_id, team: (key) => key.team_id, user: (key) => key.user_id },
  codes: { project: (code) => code.project_id, user: (code) => code.data["user_id"] },
  emails: { project: (email) => email.project_id },
  cliLogins: { project: (login) => login.project_id, polling: (login) => login.polling_code, login: (login) => login.login_code },
  emailTemplates: { project: (template) => template.project_id },
  passkeys: { project: (passkey) => passkey.project_id, user: (passkey) => passkey.user_id },
  oauthCodes: { project: (record) => record.project_id, user: (record) => record.data["user_id"] },
  activityEvents: { project: (event) => event.project_id },
  files: { project: (file) => file.project_id },
};

/** The name of an index of table `T`. */
export type IndexName<T extends TableName> = keyof NonNullable<(typeof INDEXES)[T]> & string;

/**
 * One change of the state, as a journal keeps it: a record put under its key (added or replaced whole), some of a
 * record's fields changed, a record removed, or every table emptied.
 */
export type StoreChange =
  | { readonly kind: "put"; readonly table: TableName; readonly key: string; readonly record: unknown }
  | { readonly kind: "patch"; readonly table: TableName; readonly key: string; readonly changes: object; readonly record: unknown }
  | { readonly kind: "delete"; readonly table: TableName; readonly key: string }
  | { readonly kind: "clear" };

export class TableStore {
  readonly #tables: Tables = emptyTables();
  /** `table/index` → indexed value → the keys of the records with that value, in the order they got it. */
  readonly #indexes = new Map<string, Map<unknown, Set<string>>>();
  /** Session id by refresh token. */
  readonly #sessionsByToken = new Map<string, string>();
  /** The id of the channel a user signs in with, by project and e-mail. */
  readonly #authChannels = new Map<string, string>();
  #listener: ((change: StoreChange) => void) | undefined;

  /**
   * Calls `listener` with every change from now on, as it is made (one listener; undefined stops it). A put's
   * `record` (a patch's too, after the change) is the live record, which later changes alter in place, and a patch's
   * `changes` the caller's: a listener that keeps either copies it at once.
   */
  onChange(listener: ((change: StoreChange) => void) | undefined): void {
    this.#listener = listener;
  }

  /** The key `record` is kept under in `table`. */
  protected keyOf<T extends TableName>(table: T, record: RowOf<T>): string {
    return recordKey(table, record as Readonly<Record<string, unknown>>);
  }

  protected row<T extends TableName>(table: T, key: string): RowOf<T> | undefined {
    return (this.#tables[table] as Map<string, RowOf<T>>).get(key);
  }

  /** A copy of the table's records: the caller may remove some while going through them. */
  protected rows<T extends TableName>(table: T): RowOf<T>[] {
    return [...(this.#tables[table] as Map<string, RowOf<T>>).values()];
  }

  /** The records of `table` whose `index` value is `value`, in the order they got it (a copy, as `rows`). */
  protected rowsBy<T extends TableName>(table: T, index: IndexName<T>, value: unknown): RowOf<T>[] {
    const keys = this.#indexes.get(`${table}/${index}`)?.get(value);
    return keys === undefined ? [] : [...keys].map((key) => this.row(table, key) as RowOf<T>);
  }

  /** Adds `record` (or replaces the one under its key), and indexes it. */
  insert<T extends TableName>(table: T, record: RowOf<T>): void {
    const key = this.keyOf(table, record);
    const before = this.row(table, key);
    if (before !== undefined) this.#unindex(table, key, before, true);
    (this.#tables[table] as Map<string, RowOf<T>>).set(key, record);
    this.#index(table, key, record, undefined);
    this.#listener?.({ kind: "put", table, key, record });
  }

  /**
   * Changes the record under `key` in place (whoever holds it sees the change), moving it when its key changes and
   * re-indexing it. Undefined when there is none.
   */
  protected patch<T extends TableName>(table: T, key: string, changes: Changes<RowOf<T>>): RowOf<T> | undefined {
    const record = this.row(table, key);
    if (record === undefined) return undefined;
    const before = { ...record };
    Object.assign(record as object, changes);
    const moved = this.keyOf(table, record);
    if (moved === key) {
      this.#unindex(table, key, before, false, record);
      this.#index(table, key, record, before);
      if (this.#listener === undefined) return record;
      // What a journal keeps of it: the fields that are not what they were.
      const changed = Object.fromEntries(
        Object.entries(changes).filter(([name, value]) => (before as Record<string, unknown>)[name] !== value),
      );
      if (Object.keys(changed).length > 0) this.#listener({ kind: "patch", table, key, changes: changed, record });
    } else {
      this.#unindex(table, key, before, true);
      this.#tables[table].delete(key);
      (this.#tables[table] as Map<string, RowOf<T>>).set(moved, record);
      this.#index(table, moved, record, undefined);
      this.#listener?.({ kind: "delete", table, key });
      this.#listener?.({ kind: "put", table, key: moved, record });
    }
    return record;
  }

  /** Removes the record under `key`, and its index entries. */
  protected remove(table: TableName, key: string): void {
    const record = this.row(table, key);
    if (record === undefined) return;
    this.#unindex(table, key, record, true);
    this.#tables[table].delete(key);
    this.#listener?.({ kind: "delete", table, key });
  }

  /** Removes every record of `table` that `test` picks. */
  protected removeWhere<T extends TableName>(table: T, test: (record: RowOf<T>) => boolean, among = this.rows(table)): void {
    for (const record of among) if (test(record)) this.remove(table, this.keyOf(table, record));
  }

  /**
   * Indexes `record` under `key`; with `before` (the record as it was, at the same key), only the values that
   * changed move, so that a record keeps its place in the lists whose value it keeps.
   */
  #index(table: TableName, key: string, record: unknown, before: unknown): void {
    for (const [name, valueOf] of indexesOf(table)) {
      const value = valueOf(record);
      if (value === undefined || value === null || (before !== undefined && valueOf(before) === value)) continue;
      const id = `${table}/${name}`;
      let byValue = this.#indexes.get(id);
      if (!byValue) this.#indexes.set(id, (byValue = new Map()));
      let keys = byValue.get(value);
      if (!keys) byValue.set(value, (keys = new Set()));
      keys.add(key);
    }
    if (table === "sessions") this.#sessionsByToken.set((record as SessionRecord).refresh_token, key);
    if (table === "contactChannels" && (record as ContactChannelRecord).used_for_auth) {
      const channel = record as ContactChannelRecord;
      this.#authChannels.set(authKey(channel.project_id, channel.value), key);
    }
  }

  /** `leaving`: every index entry goes; else (with `after`, the same record changed) only those whose value changed. */
  #unindex(table: TableName, key: string, record: unknown, leaving: boolean, after?: unknown): void {
    for (const [name, valueOf] of indexesOf(table)) {
      const value = valueOf(record);
      if (value === undefined || value === null || (!leaving && valueOf(after) === value)) continue;
      const byValue = this.#indexes.get(`${table}/${name}`);
      const keys = byValue?.get(value);
      keys?.delete(key);
      if (keys?.size === 0) byValue?.delete(value);
    }
    if (table === "sessions") this.#sessionsByToken.delete((record as SessionRecord).refresh_token);
    if (table === "contactChannels") {
      const channel = record as ContactChannelRecord;
      const auth = authKey(channel.project_id, channel.value);
      if (this.#authChannels.get(auth) === key) this.#authChannels.delete(auth);
    }
  }

  /** The user's contact channels. */
  channelsOf(userId: string): ContactChannelRecord[] {
    return this.rowsBy("contactChannels", "user", userId);
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
    this.#indexes.clear();
    this.#sessionsByToken.clear();
    this.#authChannels.clear();
    this.#listener?.({ kind: "clear" });
  }

  /** Every record with its table, table by table in the order `toJSON` lists them: the live records, uncopied. */
  *entries(): Generator<[TableName, unknown]> {
    for (const name of TABLE_NAMES) for (const record of this.#tables[name].values()) yield [name, record];
  }

  toJSON(): StateJson {
    const tables: Record<string, unknown[]> = {};
    for (const name of TABLE_NAMES) tables[name] = this.rows(name).map((record) => structuredClone(record));
    return { version: 1, tables };
  }

  /**
   * Replaces the state with `json` (as `toJSON` writes it): with copies of its records, unless `owned` says they are
   * the store's to keep (records just parsed, which nothing else holds).
   */
  load(json: StateJson, owned = false): void {
    if (json === null || typeof json !== "object" || json.version !== 1 || typeof json.tables !== "object") {
      throw new TypeError('Emulator state must be { "version": 1, "tables": { ... } }, as exportState() writes it.');
    }
    this.clear();
    for (const name of TABLE_NAMES) {
      for (const record of json.tables[name] ?? []) this.insert(name, (owned ? record : structuredClone(record)) as never);
    }
  }
}

const INDEX_LISTS = new Map(
  TABLE_NAMES.map((table) => [table, Object.entries(INDEXES[table] ?? {}) as [string, (record: unknown) => unknown][]]),
);

function indexesOf(table: TableName): readonly [string, (record: unknown) => unknown][] {
  return INDEX_LISTS.get(table) ?? [];
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
