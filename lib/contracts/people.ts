import { z } from "zod";
import { defineContract } from "./contract";
import { pricedEnvelope, pricedHeaders, publicHostname } from "./enrichment";

/*
 * The people operations (spec §1 names their tags, not their shapes; DESIGN §5 style): strict bodies, the priced
 * envelope with the full meta, one operation per use case. Found-or-free lookups (email, enrich, mobile) cost their
 * price only when the person's main field is found; search costs a base price plus one price per person returned.
 */

const text = z.string().trim().min(1, { error: "must not be empty" }).max(200);
const namePart = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(100, { error: "must be at most 100 characters" });

/** A name holds a first and a last name when it has at least two words. */
const nameWords = (name: string) => name.trim().split(/\s+/).filter(Boolean);

/** "send `a` or `b`" for neither, "not both" for both: each alternative pair names its first member. */
function exactlyOne(body: Record<string, unknown>, names: [string, string], context: z.core.$RefinementCtx) {
  const given = names.filter((name) => body[name] !== undefined);
  if (given.length === 1) return;
  context.addIssue({
    code: "custom",
    path: [given.length === 0 ? names[0] : names[1]],
    message:
      given.length === 0
        ? `send \`${names[0]}\` or \`${names[1]}\``
        : `send \`${names[0]}\` or \`${names[1]}\`, not both`,
  });
}

/**
 * A LinkedIn profile URL in one form, `https://www.linkedin.com/in/<handle>` (lower-case handle, no query, no
 * trailing slash), or null when `url` is not a linkedin.com/in/ profile. The people store keeps profiles in this form
 * too, so an equal profile is an equal input and an equal stored row.
 */
export function canonicalLinkedinUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`);
  } catch {
    return null;
  }
  if (!/(^|\.)linkedin\.com$/i.test(parsed.hostname)) return null;
  const match = /^\/in\/([^/]+)\/?$/i.exec(parsed.pathname);
  if (!match) return null;
  let handle: string;
  try {
    handle = decodeURIComponent(match[1]!).toLowerCase();
  } catch {
    return null;
  }
  return `https://www.linkedin.com/in/${encodeURIComponent(handle)}`;
}

const linkedinUrl = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(300, { error: "must be at most 300 characters" })
  .transform((value, context) => {
    const canonical = canonicalLinkedinUrl(value);
    if (canonical === null) {
      context.addIssue({
        code: "custom",
        message: "must be a LinkedIn profile URL such as `https://www.linkedin.com/in/jane-doe`",
      });
      return z.NEVER;
    }
    return canonical;
  })
  .meta({ description: "A LinkedIn profile URL, `https://www.linkedin.com/in/<handle>`." });

// The dot-atom form people publish (no quoted local parts, no IP literals); the domain must be a public hostname.
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, { error: "must not be empty" })
  .max(254, { error: "must be at most 254 characters" })
  .refine(
    (value) => {
      const at = value.lastIndexOf("@");
      if (at <= 0 || at !== value.indexOf("@") || at > 64 || !LOCAL_PART.test(value.slice(0, at))) return false;
      return publicHostname.safeParse(value.slice(at + 1)).success;
    },
    { error: "must be an email address at a public domain, such as `jane@example.com`" },
  );

const seniority = z.enum(["junior", "senior", "executive"], { error: "must be `junior`, `senior` or `executive`" });

const source = z.object({ uri: z.string(), extractedOn: z.string().meta({ description: "YYYY-MM-DD." }) });
const verification = z
  .object({
    date: z.string().nullable().meta({ description: "YYYY-MM-DD of the check." }),
    status: z.enum(["valid", "invalid", "accept_all", "webmail", "disposable", "unknown"]).nullable(),
  })
  .meta({
    description:
      "What could be checked about the address without sending mail; `valid` only when a data source confirmed it.",
  });

// ─── POST /v1/data/svc/people/email ──────────────────────────────────────────────────────────────────────────────

export const personEmailDataSchema = z
  .object({
    email: z
      .string()
      .nullable()
      .meta({ description: "The most likely work address; `null` when none was found (then nothing is charged)." }),
    firstName: z.string(),
    lastName: z.string(),
    domain: z
      .string()
      .nullable()
      .meta({ description: "The company's domain (resolved from `company` when that was sent)." }),
    position: z.string().nullable(),
    seniority: z.string().nullable(),
    department: z.string().nullable(),
    confidence: z.number().int().nullable().meta({ description: "0–100, of `email`." }),
    verification,
    sources: z.array(source).meta({ description: "Pages where the address (or the person) was seen." }),
    candidates: z
      .array(
        z.object({
          email: z.string(),
          confidence: z.number().int().meta({ description: "0–100." }),
          reason: z.enum(["found_on_site", "pattern", "vendor"]).meta({
            description:
              "`found_on_site`: published on the company's site; `pattern`: the company's address format applied to the name; `vendor`: a data source's record.",
          }),
        }),
      )
      .meta({ description: "Every address considered, most likely first; the first is `email`." }),
    pattern: z.string().nullable().meta({ description: "The company's address format, e.g. `{first}.{last}`." }),
  })
  .meta({ id: "PersonEmail" });

export const personEmailContract = defineContract({
  operationId: "people_email",
  scope: "enrichment",
  method: "POST",
  path: "/v1/data/svc/people/email",
  tag: "People email",
  summary: "A person's work email address",
  description:
    "From `firstName` and `lastName` (or `fullName`) and the company's `domain` (or `company` name, resolved to a domain we have seen). Candidates come from addresses the company publishes and from its address format; the most likely one is `email`, with confidence, verification and sources. Priced only when an address is found (`meta.priceRange`); the balance must cover that price to start.",
  auth: "apiKey",
  headers: pricedHeaders,
  body: z
    .strictObject({
      firstName: namePart.optional(),
      lastName: namePart.optional(),
      fullName: namePart
        .refine((value) => nameWords(value).length >= 2, { error: "must hold a first and a last name" })
        .optional()
        .meta({
          description:
            "Instead of `firstName` and `lastName`: the first word is the first name, the last word the last name.",
        }),
      domain: publicHostname.optional(),
      company: text.optional(),
    })
    .superRefine((body, context) => {
      const parts = [body.firstName, body.lastName].filter((part) => part !== undefined).length;
      if (body.fullName !== undefined && parts > 0) {
        context.addIssue({
          code: "custom",
          path: ["fullName"],
          message: "send `fullName` or `firstName` and `lastName`, not both",
        });
      } else if (body.fullName === undefined) {
        if (body.firstName === undefined)
          context.addIssue({
            code: "custom",
            path: ["firstName"],
            message: "send `firstName` and `lastName`, or `fullName`",
          });
        if (body.lastName === undefined)
          context.addIssue({
            code: "custom",
            path: ["lastName"],
            message: "send `firstName` and `lastName`, or `fullName`",
          });
      }
      exactlyOne(body, ["domain", "company"], context);
    }),
  response: pricedEnvelope(personEmailDataSchema),
  errors: ["validation_error", "unauthorized", "payment_required"],
});

// ─── POST /v1/data/svc/people/enrich and /people/mobile: a person by email or profile ───────────────────────────

const personLookupBody = z
  .strictObject({
    email: emailAddress.optional().meta({ description: "The person's work address." }),
    linkedinUrl: linkedinUrl.optional(),
  })
  .superRefine((body, context) => exactlyOne(body, ["email", "linkedinUrl"], context));

export const personProfileDataSchema = z
  .object({
    fullName: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    position: z.string().nullable(),
    seniority: z.string().nullable(),
    department: z.string().nullable(),
    email: z.string().nullable(),
    company: z.object({ name: z.string().nullable(), domain: z.string().nullable() }).nullable(),
    location: z
      .object({ locality: z.string().nullable(), region: z.string().nullable(), country: z.string().nullable() })
      .nullable()
      .meta({ description: "Where the person works: their company's address when the person's own is not known." }),
    socialProfiles: z.array(z.object({ network: z.string(), url: z.string() })),
  })
  .meta({
    id: "PersonProfile",
    description:
      "Unknown fields are `null` (listed in `meta.fieldsMissing`); an unknown person has every field `null`.",
  });

export const personEnrichContract = defineContract({
  operationId: "people_enrich",
  scope: "enrichment",
  method: "POST",
  path: "/v1/data/svc/people/enrich",
  tag: "People enrich",
  summary: "A person's profile from an email address or a LinkedIn URL",
  description:
    "Send `email` or `linkedinUrl`. Answers name, position, seniority, department, company, location and social profiles, with `meta.fieldsReturned`/`fieldsMissing`. Priced only when the person is found; the balance must cover that price to start.",
  auth: "apiKey",
  headers: pricedHeaders,
  body: personLookupBody,
  response: pricedEnvelope(personProfileDataSchema),
  errors: ["validation_error", "unauthorized", "payment_required"],
});

export const personPhoneNumbersDataSchema = z
  .object({
    phoneNumbers: z.array(
      z.object({
        number: z.string().meta({ description: "E.164, e.g. `+12175550142`." }),
        type: z.enum(["mobile", "work", "other"]),
        confidence: z.number().meta({ description: "0–1." }),
        source: z
          .string()
          .meta({ description: "The page the number was published on, or `vendor` for a data source's record." }),
      }),
    ),
  })
  .meta({ id: "PersonPhoneNumbers" });

export const personMobileContract = defineContract({
  operationId: "people_mobile",
  scope: "enrichment",
  method: "POST",
  path: "/v1/data/svc/people/mobile",
  tag: "People mobile",
  summary: "A person's phone numbers",
  description:
    "Send `email` or `linkedinUrl`. Numbers in E.164 with their type and confidence: a number the company publishes for the person is a `work` number; mobile numbers come only from data sources that hold them, and when none is configured `meta.fieldsMissing` says so. Priced only when a number is found; the balance must cover that price to start.",
  auth: "apiKey",
  headers: pricedHeaders,
  body: personLookupBody,
  response: pricedEnvelope(personPhoneNumbersDataSchema),
  errors: ["validation_error", "unauthorized", "payment_required"],
});

// ─── POST /v1/data/svc/people/search ─────────────────────────────────────────────────────────────────────────────

export const peopleSearchDataSchema = z
  .object({
    domain: z.string(),
    people: z.array(
      z.object({
        fullName: z.string(),
        firstName: z.string(),
        lastName: z.string(),
        position: z.string().nullable(),
        seniority: z.string().nullable(),
        department: z.string().nullable(),
        email: z.string().nullable(),
        linkedin: z.string().nullable(),
        twitter: z.string().nullable().meta({ description: "Handle without `@`." }),
        confidence: z
          .number()
          .int()
          .meta({ description: "0–100: how sure we are the person works there in this role." }),
      }),
    ),
    total: z.number().int().meta({ description: "Matching people before paging." }),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` (with the same filters) for the next page; `null` on the last page." }),
  })
  .meta({ id: "PeopleSearch" });

export const peopleSearchContract = defineContract({
  operationId: "people_search",
  scope: "enrichment",
  method: "POST",
  path: "/v1/data/svc/people/search",
  tag: "People search",
  summary: "People at a company",
  description:
    "People known to work at `domain`, most certain first, filtered by `titles` (any of them, as part of the position, case-insensitive), `seniority` and `department` (any of the values). Up to 100 people are considered per company; `total` counts the matches and `nextCursor` pages through them. Priced: a base price plus one price per person returned, nothing when the page is empty; X-Budget-Cents cuts the page to what it affords.",
  auth: "apiKey",
  headers: pricedHeaders,
  body: z.strictObject({
    domain: publicHostname,
    titles: z
      .array(text, { error: "must be a list of titles" })
      .min(1, { error: "must not be empty" })
      .max(20, { error: "must have at most 20 titles" })
      .optional(),
    seniority: z
      .array(seniority, { error: "must be a list of seniorities" })
      .min(1, { error: "must not be empty" })
      .max(3)
      .optional(),
    department: z
      .array(text, { error: "must be a list of departments" })
      .min(1, { error: "must not be empty" })
      .max(20, { error: "must have at most 20 departments" })
      .optional()
      .meta({
        description: "E.g. `sales`, `marketing`, `it`, `finance`, `executive`, `hr`, `legal`, `support`, `operations`.",
      }),
    limit: z
      .number()
      .int({ error: "must be a whole number" })
      .min(1, { error: "must be at least 1" })
      .max(100, { error: "must be at most 100" })
      .default(10),
    cursor: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(2000)
      .optional()
      .meta({ description: "`nextCursor` of the previous page." }),
  }),
  response: pricedEnvelope(peopleSearchDataSchema),
  errors: ["validation_error", "unauthorized", "payment_required"],
});
