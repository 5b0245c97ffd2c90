import { describe, expect, it } from "vitest";
import { ApiClientError } from "@/lib/client/api-client";
import { errorMessage, formErrors } from "./form-errors";

describe("formErrors", () => {
  it("puts each detail under its field, first message winning", () => {
    const error = new ApiClientError(400, "validation_error", "Invalid request body.", [
      { path: "name", message: "must not be empty" },
      { path: "signing.secret", message: "A Stripe signing secret starts with whsec_" },
      { path: "name", message: "second message" },
    ]);
    expect(formErrors(error, ["name", "description", "signing.secret"])).toEqual({
      form: null,
      fields: { name: "must not be empty", "signing.secret": "A Stripe signing secret starts with whsec_" },
    });
  });

  it("keeps problems on unknown or empty paths in the form message", () => {
    const error = new ApiClientError(400, "validation_error", "Invalid request body.", [
      { path: "", message: "send at least one field to change" },
      { path: "colour", message: "unknown key" },
      { path: "name", message: "too long" },
    ]);
    expect(formErrors(error, ["name"])).toEqual({
      form: "Invalid request body. send at least one field to change; colour: unknown key",
      fields: { name: "too long" },
    });
  });

  it("uses the error's message when there are no details", () => {
    expect(formErrors(new ApiClientError(404, "not_found", "No such webhook endpoint."), ["name"])).toEqual({
      form: "No such webhook endpoint.",
      fields: {},
    });
  });
});

describe("errorMessage", () => {
  it("explains an ended session, a network failure and anything else", () => {
    expect(errorMessage(new ApiClientError(401, "unauthorized", "Missing API key."))).toMatch(/sign in again/i);
    expect(errorMessage(new TypeError("Failed to fetch"))).toMatch(/could not reach/i);
    expect(errorMessage(new Error("boom"))).toBe("boom");
    expect(errorMessage("??")).toMatch(/something went wrong/i);
  });
});
