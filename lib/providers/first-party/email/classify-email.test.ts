import { describe, expect, it } from "vitest";
import { emailType } from "@/lib/providers/first-party/email/classify-email";

describe("emailType", () => {
  it.each([
    ["info@acme.test", "generic"],
    ["sales@acme.test", "generic"],
    ["Support@Acme.test", "generic"],
    ["press@acme.test", "generic"],
    ["hello@acme.test", "generic"],
    ["no-reply@acme.test", "generic"],
    ["kontakt@beispiel.test", "generic"],
    ["vertrieb@beispiel.test", "generic"],
    ["presse@beispiel.test", "generic"],
    ["karriere@beispiel.test", "generic"],
    ["bewerbung@beispiel.test", "generic"],
    ["datenschutz@beispiel.test", "generic"],
    ["info+website@acme.test", "generic"],
    ["sales2@acme.test", "generic"],
    ["support-de@acme.test", "generic"],
    ["sales.team@acme.test", "generic"],
    ["jordan.ellis@acme.test", "personal"],
    ["jellis@acme.test", "personal"],
    ["jordan@acme.test", "personal"],
    ["j.ellis@acme.test", "personal"],
    ["priya.sales@acme.test", "personal"],
    ["jo.li@acme.test", "personal"],
    // Function mailboxes of clubs, churches, schools and small firms.
    ["dealers@acme.test", "generic"],
    ["refunds@acme.test", "generic"],
    ["programming@acme.test", "generic"],
    ["kassenwart@verein.test", "generic"],
    ["handball@verein.test", "generic"],
  ] as const)("%s is %s", (address, expected) => {
    expect(emailType(address)).toBe(expected);
  });
});
