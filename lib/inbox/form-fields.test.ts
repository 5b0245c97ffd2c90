import { describe, expect, it } from "vitest";
import { toFormFields } from "./form-fields";

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("toFormFields", () => {
  it("decodes a urlencoded body in order, with repeated names and percent-encoding", async () => {
    expect(
      await toFormFields(bytes("b=1&a=two+words&b=2&c=%C3%A9&empty=&flag"), "application/x-www-form-urlencoded"),
    ).toEqual([
      { name: "b", value: "1" },
      { name: "a", value: "two words" },
      { name: "b", value: "2" },
      { name: "c", value: "é" },
      { name: "empty", value: "" },
      { name: "flag", value: "" },
    ]);
    expect(
      await toFormFields(bytes("payload=%7B%22a%22%3A1%7D"), "Application/X-WWW-Form-Urlencoded; charset=utf-8"),
    ).toEqual([{ name: "payload", value: '{"a":1}' }]);
    expect(await toFormFields(bytes(""), "application/x-www-form-urlencoded")).toEqual([]);
  });

  it("decodes multipart text fields and describes file parts without their content", async () => {
    const body = [
      "--XyZ",
      'Content-Disposition: form-data; name="z"',
      "",
      "last first",
      "--XyZ",
      'Content-Disposition: form-data; name="upload"; filename="report.csv"',
      "Content-Type: text/csv",
      "",
      "a,b\n1,2",
      "--XyZ",
      'Content-Disposition: form-data; name="z"',
      "",
      "again",
      "--XyZ--",
      "",
    ].join("\r\n");
    expect(await toFormFields(bytes(body), "multipart/form-data; boundary=XyZ")).toEqual([
      { name: "z", value: "last first" },
      { name: "upload", filename: "report.csv", type: "text/csv", size: 7 },
      { name: "z", value: "again" },
    ]);
  });

  it("is null for other bodies and for multipart that does not parse", async () => {
    expect(await toFormFields(bytes('{"a":1}'), "application/json")).toBeNull();
    expect(await toFormFields(bytes("a=1"), null)).toBeNull();
    expect(await toFormFields(bytes("a=1"), "text/plain")).toBeNull();
    expect(await toFormFields(bytes("no parts here"), "multipart/form-data; boundary=XyZ")).toBeNull();
    expect(await toFormFields(bytes("--XyZ--\r\n"), "multipart/form-data")).toBeNull(); // no boundary
  });
});
