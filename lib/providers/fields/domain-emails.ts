import type { FieldSpec } from "@/lib/providers/provider";

/** What providers are asked for a domain-emails call. Filters are hints; the service applies them again. */
export interface DomainEmailsProviderInput {
  /** The company's domain, when the caller gave one. */
  domain?: string;
  /** The company's name, when the caller gave no domain: providers resolve it (field `domain`). */
  company?: string;
  /** How many addresses to return at most; a provider answers with all it has up to this. */
  wanted: number;
  type?: "personal" | "generic";
  seniority?: string;
  department?: string;
}

/** One email address as the API returns it (DESIGN §5, the shape users know from email-finder APIs). */
export interface EmailRecord {
  value: string;
  type: "personal" | "generic";
  /** 0–100. */
  confidence: number;
  firstName: string | null;
  lastName: string | null;
  position: string | null;
  seniority: string | null;
  department: string | null;
  linkedin: string | null;
  twitter: string | null;
  phoneNumber: string | null;
  sources: { uri: string; extractedOn: string }[];
  verification: {
    date: string | null;
    status: "valid" | "invalid" | "accept_all" | "webmail" | "disposable" | "unknown" | null;
  };
}

/**
 * Fields of the domain-emails operation. Scalars: `domain` (resolved), `organization`, `pattern` (e.g.
 * "{first}.{last}"), `acceptAll`, `webmail`, `disposable` (booleans). List: `emails` (EmailRecord[]).
 */
export const DOMAIN_EMAIL_FIELDS: readonly FieldSpec[] = [
  { name: "domain", kind: "scalar" },
  { name: "organization", kind: "scalar" },
  { name: "pattern", kind: "scalar" },
  { name: "acceptAll", kind: "scalar" },
  { name: "webmail", kind: "scalar" },
  { name: "disposable", kind: "scalar" },
  {
    name: "emails",
    kind: "list",
    key: (item) => (item as EmailRecord).value.toLowerCase(),
    confidence: (item) => (item as EmailRecord).confidence / 100,
  },
];
