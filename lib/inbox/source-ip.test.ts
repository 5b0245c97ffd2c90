import { describe, expect, it } from "vitest";
import { parseTrustedProxies, resolveForwardedSourceIp, resolveSourceIp } from "./source-ip";

describe("resolveSourceIp", () => {
  const none = parseTrustedProxies("");
  const proxies = parseTrustedProxies("10.0.0.0/8, 127.0.0.1, fd00::/8");

  it("uses the socket peer and ignores X-Forwarded-For from an untrusted peer", () => {
    expect(resolveSourceIp("203.0.113.9", "1.2.3.4", none)).toBe("203.0.113.9");
    expect(resolveSourceIp("::ffff:203.0.113.9", null, none)).toBe("203.0.113.9");
  });

  it("takes the nearest untrusted hop behind trusted proxies", () => {
    expect(resolveSourceIp("127.0.0.1", "198.51.100.7", proxies)).toBe("198.51.100.7");
    // The client can prepend anything; only hops added by our proxies count.
    expect(resolveSourceIp("10.1.2.3", "6.6.6.6, 198.51.100.7, 10.9.9.9", proxies)).toBe("198.51.100.7");
    expect(resolveSourceIp("fd00::1", "2001:db8::5", proxies)).toBe("2001:db8::5");
  });

  it("falls back sensibly on odd chains", () => {
    expect(resolveSourceIp("127.0.0.1", "10.0.0.2, 10.0.0.3", proxies)).toBe("10.0.0.2");
    expect(resolveSourceIp("127.0.0.1", "not-an-ip, ", proxies)).toBe("127.0.0.1");
  });

  it("refuses a malformed TRUSTED_PROXIES entry", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8, proxy.local")).toThrow(/proxy\.local/);
  });
});

describe("resolveForwardedSourceIp (no socket in sight)", () => {
  it("believes nothing without trusted proxies: any X-Forwarded-For may be the client's own", () => {
    expect(resolveForwardedSourceIp("203.0.113.9", parseTrustedProxies(""))).toBe("unknown");
    expect(resolveForwardedSourceIp(null, parseTrustedProxies(""))).toBe("unknown");
  });

  it("reads X-Forwarded-For through the trusted proxies as if a trusted proxy were the peer", () => {
    const proxies = parseTrustedProxies("10.0.0.0/8, 127.0.0.1");
    expect(resolveForwardedSourceIp("6.6.6.6, 198.51.100.7, 10.9.9.9", proxies)).toBe("198.51.100.7");
    expect(resolveForwardedSourceIp("127.0.0.1", proxies)).toBe("127.0.0.1");
    expect(resolveForwardedSourceIp("not-an-ip", proxies)).toBe("unknown");
    expect(resolveForwardedSourceIp(null, proxies)).toBe("unknown");
  });
});
