import { describe, expect, it } from "vitest";
import { SENDER_MESSAGE_ID_HEADERS, senderMessageId } from "./sender-message-id";

describe("senderMessageId", () => {
  it("keys by header and value, so the same id under two schemes never collides", () => {
    expect(senderMessageId({ "webhook-id": "msg_1" })).toBe("webhook-id:msg_1");
    expect(senderMessageId({ "x-github-delivery": "msg_1" })).toBe("x-github-delivery:msg_1");
  });

  it("prefers headers in the documented order and ignores blanks", () => {
    expect(senderMessageId({ "svix-id": "b", "webhook-id": "a" })).toBe("webhook-id:a");
    expect(senderMessageId({ "webhook-id": "  ", "svix-id": "b" })).toBe("svix-id:b");
    expect(senderMessageId({ "x-request-id": "r" })).toBeNull();
  });

  it("hashes long ids to keep the index small, stably", () => {
    const long = "x".repeat(5000);
    const key = senderMessageId({ "idempotency-key": long });
    expect(key).toMatch(/^idempotency-key:sha256:[0-9a-f]{64}$/);
    expect(senderMessageId({ "idempotency-key": long })).toBe(key);
  });

  it("covers every listed header", () => {
    for (const header of SENDER_MESSAGE_ID_HEADERS) expect(senderMessageId({ [header]: "v" })).toBe(`${header}:v`);
  });
});
