// Profile pictures of users, teams and team member profiles (users/crud.tsx, teams/crud.tsx,
// team-member-profiles/crud.tsx, s3.tsx and lib/images.tsx at each version; utils/base64.tsx's client check):
// both versions let a client send only a base64 image of a common type; 2.8.86 moves every base64 image to its
// storage and answers the stored file's URL (the emulator is that storage), where 2.8.11 keeps what it is given.
import { describe, expect, it } from "vitest";
import { serviceOf, SERVICE_VERSIONS, signUp, type Service } from "./harness.js";

const server = { as: "server" } as const;
/** A 1×1 GIF, as the service's own tests upload one. */
const GIF = "R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";
const GIF_URL = `data:image/gif;base64,${GIF}`;
const STORED = (folder: string, format: string) =>
  new RegExp(`^http://localhost:8102/emulator/storage/${folder}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.${format}$`);

/** A signed-in user with a team of their own (its creator, so with `$update_team`). */
async function userWithTeam(service: Service) {
  const ada = await signUp(service, "ada@example.com");
  const team = await service.call("POST", "/teams", { ...server, body: { display_name: "Ada's", creator_user_id: ada.userId } });
  return { ...ada, teamId: team.body.id as string };
}

describe.each(SERVICE_VERSIONS)("profile pictures on %s", (version) => {
  it("a client's picture must be a base64 PNG, JPEG, GIF, BMP or WebP: a plain 400 otherwise, for itself and its team", async () => {
    const service = await serviceOf(version);
    const ada = await userWithTeam(service);
    for (const picture of ["data:image/not-valid;base64,test", "https://example.com/ada.png"]) {
      const me = await service.call("PATCH", "/users/me", { token: ada.accessToken, body: { profile_image_url: picture } });
      expect([me.status, me.body]).toEqual([400, "Invalid profile image URL"]);
      const team = await service.call("PATCH", `/teams/${ada.teamId}`, { token: ada.accessToken, body: { profile_image_url: picture } });
      expect([team.status, team.body]).toEqual([400, "Invalid profile image URL"]);
    }
  });

  it("a base64 image: 2.8.11 keeps the data URL, 2.8.86 stores the picture and answers its URL", async () => {
    const service = await serviceOf(version);
    const ada = await userWithTeam(service);
    const me = await service.call("PATCH", "/users/me", { token: ada.accessToken, body: { profile_image_url: GIF_URL } });
    const team = await service.call("PATCH", `/teams/${ada.teamId}`, { ...server, body: { profile_image_url: GIF_URL } });
    const member = await service.call("PATCH", `/team-member-profiles/${ada.teamId}/${ada.userId}`, {
      ...server,
      body: { profile_image_url: GIF_URL },
    });
    if (version === "2.8.11") {
      expect([me.body.profile_image_url, team.body.profile_image_url, member.body.profile_image_url]).toEqual([GIF_URL, GIF_URL, GIF_URL]);
      return;
    }
    expect(me.body.profile_image_url).toMatch(STORED("user-profile-images", "gif"));
    expect(team.body.profile_image_url).toMatch(STORED("team-profile-images", "gif"));
    expect(member.body.profile_image_url).toMatch(STORED("team-member-profile-images", "gif"));
  });
});

describe("2.8.86's storage of pictures", () => {
  it("names a stored picture under the service's storage URL when told it, and still serves it at its own", async () => {
    const service = await serviceOf("2.8.86", { storageUrl: "http://localhost:8121/stack-storage/" });
    const created = await service.call("POST", "/users", { ...server, body: { profile_image_url: GIF_URL } });
    const url = created.body.profile_image_url as string;
    const id = /^http:\/\/localhost:8121\/stack-storage\/(user-profile-images\/[0-9a-f-]{36}\.gif)$/.exec(url)?.[1];
    expect(id).toBeDefined();
    const file = await service.emulator.fetch(new Request(`http://localhost:8102/emulator/storage/${id}`));
    expect([file.status, file.headers.get("content-type")]).toEqual([200, "image/gif"]);
  });

  it("serves a stored picture at its URL, as its type, to anyone", async () => {
    const service = await serviceOf("2.8.86");
    const created = await service.call("POST", "/users", { ...server, body: { profile_image_url: GIF_URL } });
    const url = created.body.profile_image_url as string;
    expect(url).toMatch(STORED("user-profile-images", "gif"));
    const file = await service.emulator.fetch(new Request(url));
    expect([file.status, file.headers.get("content-type")]).toEqual([200, "image/gif"]);
    expect(Buffer.from(await file.arrayBuffer()).toString("base64")).toBe(GIF);
    const missing = await service.emulator.fetch(new Request(url.replace(/[0-9a-f-]{36}/, crypto.randomUUID())));
    expect(missing.status).toBe(404);
  });

  it("keeps an http(s) URL; refuses, server code too, a picture that is neither that nor a base64 image, and an image it cannot read", async () => {
    const service = await serviceOf("2.8.86");
    const created = await service.call("POST", "/users", { ...server, body: { profile_image_url: "https://example.com/ada.png" } });
    expect(created.body.profile_image_url).toBe("https://example.com/ada.png");
    const cases = [
      ["ftp://example.com/ada.png", "Invalid profile image URL"],
      ["data:image/svg+xml;base64,PHN2Zy8+", "Invalid profile image URL"],
      ["data:image/png;base64,iVBORw0KGgo=", "Invalid image format or corrupted image data"],
      ["data:image/gif;base64,bm90IGFuIGltYWdl", "Invalid image format or corrupted image data"],
    ];
    for (const [picture, text] of cases) {
      const answer = await service.call("PATCH", `/users/${created.body.id}`, { ...server, body: { profile_image_url: picture } });
      expect([answer.status, answer.body]).toEqual([400, text]);
    }
    expect(service.emulator.control.exportState().tables.files).toEqual([]);
  });
});
