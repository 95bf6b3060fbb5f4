// Type test, checked by `make typecheck`: the README's server snippet compiles as written.
import { StackServerApp } from "../../runtime/index.js"; // in an app: from "stackkit"

declare const projectId: string;
declare const publishableClientKey: string;
declare const secretServerKey: string;

export async function readmeServerSnippet(): Promise<string | null> {
  const server = new StackServerApp({ projectId, publishableClientKey, secretServerKey, tokenStore: "memory" });
  const users = await server.listUsers({ limit: 50, orderBy: "signedUpAt", desc: true });
  const next = users.nextCursor ? await server.listUsers({ cursor: users.nextCursor }) : [];
  console.info(next.length);
  const team = await server.createTeam({ displayName: "Support" });
  await team.addUser(users[0]!.id);
  const session = await users[0]!.createSession({ isImpersonation: true });
  const { accessToken } = await session.getTokens();
  return accessToken;
}
