import { describe, expect, it } from "vitest";
import {
  emailVerification,
  isDisposableDomain,
  isValidEmailSyntax,
  isWebmailDomain,
} from "@/lib/providers/first-party/email/verification";

const now = new Date("2025-06-03T10:20:30Z");

describe("isValidEmailSyntax", () => {
  it.each([
    ["info@acme.test", true],
    ["jordan.ellis@acme.test", true],
    ["o'neill+news@mail.acme.test", true],
    ["a@b.co", true],
    ["user@xn--bcher-kva.test", true],
    ["", false],
    ["acme.test", false],
    ["@acme.test", false],
    ["info@", false],
    ["info@@acme.test", false],
    ["info@acme", false],
    [".info@acme.test", false],
    ["info.@acme.test", false],
    ["in..fo@acme.test", false],
    ["info@-acme.test", false],
    ["info@acme-.test", false],
    ["info@acme.123", false],
    ["in fo@acme.test", false],
    [`${"a".repeat(65)}@acme.test`, false],
    [`${"a".repeat(64)}@acme.test`, true],
    [`info@${"a".repeat(64)}.test`, false],
    [`info@${"a".repeat(60)}.${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.test`, true],
    [`info@${"a".repeat(62)}.${"b".repeat(62)}.${"c".repeat(62)}.${"d".repeat(62)}.test`, false],
  ])("%s → %s", (address, expected) => {
    expect(isValidEmailSyntax(address)).toBe(expected);
  });
});

describe("domain lists", () => {
  it("knows webmail providers, including the few the list lacks, and their subdomains", () => {
    expect(isWebmailDomain("gmail.com")).toBe(true);
    expect(isWebmailDomain("GMX.de")).toBe(true);
    expect(isWebmailDomain("posteo.de")).toBe(true);
    expect(isWebmailDomain("acme.test")).toBe(false);
    expect(isWebmailDomain("")).toBe(false);
  });

  it("knows disposable domains and their subdomains", () => {
    expect(isDisposableDomain("mailinator.com")).toBe(true);
    expect(isDisposableDomain("inbox.mailinator.com")).toBe(true);
    expect(isDisposableDomain("gmail.com")).toBe(false);
    expect(isDisposableDomain("acme.test")).toBe(false);
  });
});

describe("emailVerification", () => {
  it.each([
    // address, domainHasMx, status, date
    ["info@acme.test", null, "unknown", null],
    ["info@acme.test", true, "unknown", "2025-06-03"],
    ["info@acme.test", false, "invalid", "2025-06-03"],
    ["not an address", null, "invalid", "2025-06-03"],
    ["logo@2x", true, "invalid", "2025-06-03"],
    ["someone@gmail.com", null, "webmail", "2025-06-03"],
    ["Someone@GMAIL.com", true, "webmail", "2025-06-03"],
    ["someone@mailinator.com", null, "disposable", "2025-06-03"],
    ["someone@mailinator.com", false, "invalid", "2025-06-03"],
  ] as const)("%s with MX %s is %s", (address, domainHasMx, status, date) => {
    expect(emailVerification({ address, domainHasMx, now })).toEqual({ status, date });
  });

  it("never claims an address is valid or accept-all", () => {
    const statuses = ["info@acme.test", "jordan.ellis@acme.test"].map(
      (address) => emailVerification({ address, domainHasMx: true, now }).status,
    );
    expect(statuses).toEqual(["unknown", "unknown"]);
  });
});
