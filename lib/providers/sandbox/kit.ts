import { createHash } from "node:crypto";
import type { FieldValue } from "@/lib/providers/provider";

/*
 * What test keys (`sbx_test_…`) get instead of real enrichment (DESIGN §2), like Stripe's test mode: one sandbox per
 * group of operations (domain-emails.ts, intelligence.ts, people.ts, companies.ts), each built from this kit. Every
 * answer is a pure function of the normalized input: the generator below is seeded by a hash of it, so there is no
 * Math.random, no clock and no network, and the same request always answers byte for byte the same. The data is
 * plainly synthetic: every address and link is under RFC 2606's reserved `.example` TLD (a real domain becomes a
 * reserved `.example` one) and phone numbers are in the 555-0100..0199 range reserved for fiction, so nothing
 * generated here can ever reach a real company or person.
 */

/** The date every synthetic observation claims; fixed so answers never depend on when they are asked. */
export const SANDBOX_DATE = "2026-01-15";

/** The sandbox is its own truth: every field it returns is certain. */
export function certain<T>(value: T): FieldValue<T> {
  return { value, confidence: 1 };
}

export interface Generator {
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * mulberry32 seeded from SHA-256 of `scope` and the normalized input. Each operation and signal has its own scope, so
 * one operation's data never shifts when another's generator changes.
 */
export function generator(scope: string, normalized: string): Generator {
  let state = createHash("sha256").update(`signalbox-sandbox:v1:${scope}:${normalized}`).digest().readUInt32BE(0);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    pick: (items) => items[int(0, items.length - 1)] as (typeof items)[number],
    shuffle: (items) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i -= 1) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]];
      }
      return copy;
    },
  };
}

/** A domain as the sandbox seeds by it: trimmed, lower-cased, without trailing dots. */
export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.+$/, "");
}

/** A DNS label (at most 63 characters) made of lower-case letters, digits and hyphens. */
export function slug(text: string): string {
  const label = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 63)
    .replace(/^-+|-+$/g, "");
  return label || "company";
}

/** Where a company's synthetic mailboxes and pages live: the domain itself when already reserved, else its slug there. */
export function sandboxDomainFor(domain: string): string {
  const normalized = domain.trim().toLowerCase().replace(/\.+$/, "");
  return normalized.endsWith(".example") ? normalized : `${slug(normalized)}.example`;
}

// 25 of each: with at most 25 people per company, pairing two shuffles by index never repeats a first name, so no
// two generated addresses collide.
export const SANDBOX_FIRST_NAMES = [
  "Ada",
  "Bruno",
  "Chiara",
  "Dmitri",
  "Elena",
  "Farah",
  "Gustavo",
  "Hana",
  "Ivan",
  "Jun",
  "Kofi",
  "Lucia",
  "Mateo",
  "Nadia",
  "Oskar",
  "Priya",
  "Quentin",
  "Rosa",
  "Sven",
  "Tomoko",
  "Umar",
  "Valeria",
  "Wei",
  "Yara",
  "Zoltan",
] as const;
export const SANDBOX_LAST_NAMES = [
  "Abbott",
  "Becker",
  "Castillo",
  "Dubois",
  "Eriksen",
  "Fontaine",
  "Garcia",
  "Horvath",
  "Ibrahim",
  "Jensen",
  "Kowalski",
  "Lindqvist",
  "Moreau",
  "Nakamura",
  "Okafor",
  "Petrov",
  "Quinn",
  "Rossi",
  "Schmidt",
  "Tanaka",
  "Urquhart",
  "Varga",
  "Weber",
  "Yilmaz",
  "Zhang",
] as const;
