import { describe, expect, it } from "vitest";
import { SIGNATURE_SCHEME_NAMES } from "@/lib/contracts/webhooks";
import { describeSigning, isSigningScheme, SIGNING_SCHEME_OPTIONS } from "./signing-schemes";

describe("signing schemes", () => {
  it("offers every scheme the API accepts", () => {
    expect(SIGNING_SCHEME_OPTIONS.map((option) => option.value)).toEqual([...SIGNATURE_SCHEME_NAMES]);
    expect(isSigningScheme("stripe")).toBe(true);
    expect(isSigningScheme("paypal")).toBe(false);
  });

  it("describes an endpoint's signature check in one line", () => {
    expect(describeSigning(null)).toBe("Not checked");
    expect(describeSigning({ scheme: "stripe", rejectInvalid: true, secretHint: "…abcd" })).toBe(
      "Stripe · secret …abcd · invalid signatures refused",
    );
    expect(describeSigning({ scheme: "standard-webhooks", rejectInvalid: false, secretHint: "…wxyz" })).toBe(
      "Standard Webhooks · secret …wxyz · invalid signatures stored and flagged",
    );
  });
});
