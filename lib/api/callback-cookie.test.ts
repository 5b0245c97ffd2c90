import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { dropUnparsableCallbackCookies } from "./callback-cookie";

function cleaned(cookie: string): string | undefined {
  const request = { headers: { cookie } } as unknown as IncomingMessage;
  dropUnparsableCallbackCookies(request);
  return request.headers.cookie;
}

describe("dropUnparsableCallbackCookies", () => {
  it("keeps usable callback cookies and every other cookie", () => {
    const cookie = "a=1; next-auth.callback-url=http%3A%2F%2Flocalhost%3A3000%2Fusage; b=%ff";
    expect(cleaned(cookie)).toBe(cookie);
    expect(cleaned("__Secure-next-auth.callback-url=%2Finvite%2Fx")).toBe(
      "__Secure-next-auth.callback-url=%2Finvite%2Fx",
    );
  });

  it.each(["javascript%3Aalert(1)", "foo", "%ff", "%2F%2F%5B"])("drops a callback cookie of %j", (value) => {
    expect(cleaned(`a=1; next-auth.callback-url=${value}; b=2`)).toBe("a=1; b=2");
    expect(cleaned(`__Secure-next-auth.callback-url=${value}`)).toBe("");
  });
});
