// The e-mails of the sign-in flows as a mail reader meets them through the
// Inbucket-compatible API: the sender the service writes (the project's name at
// the shared sender address), the recipient as Inbucket shows it, the default
// templates' subjects, and their texts laid out as the service's HTML-to-text
// conversion writes them (packages/stack-emails templates at 2.8.11, the default
// TSX templates of packages/stack-shared/src/helpers/emails.ts at 2.8.86). Both versions' renderer
// (@react-email/render, 0.0.12 at 2.8.11) turns html-to-text's link brackets off: a link follows its label bare.
import { describe, expect, it } from "vitest";
import { APP_URL, serviceOf, signUp, type Service } from "./harness.js";

const VERSIONS = ["2.8.11", "2.8.86"] as const;
const CALLBACK = `${APP_URL}/handler/email-verification`;
const RULE = "-".repeat(80);
const FOOTER = "If you were not expecting this email, you can safely ignore it.";

async function inbox(service: Service, address: string) {
  const name = encodeURIComponent(address.split("@")[0]!);
  const list = (await (await service.emulator.fetch(new Request(`${service.emulator.apiOrigin}/api/v1/mailbox/${name}`))).json()) as {
    id: string;
  }[];
  return Promise.all(
    list.map(
      async ({ id }) =>
        (await (await service.emulator.fetch(new Request(`${service.emulator.apiOrigin}/api/v1/mailbox/${name}/${id}`))).json()) as {
          from: string;
          to: string[];
          subject: string;
          body: { text: string; html: string };
        },
    ),
  );
}

describe.each(VERSIONS)("on %s", (version) => {
  it("mails the verification e-mail from the project's name at the shared sender, to the address in angle brackets", async () => {
    const service = await serviceOf(version);
    await signUp(service, "ada@example.com");
    const [mail] = await inbox(service, "ada@example.com");
    expect(mail?.from).toBe("Demo <noreply@example.com>");
    expect(mail?.to).toEqual(["<ada@example.com>"]);
    expect(mail?.subject).toBe("Verify your email at Demo");
    const link = /http:\/\/localhost:3000\/handler\/email-verification\?code=[a-z0-9]+/.exec(mail!.body.text)?.[0];
    expect(link).toBeDefined();
    expect(mail?.body.text).toBe(
      [
        "VERIFY YOUR EMAIL AT DEMO",
        "Hi! Please click on the following button to verify your email.",
        `Verify my email\n${link!}`,
        RULE,
        FOOTER,
      ].join("\n\n"),
    );
    expect(mail?.body.html).toContain(`href="${link}"`);
  });

  it("puts the sign-in code on a line of its own in the magic-link e-mail, with the code in the subject", async () => {
    const service = await serviceOf(version);
    const sent = await service.call("POST", "/auth/otp/send-sign-in-code", { body: { email: "bo@example.com", callback_url: CALLBACK } });
    expect(sent.status).toBe(200);
    const [mail] = await inbox(service, "bo@example.com");
    const otp = /^[A-Z0-9]{6}$/m.exec(mail!.body.text)?.[0];
    expect(otp).toBeDefined();
    expect(mail?.subject).toBe(`Sign in to Demo: Your code is ${otp}`);
    expect(mail?.from).toBe("Demo <noreply@example.com>");
  });

  it("mails the password reset e-mail with its button and link", async () => {
    const service = await serviceOf(version);
    await signUp(service, "cy@example.com");
    const sent = await service.call("POST", "/auth/password/send-reset-code", {
      body: { email: "cy@example.com", callback_url: CALLBACK },
    });
    expect(sent.status).toBe(200);
    const mail = (await inbox(service, "cy@example.com")).find((m) => m.subject === "Reset your password at Demo");
    const link = /http:\/\/localhost:3000\/handler\/email-verification\?code=[a-z0-9]+/.exec(mail!.body.text)?.[0];
    expect(mail?.body.text).toBe(
      [
        "RESET YOUR PASSWORD AT DEMO",
        "Hi! Please click on the following button to start the password reset process.",
        `Reset my password\n${link!}`,
        RULE,
        FOOTER,
      ].join("\n\n"),
    );
  });

  it("mails the team invitation in the version's wording", async () => {
    const service = await serviceOf(version);
    const owner = await signUp(service, "dee@example.com");
    const team = await service.call("POST", "/teams", { as: "server", body: { display_name: "Crew", creator_user_id: owner.userId } });
    const sent = await service.call("POST", "/team-invitations/send-code", {
      as: "server",
      body: { email: "eve@example.com", team_id: team.body.id, callback_url: CALLBACK },
    });
    expect(sent.status).toBe(200);
    const [mail] = await inbox(service, "eve@example.com");
    expect(mail?.subject).toBe("You have been invited to join Crew");
    const link = /http:\/\/localhost:3000\/handler\/email-verification\?code=[a-z0-9]+/.exec(mail!.body.text)?.[0];
    const sentence =
      version === "2.8.11"
        ? "Please click on the following button to join the team Crew"
        : "Please click the button below to join the team Crew";
    expect(mail?.body.text).toBe(["YOU ARE INVITED TO CREW", `Hi! ${sentence}`, `Join team\n${link!}`, RULE, FOOTER].join("\n\n"));
  });
});

// 2.8.11's send-sign-in-code route picks the template's first content for apps of @stackframe/stack 2.5.37 or older
// (x-stack-client-version `<platform> @stackframe/stack@<semver>`); 2.8.86's route reads no client version.
describe("the magic link for apps of @stackframe/stack 2.5.37 or older", () => {
  const sendTo = (service: Service, email: string, clientVersion: string) =>
    service.call("POST", "/auth/otp/send-sign-in-code", {
      body: { email, callback_url: CALLBACK },
      headers: { "x-stack-client-version": clientVersion },
    });
  const OTP_LINE = /^[A-Z0-9]{6}$/m;

  it("is the link alone on 2.8.11, the subject still naming the code", async () => {
    const service = await serviceOf("2.8.11");
    expect((await sendTo(service, "old@example.com", "js @stackframe/stack@2.5.37")).status).toBe(200);
    const [mail] = await inbox(service, "old@example.com");
    const link = /http:\/\/localhost:3000\/handler\/email-verification\?code=[a-z0-9]+/.exec(mail!.body.text)?.[0];
    expect(mail?.body.text).toBe(
      ["SIGN IN TO DEMO", "Hi! Please click on the following button to sign in.", `Sign in\n${link!}`, RULE, FOOTER].join("\n\n"),
    );
    expect(mail?.subject).toMatch(/^Sign in to Demo: Your code is [A-Z0-9]{6}$/);
  });

  it("carries the code on 2.8.11 for a newer version, another SDK, or a version that is no strict semver", async () => {
    const service = await serviceOf("2.8.11");
    const clients = ["js @stackframe/stack@2.5.38", "js @stackframe/js@2.5.37", "js @stackframe/stack@2.05.37", "@stackframe/stack@2.5.37"];
    for (const [i, client] of clients.entries()) {
      expect((await sendTo(service, `new${i}@example.com`, client)).status).toBe(200);
      const [mail] = await inbox(service, `new${i}@example.com`);
      expect(OTP_LINE.test(mail!.body.text), client).toBe(true);
    }
  });

  it("carries the code on 2.8.86, whatever the client's version", async () => {
    const service = await serviceOf("2.8.86");
    expect((await sendTo(service, "old@example.com", "js @stackframe/stack@2.5.37")).status).toBe(200);
    const [mail] = await inbox(service, "old@example.com");
    expect(OTP_LINE.test(mail!.body.text)).toBe(true);
  });
});
