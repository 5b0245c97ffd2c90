import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { fieldErrorsFrom, refusalResult, sentence, signUpSchema } from "./sign-up";

const schema = signUpSchema(10);
const valid = { name: " Ada ", email: " ada@example.com ", password: "correct horse", workspaceName: " Acme " };

describe("signUpSchema", () => {
  it("accepts and trims a valid form; an empty name is left out", () => {
    expect(schema.parse(valid)).toEqual({
      name: "Ada",
      email: "ada@example.com",
      password: "correct horse",
      workspaceName: "Acme",
    });
    expect(schema.parse({ ...valid, name: "  " }).name).toBeUndefined();
  });

  it("names each invalid field", () => {
    const result = schema.safeParse({ name: "", email: "nope", password: "short", workspaceName: " " });
    expect(result.success).toBe(false);
    const errors = fieldErrorsFrom(
      result.error!.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
    );
    expect(errors).toEqual({
      email: "Enter an email address like you@example.com.",
      password: "Use at least 10 characters.",
      workspaceName: "Name your workspace.",
    });
  });

  it("keeps the password as typed (spaces count)", () => {
    expect(schema.parse({ ...valid, password: "  ten chars " }).password).toBe("  ten chars ");
  });
});

describe("fieldErrorsFrom and sentence", () => {
  it("maps the API's details to fields, ignoring unknown paths", () => {
    expect(
      fieldErrorsFrom([
        { path: "email", message: "is taken" },
        { path: "other", message: "x" },
      ]),
    ).toEqual({ email: "is taken" });
  });

  it("turns an API detail into a sentence", () => {
    expect(sentence("email", "is taken")).toBe("This email is taken.");
    expect(sentence("password", "must have at least 10 characters")).toBe(
      "The password must have at least 10 characters.",
    );
    expect(sentence("email", "Enter an email address.")).toBe("Enter an email address.");
  });
});

describe("refusalResult", () => {
  it("turns a refusal from lib/auth into the form's message and field sentences", () => {
    const taken = new ApiError("validation_error", "An account with this email exists already.", {
      details: [{ path: "email", message: "is taken" }],
    });
    expect(refusalResult(taken)).toEqual({
      ok: false,
      message: "An account with this email exists already.",
      fieldErrors: { email: "This email is taken." },
    });
    expect(refusalResult(new ApiError("not_found", "This invitation link is not valid any more."))).toEqual({
      ok: false,
      message: "This invitation link is not valid any more.",
      fieldErrors: {},
    });
  });

  it("throws anything else again", () => {
    const failure = new Error("connection refused");
    expect(() => refusalResult(failure)).toThrow(failure);
    expect(() => refusalResult(new ApiError("internal", "Something failed."))).toThrow("Something failed.");
  });
});
