import { z } from "zod";
import { defineContract } from "./contract";

const PRIVATE_SUFFIXES = [
  ".local",
  ".localhost",
  ".internal",
  ".lan",
  ".home",
  ".corp",
  ".intranet",
  ".test",
  ".invalid",
];

/**
 * A public DNS hostname such as `stripe.com`: letters, digits and hyphens in 2+ labels, no scheme, path, port or IP
 * address. Lower-cased, a trailing dot and a leading `www.` are dropped so equal domains are equal inputs.
 */
export const publicHostname = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, { error: "must not be empty" })
  .max(253, { error: "must be at most 253 characters" })
  .transform((value) => value.replace(/\.$/, "").replace(/^www\./, ""))
  // `abort`: one message per bad domain, the most specific one.
  .refine((value) => !/[/:@?#\s]/.test(value), {
    error: "must be a bare hostname such as `example.com`: no scheme, path or port",
    abort: true,
  })
  .refine(
    (value) =>
      /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(value),
    {
      error: "must be a valid public hostname such as `example.com`",
      abort: true,
    },
  )
  .refine((value) => !PRIVATE_SUFFIXES.some((suffix) => value.endsWith(suffix)), {
    error: "must be a public hostname",
  });

const text = z.string().trim().min(1, { error: "must not be empty" }).max(200);

/** spec §2.2; unknown additional properties are allowed. */
export const metaSchema = z
  .looseObject({
    costCents: z.number(),
    purchasedBalanceCents: z.number(),
    subscriptionRemainingCents: z.number(),
    cached: z.boolean(),
    latencyMs: z.number(),
    priceRange: z.strictObject({ minCents: z.number(), maxCents: z.number() }).optional(),
    budgetCents: z.number().optional(),
    budgetCentsPerRecord: z.number().optional(),
    providersAttempted: z.number().optional(),
    fieldsReturned: z.array(z.string()).optional(),
    fieldsMissing: z.array(z.string()).optional(),
    records: z.number().optional(),
  })
  .meta({ id: "Meta", description: "Cost and balance of the call, in cents, and how it was answered." });

export const pricedHeaders = z.object({
  "x-budget-cents": z
    .string()
    .regex(/^\d{1,8}$/, { error: "must be a whole number of cents, 0 or more" })
    .transform(Number)
    .optional()
    .meta({
      description: "The most this call may cost, in cents. The answer is cut to fit; below the minimum price → 402.",
    }),
  "cache-control": z
    .string()
    .optional()
    .meta({ description: "`no-cache` answers from upstream even when a cached answer exists." }),
});

export function pricedEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, meta: metaSchema });
}

const emailSchema = z
  .object({
    value: z.string(),
    type: z.enum(["personal", "generic"]),
    confidence: z.number().int().meta({ description: "0–100." }),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    position: z.string().nullable(),
    seniority: z.string().nullable(),
    department: z.string().nullable(),
    linkedin: z.string().nullable(),
    twitter: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    sources: z.array(z.object({ uri: z.string(), extractedOn: z.string() })),
    verification: z.object({ date: z.string().nullable(), status: z.string().nullable() }),
  })
  .meta({ id: "DomainEmail" });

export const domainEmailsDataSchema = z
  .object({
    domain: z.string().nullable(),
    organization: z.string().nullable(),
    pattern: z.string().nullable().meta({ description: "The domain's address pattern, e.g. `{first}.{last}`." }),
    acceptAll: z.boolean().nullable(),
    webmail: z.boolean().nullable(),
    disposable: z.boolean().nullable(),
    emails: z.array(emailSchema),
    total: z.number().int().meta({ description: "Matching addresses before paging." }),
  })
  .meta({ id: "DomainEmails" });

export const domainEmailsContract = defineContract({
  operationId: "companies_domain_emails",
  scope: "enrichment",
  method: "POST",
  path: "/v1/data/svc/companies/domain-emails",
  tag: "Companies enrich",
  summary: "Email addresses found for a company",
  description:
    "By `domain`, or by `company` name (resolved to its domain). Each address comes with name, position, type (personal or generic) and verification when available. Up to 100 addresses are considered per company; `total` counts the matches among them and `limit`/`offset` page through them. Priced: a base price plus one price per address returned (`meta.priceRange`), nothing when no source could be attempted.",
  auth: "apiKey",
  headers: pricedHeaders,
  body: z
    .strictObject({
      domain: publicHostname.optional(),
      company: text.optional(),
      limit: z
        .number()
        .int({ error: "must be a whole number" })
        .min(1, { error: "must be at least 1" })
        .max(100, { error: "must be at most 100" })
        .default(10),
      offset: z
        .number()
        .int({ error: "must be a whole number" })
        .min(0, { error: "must be 0 or more" })
        .max(1_000_000)
        .default(0),
      type: z.enum(["personal", "generic"]).optional(),
      seniority: text.optional(),
      department: text.optional(),
    })
    .refine((body) => body.domain !== undefined || body.company !== undefined, {
      error: "send `domain` or `company`",
      path: ["domain"],
    }),
  response: pricedEnvelope(domainEmailsDataSchema),
  errors: ["validation_error", "unauthorized", "payment_required"],
});

/** The signals `companies/intelligence` answers, one per call; each has its own flat price. */
export const INTELLIGENCE_SIGNALS = ["funding", "competitors", "technographics"] as const;
export type IntelligenceSignal = (typeof INTELLIGENCE_SIGNALS)[number];

const roundSchema = z.object({
  type: z.string(),
  amountUsd: z.number().nullable(),
  date: z.string().nullable(),
  investors: z.array(z.string()),
});

export const intelligenceDataSchema = z
  .object({
    domain: z.string(),
    signal: z.enum(INTELLIGENCE_SIGNALS),
    funding: z
      .object({
        totalRaisedUsd: z.number().nullable(),
        lastRound: roundSchema.nullable(),
        rounds: z.array(roundSchema),
      })
      .nullable()
      .optional(),
    competitors: z
      .array(z.object({ name: z.string(), domain: z.string(), similarity: z.number() }))
      .nullable()
      .optional(),
    technographics: z
      .array(
        z.object({
          name: z.string(),
          category: z.string(),
          confidence: z.number(),
          firstDetected: z.string().nullable(),
          lastDetected: z.string().nullable(),
          evidence: z.array(z.string()),
        }),
      )
      .nullable()
      .optional(),
  })
  .meta({
    id: "CompanyIntelligence",
    description: "The requested signal; `null` when nothing was found (see `meta.fieldsMissing`).",
  });

export const intelligenceContract = defineContract({
  operationId: "companies_intelligence",
  scope: "enrichment",
  method: "POST",
  path: "/v1/data/svc/companies/intelligence",
  tag: "Companies enrich",
  summary: "One intelligence signal about a company",
  description:
    "`funding`, `competitors` or `technographics` for a company's domain. Each signal has a flat price, not charged when no source for it could be attempted.",
  auth: "apiKey",
  headers: pricedHeaders,
  body: z.strictObject({
    domain: publicHostname,
    signal: z.enum(INTELLIGENCE_SIGNALS, { error: "must be `funding`, `competitors` or `technographics`" }),
  }),
  response: pricedEnvelope(intelligenceDataSchema),
  errors: ["validation_error", "unauthorized", "payment_required"],
});
