// The rules that block production mode (SPEC §5), one test per rule, with the reference's messages.
import { describe, expect, it } from "vitest";
import { getProductionModeErrors } from "../../../../runtime/app/admin/production-mode.js";

const FIX = "/projects/proj-1/domains";
const check = (domains: string[], allowLocalhost = false) =>
  getProductionModeErrors({ id: "proj-1", config: { allowLocalhost, domains: domains.map((domain) => ({ domain })) } });

describe("getProductionModeErrors", () => {
  it("a project with only public HTTPS domains and localhost off has no errors", () => {
    expect(check(["https://app.example.com", "https://example.org:8443"])).toEqual([]);
  });

  it("localhost allowed: 'Localhost is not allowed in production mode...'", () => {
    expect(check([], true)).toEqual([
      { message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings", relativeFixUrl: FIX },
    ]);
  });

  it("a localhost trusted domain: 'Localhost domains are not allowed to be trusted...'", () => {
    expect(check(["http://localhost:3000", "https://app.localhost", "http://127.0.0.1", "http://[::1]:8080"])).toEqual(
      ["http://localhost:3000", "https://app.localhost", "http://127.0.0.1", "http://[::1]:8080"].map((domain) => ({
        message: `Localhost domains are not allowed to be trusted in production mode: ${domain}`,
        relativeFixUrl: FIX,
      })),
    );
  });

  it("a direct IP host: 'Direct IPs are not valid for trusted domains...'", () => {
    expect(check(["https://203.0.113.7", "https://[2001:db8::1]"])).toEqual(
      ["https://203.0.113.7", "https://[2001:db8::1]"].map((domain) => ({
        message: `Direct IPs are not valid for trusted domains in production mode: ${domain}`,
        relativeFixUrl: FIX,
      })),
    );
  });

  it("a domain without HTTPS: 'Trusted domains should be HTTPS'", () => {
    expect(check(["http://app.example.com"])).toEqual([
      { message: "Trusted domains should be HTTPS: http://app.example.com", relativeFixUrl: FIX },
    ]);
  });

  it("a domain that is not a URL: 'Trusted domain is not a valid URL'", () => {
    expect(check(["app.example.com"])).toEqual([{ message: "Trusted domain is not a valid URL: app.example.com", relativeFixUrl: FIX }]);
  });

  it("reports each domain once, under the first rule it breaks, after the localhost flag", () => {
    expect(check(["http://localhost", "http://10.0.0.1", "https://ok.example.com"], true).map((e) => e.message)).toEqual([
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
      "Localhost domains are not allowed to be trusted in production mode: http://localhost",
      "Direct IPs are not valid for trusted domains in production mode: http://10.0.0.1",
    ]);
  });

  it("encodes the project id in the fix URL", () => {
    const [error] = getProductionModeErrors({ id: "a/b", config: { allowLocalhost: true, domains: [] } });
    expect(error!.relativeFixUrl).toBe("/projects/a%2Fb/domains");
  });
});
