import { describe, expect, it } from "vitest";
import { errorBodySchema, ERROR_STATUS } from "@/lib/contracts/errors";
import { clientErrorAnswer } from "./client-error";

function parse(answer: string) {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  return {
    statusLine: head.split("\r\n")[0],
    head,
    body: errorBodySchema.parse(JSON.parse(body)),
    length: body.length,
  };
}

describe("clientErrorAnswer", () => {
  it.each([
    ["HPE_HEADER_OVERFLOW", 431],
    ["ERR_HTTP_REQUEST_TIMEOUT", 408],
    ["HPE_CHUNK_EXTENSIONS_OVERFLOW", 413],
    ["HPE_INVALID_METHOD", 400],
    [undefined, 400],
  ])("answers %s with %i and the error body", (code, status) => {
    const answer = parse(clientErrorAnswer(code));
    expect(answer.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(ERROR_STATUS[answer.body.error.code]).toBe(status);
    expect(answer.head).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(answer.head).toContain(`Content-Length: ${answer.length}`);
    expect(answer.head).toMatch(/Connection: close$/);
  });
});
