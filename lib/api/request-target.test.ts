import { describe, expect, it } from "vitest";
import { decideRequestTarget } from "./request-target";

describe("decideRequestTarget", () => {
  it.each([
    ["/v1/workspace?x=1", "/v1/workspace?x=1"],
    ["http://169.254.169.254/webhooks/ingest/we_1", "/webhooks/ingest/we_1"],
    ["HTTPS://user:pw@evil.example:8443/a/../b?q", "/a/../b?q"],
    ["http://evil.example", "/"],
    ["http://evil.example?x=1", "/?x=1"],
  ])("routes %j as the path %j", (target, path) => {
    expect(decideRequestTarget("GET", target)).toEqual({ kind: "path", path });
  });

  it("answers OPTIONS * for the server and refuses * with any other method", () => {
    expect(decideRequestTarget("OPTIONS", "*")).toEqual({ kind: "server-options" });
    expect(decideRequestTarget("GET", "*")).toMatchObject({ kind: "refused", error: { code: "validation_error" } });
  });

  it.each(["evil.example:443", "ftp://evil.example/x", "javascript:alert(1)", "**", "?x"])("refuses %j", (target) => {
    expect(decideRequestTarget("GET", target)).toMatchObject({ kind: "refused", error: { code: "validation_error" } });
  });
});
