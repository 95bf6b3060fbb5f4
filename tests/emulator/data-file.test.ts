// The data file (`--data`, `startEmulatorServer({ dataFile })`): every change is
// in the file before the request that made it is answered; a restart replays it
// to the same state; a SIGKILL loses nothing answered; a torn last write is
// dropped at start; the file is compacted when it is mostly stale.
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataFile, readDataFile } from "../../emulator/data-file.js";
import { createEmulator, DEMO_KEYS } from "../../emulator/index.js";
import { readStateFile, startEmulatorServer, writeStateFile } from "../../emulator/server.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const serverHeaders = {
  "content-type": "application/json",
  "x-stack-project-id": DEMO_KEYS.projectId,
  "x-stack-access-type": "server",
  "x-stack-secret-server-key": DEMO_KEYS.secretServerKey,
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "stackkit-data-file-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fresh = (name: string) => path.join(dir, `${++files}-${name}`);

async function createUser(url: string, email: string): Promise<{ id: string }> {
  const response = await fetch(`${url}/api/v1/users`, {
    method: "POST",
    headers: serverHeaders,
    body: JSON.stringify({ primary_email: email, primary_email_auth_enabled: true }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string };
}

describe("the data file as a journal", () => {
  it("holds each change once it is answered, and replays to the very state the emulator held", async () => {
    const file = fresh("state.jsonl");
    const server = await startEmulatorServer({ port: 0, dataFile: file });
    try {
      const headerLine = readFileSync(file, "utf8").split("\n")[0];
      expect(headerLine).toBe('{"stackkit-emulator-data":1}');
      const kept = await createUser(server.url, "kept@example.com");
      expect(readStateFile(file)?.tables.users?.some((u) => (u as { id: string }).id === kept.id)).toBe(true);

      // Changes of every kind: a patch, a key that moves (a renamed permission), cascades, a team and its member.
      const { control, engine } = server.emulator;
      const gone = await createUser(server.url, "gone@example.com");
      await control.createSession(gone.id);
      const team = await fetch(`${server.url}/api/v1/teams`, {
        method: "POST",
        headers: serverHeaders,
        body: JSON.stringify({ display_name: "Kept team", creator_user_id: kept.id }),
      });
      expect(team.status).toBe(201);
      await fetch(`${server.url}/api/v1/users/${kept.id}`, {
        method: "PATCH",
        headers: serverHeaders,
        body: JSON.stringify({ display_name: "Renamed" }),
      });
      const renamed = await fetch(`${server.url}/api/v1/team-permission-definitions/team_member`, {
        method: "PATCH",
        headers: { ...serverHeaders, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": DEMO_KEYS.superSecretAdminKey },
        body: JSON.stringify({ id: "team_member_renamed" }),
      });
      expect(renamed.status).toBe(200);
      const deleted = await fetch(`${server.url}/api/v1/users/${gone.id}`, { method: "DELETE", headers: serverHeaders });
      expect(deleted.status).toBe(200);
      expect(engine.ctx.store.sessionsOf(gone.id)).toEqual([]);

      expect(readStateFile(file)).toEqual(control.exportState());
    } finally {
      await server.close();
    }
    const again = await startEmulatorServer({ port: 0, dataFile: file, state: "empty" });
    try {
      const store = again.emulator.engine.ctx.store;
      const users = store.usersOf(DEMO_KEYS.projectId);
      expect(users.map((u) => [store.channelsOf(u.id)[0]?.value, u.display_name])).toEqual([["kept@example.com", "Renamed"]]);
      expect(again.emulator.engine.ctx.store.sizes().sessions).toBe(0);
    } finally {
      await again.close();
    }
  });

  it("keeps a reset: the tables are emptied and seeded again in the file too", async () => {
    const file = fresh("reset.jsonl");
    const server = await startEmulatorServer({ port: 0, dataFile: file });
    try {
      await createUser(server.url, "before-reset@example.com");
      const reset = await fetch(`${server.url}/emulator/v1/reset`, { method: "POST" });
      expect(reset.status).toBe(200);
      expect(readStateFile(file)).toEqual(server.emulator.control.exportState());
      expect(
        readFileSync(file, "utf8")
          .split("\n")
          .some((line) => line.startsWith('[["clear"]')),
      ).toBe(true);
      expect(readStateFile(file)?.tables.users).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("drops a torn last write at start, cuts it off the file, and appends after what was whole", async () => {
    const file = fresh("torn.jsonl");
    const first = await startEmulatorServer({ port: 0, dataFile: file });
    const kept = await createUser(first.url, "whole@example.com");
    await first.close();
    const whole = statSync(file).size;
    // Half a batch, as a process killed in the middle of its write leaves it.
    appendFileSync(file, '[["put","users","torn-user",{"id":"torn-user","project_id":"');
    expect(readDataFile(file)).toMatchObject({ goodBytes: whole, tornBytes: statSync(file).size - whole });

    const second = await startEmulatorServer({ port: 0, dataFile: file, state: "empty" });
    try {
      expect(statSync(file).size).toBe(whole);
      expect(second.emulator.engine.ctx.store.channelsOf(kept.id)[0]?.value).toBe("whole@example.com");
      expect(second.emulator.engine.ctx.store.user("torn-user")).toBeUndefined();
      const after = await createUser(second.url, "after-torn@example.com");
      expect(readStateFile(file)?.tables.users?.map((u) => (u as { id: string }).id)).toEqual([kept.id, after.id]);
    } finally {
      await second.close();
    }
  });

  it("refuses a file damaged before its last line, naming the line", async () => {
    const file = fresh("damaged.jsonl");
    writeFileSync(file, '{"stackkit-emulator-data":1}\n[["clear"]]\nnot json\n[["clear"]]\n');
    expect(() => readDataFile(file)).toThrow(`The emulator's data file ${file} is damaged at line 3, before its last line.`);
    await expect(startEmulatorServer({ port: 0, dataFile: file })).rejects.toThrow("is damaged at line 3");
  });

  it("reads the one JSON document older versions wrote, and rewrites it as a journal", async () => {
    const emulator = await createEmulator();
    await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "old-form@example.com" });
    const file = fresh("old.json");
    writeFileSync(file, `${JSON.stringify(emulator.control.exportState())}\n`);
    const server = await startEmulatorServer({ port: 0, dataFile: file, state: "empty" });
    try {
      expect(server.emulator.control.exportState()).toEqual(emulator.control.exportState());
      expect(readFileSync(file, "utf8").startsWith('{"stackkit-emulator-data":1}\n')).toBe(true);
      expect(readStateFile(file)).toEqual(emulator.control.exportState());
    } finally {
      await server.close();
    }
  });

  it("writeStateFile writes a file that startEmulatorServer and readStateFile read back", async () => {
    const emulator = await createEmulator();
    const file = fresh("written.jsonl");
    writeStateFile(file, emulator.control.exportState());
    expect(readStateFile(file)).toEqual(emulator.control.exportState());
    expect(readStateFile(fresh("absent.jsonl"))).toBeUndefined();
  });

  it("is compacted once its entries pass twice the live records and 10,000 more, or when compact() (server.save()) says so", async () => {
    const emulator = await createEmulator();
    const file = fresh("compacted.jsonl");
    const journal = new DataFile(file, readDataFile(file));
    journal.follow(emulator.engine.ctx.store);
    const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "churn@example.com" });
    const store = emulator.engine.ctx.store;
    const lines = () => readFileSync(file, "utf8").trimEnd().split("\n").length;
    // One patch per flush: each is one batch line of one entry.
    for (let i = 0; i < 10_000; i++) {
      store.updateUser(user.id, { display_name: `Name ${i}` });
      journal.flush();
    }
    expect(lines()).toBeGreaterThan(10_000);
    for (let i = 0; i < 100; i++) {
      store.updateUser(user.id, { display_name: `Name ${i}` });
      journal.flush();
    }
    // The live state is a few records; the file was rewritten as them and has grown again only by what followed.
    expect(lines()).toBeLessThan(200);
    expect(readStateFile(file)).toEqual(emulator.control.exportState());
    journal.compact();
    expect(lines()).toBe(2);
    expect(readStateFile(file)).toEqual(emulator.control.exportState());
    journal.close();
  });
});

describe("at scale", () => {
  it("a change appends the same bytes to a file of 20,000 users as to one of 10, and never rewrites it", async () => {
    const emulator = await createEmulator();
    const file = fresh("scale.jsonl");
    const journal = new DataFile(file, readDataFile(file));
    journal.follow(emulator.engine.ctx.store);
    const { control, engine } = emulator;
    // The bytes one user's creation appends: ids of one length, an e-mail and a time of fixed width.
    const appended = async (n: number) => {
      const before = statSync(file);
      await control.createUser({ projectId: DEMO_KEYS.projectId, email: `probe-${String(n).padStart(6, "0")}@example.com` });
      journal.flush();
      const after = statSync(file);
      expect(after.ino).toBe(before.ino);
      return after.size - before.size;
    };
    for (let i = 0; i < 10; i++) await control.createUser({ projectId: DEMO_KEYS.projectId, email: `small-${i}@example.com` });
    journal.flush();
    const small = await appended(1);
    for (let i = 0; i < 20_000; i++) await control.createUser({ projectId: DEMO_KEYS.projectId, email: `large-${i}@example.com` });
    journal.flush();
    const large = await appended(2);
    expect(large).toBe(small);
    expect(engine.ctx.store.usersOf(DEMO_KEYS.projectId)).toHaveLength(20_012);
    expect(readStateFile(file)).toEqual(control.exportState());
    journal.close();
  }, 60_000);
});

describe("a SIGKILL in the middle of writes", () => {
  it("loses no change that was answered", async () => {
    const file = fresh("killed.jsonl");
    const child = spawn(process.execPath, [path.join(root, "scripts/emulator.mjs"), "--port", "0", "--data", file], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    let said = "";
    child.stderr.on("data", (chunk: Buffer) => (said += chunk.toString()));
    const api = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the bin printed no API URL within 20 s:\n${said}`)), 20_000);
      child.stdout.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        const url = /API:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(said)?.[1];
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      });
    });
    // Eight clients create users as fast as they are answered; the process is killed once 300 are.
    const answered: string[] = [];
    let n = 0;
    const client = async () => {
      for (;;) {
        const i = n++;
        const response = await fetch(`${api}/api/v1/users`, {
          method: "POST",
          headers: serverHeaders,
          body: JSON.stringify({ primary_email: `killed-${i}@example.com`, primary_email_auth_enabled: true }),
        }).catch(() => undefined);
        if (response === undefined) return;
        const body = (await response.json().catch(() => undefined)) as { id?: string } | undefined;
        if (response.status !== 201 || body?.id === undefined) return;
        answered.push(body.id);
        if (answered.length === 300) child.kill("SIGKILL");
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    expect(await exited).toBe("SIGKILL");
    expect(answered.length).toBeGreaterThanOrEqual(300);

    const state = readStateFile(file);
    const kept = new Set(state?.tables.users?.map((u) => (u as { id: string }).id));
    expect(answered.filter((id) => !kept.has(id))).toEqual([]);
    const restarted = await startEmulatorServer({ port: 0, dataFile: file, state: "empty" });
    try {
      for (const id of answered) expect(restarted.emulator.engine.ctx.store.user(id)?.id).toBe(id);
      // Every user that made it to the file has the contact channel made with it: a batch is all or nothing.
      for (const user of restarted.emulator.engine.ctx.store.usersOf(DEMO_KEYS.projectId)) {
        expect(restarted.emulator.engine.ctx.store.channelsOf(user.id)).toHaveLength(1);
      }
    } finally {
      await restarted.close();
    }
  }, 60_000);
});
