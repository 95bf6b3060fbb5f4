// A minimal SMTP server on a loopback port for the test-email cases: it greets,
// takes AUTH PLAIN with one user and password (535 otherwise), and keeps what it
// is sent, or refuses the message with the reply given. A server that never
// greets stands for one that does not answer.
import { createServer, type Server, type Socket } from "node:net";

export interface Received {
  readonly from: string;
  readonly to: readonly string[];
  readonly data: string;
}

export interface SmtpServer {
  readonly port: number;
  readonly received: Received[];
  close(): Promise<void>;
}

export async function startSmtpServer(o: { user: string; pass: string; silent?: boolean; refuseMessage?: string }): Promise<SmtpServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    if (o.silent) return;
    let buffer = "";
    let inData = false;
    let from = "";
    let to: string[] = [];
    let data = "";
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 localhost ESMTP test");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let index: number;
      while ((index = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            if (o.refuseMessage !== undefined) {
              reply(o.refuseMessage);
              continue;
            }
            received.push({ from, to, data });
            reply("250 OK queued");
          } else data += `${line.startsWith("..") ? line.slice(1) : line}\n`;
          continue;
        }
        const [verb = "", ...rest] = line.split(" ");
        const arg = rest.join(" ");
        switch (verb.toUpperCase()) {
          case "EHLO":
            reply("250-localhost");
            reply("250 AUTH PLAIN");
            break;
          case "AUTH": {
            const [, encoded = ""] = arg.split(" ");
            const [, user, pass] = Buffer.from(encoded, "base64").toString("utf8").split("\0");
            reply(user === o.user && pass === o.pass ? "235 Authentication successful" : "535 5.7.8 Authentication credentials invalid");
            break;
          }
          case "MAIL":
            from = arg.replace(/^FROM:\s*/i, "");
            to = [];
            reply("250 OK");
            break;
          case "RCPT":
            to.push(arg.replace(/^TO:\s*/i, ""));
            reply("250 OK");
            break;
          case "DATA":
            inData = true;
            data = "";
            reply("354 End data with <CR><LF>.<CR><LF>");
            break;
          case "QUIT":
            reply("221 Bye");
            socket.end();
            break;
          default:
            reply("250 OK");
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on: one taken and let go again. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
