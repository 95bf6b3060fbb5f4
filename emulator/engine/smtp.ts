// The test e-mail's delivery: a real SMTP conversation (nodemailer, as the
// service sends with it) with the server an admin names, when that server is on
// this machine (127.0.0.0/8, ::1, localhost). Nothing else leaves the machine:
// another host name fails as the service's DNS lookup failing, another address
// as a refused connection. Short timeouts stand for the service's own: its route
// gives up after 10 s, before the mailer's, so every timeout answers as the route's.

export interface SmtpConfig {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly sender_email: string;
  readonly sender_name: string;
}

/** The service's mailer error: the raw error's fields, its type, whether it retries, and what it says. */
export interface MailerError {
  readonly rawError: Record<string, unknown>;
  readonly errorType: string;
  readonly canRetry: boolean;
  readonly message: string;
}

export interface TestSendOutcome {
  /** Null when the server took the message. */
  readonly error: MailerError | null;
  /** What `POST /internal/send-test-email` answers as `error_message`. */
  readonly errorMessage?: string;
}

const TIMEOUT_MS = 3000;
/** The route's own answer when sending takes longer than it waits. */
const ROUTE_TIMEOUT = "Timed out while sending test email. Make sure the email server is running and accepting connections.";
const UNKNOWN_ROUTE = "Unknown error while sending test email. Make sure the email server is running and accepting connections.";

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/**
 * Whether `host` is an IP address literal rather than a name (`[…]` brackets allowed). The engine stays free of
 * Node's builtins (it also runs behind msw in a browser), so this is not `node:net`'s `isIP`.
 */
function isAddressLiteral(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  return IPV4.test(bare) || (bare.includes(":") && /^[0-9a-f:.]+$/i.test(bare));
}

/** The address to connect to for a loopback host (localhost resolved here, never by a DNS query), else null. */
export function loopbackAddress(host: string): string | null {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost" || bare === "localhost.") return "127.0.0.1";
  if (IPV4.test(bare) && bare.startsWith("127.")) return bare;
  if (bare === "::1" || bare === "0:0:0:0:0:0:0:1") return "::1";
  return null;
}

const serverResponse = (raw: Record<string, unknown>) =>
  typeof raw["response"] === "string" ? `\nResponse from the email server:\n${raw["response"]}` : "";

/**
 * Fields of a mailer error the service's record never has: the message and stack, which JSON leaves out of an Error,
 * and what the emulator's nodemailer sets that the service's (6.9.13, both versions) does not (`originalCode`,
 * `permanent`, `timeoutType`).
 */
const UNRECORDED_FIELDS = ["message", "stack", "originalCode", "permanent", "timeoutType"];

/** The service's classification of a mailer error (its low-level send's catch). */
export function classify(raw: Record<string, unknown> & { message?: string }): MailerError {
  const code = raw["code"];
  const responseCode = raw["responseCode"];
  const message = String(raw.message ?? "");
  const error = (errorType: string, canRetry: boolean, text: string): MailerError => ({
    rawError: Object.fromEntries(Object.entries(raw).filter(([key]) => !UNRECORDED_FIELDS.includes(key))),
    errorType,
    canRetry,
    message: text,
  });
  if (raw["errno"] === -3008 || code === "EDNS")
    return error("HOST_NOT_FOUND", false, "Failed to connect to the email host. Please make sure the email host configuration is correct.");
  if (responseCode === 535 || code === "EAUTH")
    return error("AUTH_FAILED", false, "Failed to authenticate with the email server. Please check your email credentials configuration.");
  if (responseCode === 450)
    return error(
      "TEMPORARY",
      true,
      "The email server returned a temporary error. This could be due to a temporary network issue or a temporary block on the email server. Please try again later.\n\nError: " +
        serverResponse(raw),
    );
  if (responseCode === 553)
    return error(
      "INVALID_EMAIL_ADDRESS",
      false,
      "The email address provided is invalid. Please verify both the recipient and sender email addresses configuration are correct.\n\nError:" +
        serverResponse(raw),
    );
  if (responseCode === 554 || code === "EENVELOPE")
    return error(
      "REJECTED",
      false,
      "The email server rejected the email. Please check your email configuration and try again later.\n\nError:" + serverResponse(raw),
    );
  if (code === "ETIMEDOUT")
    return error(
      "TIMEOUT",
      true,
      "The email server timed out while sending the email. This could be due to a temporary network issue or a temporary block on the email server. Please try again later.",
    );
  if (message.includes("Unexpected socket close"))
    return error(
      "SOCKET_CLOSED",
      false,
      "Connection to email server was lost unexpectedly. This could be due to incorrect email server port configuration or a temporary network issue. Please verify your configuration and try again.",
    );
  return error("UNKNOWN", false, "An unknown error occurred while sending the email.");
}

/**
 * What the route answers for a mailer error: its message, but its own words for a timeout and an unknown error, which
 * it reads in the raw error's message; a message the server refused (EMESSAGE) is named only where `rejectionWords`.
 */
function routeMessage(error: MailerError, rawMessage: string, rejectionWords: boolean): string {
  if (error.errorType === "TIMEOUT") return ROUTE_TIMEOUT;
  if (error.errorType !== "UNKNOWN") return error.message;
  if (rawMessage.includes("ETIMEDOUT")) return "Timed out. Make sure the email server is running and accepting connections.";
  if (rejectionWords && error.rawError["code"] === "EMESSAGE") return `Email server rejected the email: ${rawMessage}`;
  return UNKNOWN_ROUTE;
}

/** The error a host off this machine meets, without trying it. */
function offMachineError(host: string, port: number): Record<string, unknown> & { message: string } {
  if (!isAddressLiteral(host)) {
    return {
      message: `getaddrinfo ENOTFOUND ${host}`,
      errno: -3008,
      code: "EDNS",
      syscall: "getaddrinfo",
      hostname: host,
      command: "CONN",
    };
  }
  return {
    message: `connect ECONNREFUSED ${host}:${port}`,
    errno: -111,
    code: "ESOCKET",
    syscall: "connect",
    address: host,
    port,
    command: "CONN",
  };
}

/**
 * Sends the test message through `config`'s server, as the service's test-email route does; `rejectionWords`: whether
 * the route names a message the server refused (2.8.86) rather than calling it unknown.
 */
export async function sendThroughSmtp(
  config: SmtpConfig,
  message: { readonly to: string; readonly subject: string; readonly text: string },
  rejectionWords: boolean,
): Promise<TestSendOutcome> {
  const fail = (raw: Record<string, unknown> & { message?: string }): TestSendOutcome => {
    const error = classify(raw);
    return { error, errorMessage: routeMessage(error, String(raw.message ?? ""), rejectionWords) };
  };
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535)
    return fail({ message: `Port should be >= 0 and < 65536. Received ${config.port}.`, code: "ERR_SOCKET_BAD_PORT" });
  const address = loopbackAddress(config.host);
  if (address === null) return fail(offMachineError(config.host, config.port));

  const { default: nodemailer } = await import("nodemailer");
  const secure = config.port === 465 || config.port === 2465;
  const transporter = nodemailer.createTransport({
    host: address,
    port: config.port,
    secure,
    // TLS is checked against the name the admin gave, not the address connected to.
    tls: { servername: config.host.replace(/^\[(.*)\]$/, "$1") },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    auth: { user: config.username, pass: config.password },
  });
  try {
    await transporter.sendMail({
      from: `"${config.sender_name}" <${config.sender_email}>`,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
    return { error: null };
  } catch (error) {
    const raw =
      error instanceof Error ? { ...(error as unknown as Record<string, unknown>), message: error.message } : { message: String(error) };
    return fail(raw);
  } finally {
    transporter.close();
  }
}
