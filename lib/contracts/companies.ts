import { z } from "zod";
import { defineContract } from "./contract";
import { pricedEnvelope, pricedHeaders, publicHostname } from "./enrichment";

const text = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(200, { error: "must be at most 200 characters" });
const limit = z
  .number()
  .int({ error: "must be a whole number" })
  .min(1, { error: "must be at least 1" })
  .max(100, { error: "must be at most 100" })
  .default(10);
const cursor = z
  .string()
  .min(1, { error: "must not be empty" })
  .max(2000)
  .optional()
  .meta({ description: "`nextCursor` of the previous page." });
const nextCursor = z
  .string()
  .nullable()
  .meta({ description: "Pass as `cursor` (with the same body otherwise) for the next page; `null` on the last page." });

/** Employee-count brackets, as company-data vendors write them. */
export const COMPANY_SIZE_RANGES = [
  "1-10",
  "11-50",
  "51-200",
  "201-500",
  "501-1000",
  "1001-5000",
  "5001-10000",
  "10001+",
] as const;
export type CompanySizeRange = (typeof COMPANY_SIZE_RANGES)[number];

// ---------------------------------------------------------------------------------------------------------------
// POST /v1/data/svc/companies/enrich

const locationSchema = z
  .object({
    street: z.string().nullable(),
    locality: z.string().nullable(),
    region: z.string().nullable(),
    postalCode: z.string().nullable(),
    country: z.string().nullable(),
  })
  .meta({ id: "CompanyLocation", description: "The company's address as stated; parts nobody stated are `null`." });

export const companyProfileDataSchema = z
  .object({
    domain: z.string(),
    name: z.string().nullable(),
    legalName: z.string().nullable(),
    description: z.string().nullable(),
    industry: z.string().nullable().meta({ description: "Only when a source states it; never inferred." }),
    keywords: z.array(z.string()).meta({
      description: "Lower-case words that say what the company does; usable as `filters.keywords` of discover.",
    }),
    sizeRange: z.string().nullable().meta({ description: "Employee-count bracket, e.g. `51-200`." }),
    employeeCount: z.number().int().nullable(),
    founded: z.number().int().nullable().meta({ description: "Year founded." }),
    location: locationSchema.nullable(),
    phone: z.string().nullable(),
    socialProfiles: z
      .array(z.object({ network: z.string(), url: z.string() }))
      .meta({ description: "Company profiles, one per network." }),
    logo: z.string().nullable().meta({ description: "URL of the logo (or the largest icon)." }),
    mailProvider: z
      .string()
      .nullable()
      .meta({ description: "Who hosts the domain's mailboxes, from its MX records, e.g. `Google Workspace`." }),
    technologies: z
      .array(z.object({ name: z.string(), category: z.string() }))
      .meta({ description: "Summary of the stack seen on the site and DNS." }),
  })
  .meta({
    id: "CompanyProfile",
    description: "What is known of the company; missing facts are `null` or empty (see `meta.fieldsMissing`).",
  });

export const companyEnrichContract = defineContract({
  operationId: "companies_enrich",
  scope: "enrichment",
  method: "POST",
  path: "/v1/data/svc/companies/enrich",
  tag: "Companies enrich",
  summary: "A company's profile from its domain",
  description:
    "Name, description, industry, size, founding year, location, social profiles, logo, mail provider and a summary of technologies, from the company's own website and DNS and from company-data sources. Found or free: the price is charged only when a profile (at least a name) is found, but the balance must cover it to start.",
  auth: "apiKey",
  headers: pricedHeaders,
  body: z.strictObject({ domain: publicHostname }),
  response: pricedEnvelope(companyProfileDataSchema),
  errors: ["validation_error", "unauthorized", "payment_required"],
});

// ---------------------------------------------------------------------------------------------------------------
// POST /v1/data/svc/companies/search

export const companySearchDataSchema = z
  .object({
    companies: z.array(
      z.object({
        domain: z.string(),
        name: z.string().nullable(),
        description: z.string().nullable(),
        score: z.number().meta({ description: "0–1: how well the company matches; 1 is its exact name or domain." }),
      }),
    ),
    total: z.number().int().meta({ description: "Matching companies before paging." }),
    nextCursor,
  })
  .meta({ id: "CompanySearch" });

export const companySearchContract = defineContract({
  operationId: "companies_search",
  scope: "enrichment",
  method: "POST",
  path: "/v1/data/svc/companies/search",
  tag: "Companies search",
  summary: "Companies by name or keywords",
  description:
    'Companies whose name resembles `query` (typos and partial names included) or whose name, keywords or description contain its words (`or` and `"quoted phrases"` are understood), best match first: a company with exactly that name or domain comes first, which resolves a name to its domain. Up to 500 companies are ranked per query; `total` counts them and `nextCursor` pages through them. Priced: a base price plus one price per company returned, nothing when the page is empty; X-Budget-Cents cuts the page to what it affords.',
  auth: "apiKey",
  headers: pricedHeaders,
  body: z.strictObject({
    query: text.meta({ description: "A company name or keywords." }),
    limit,
    cursor,
  }),
  response: pricedEnvelope(companySearchDataSchema),
  errors: ["validation_error", "unauthorized", "payment_required"],
});

// ---------------------------------------------------------------------------------------------------------------
// POST /v1/data/svc/companies/discover

const listOf = (what: string, max: number) =>
  z
    .array(text, { error: `must be a list of ${what}` })
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must have at most ${max} ${what}` })
    .optional();

const discoverFilters = z
  .strictObject({
    industry: listOf("industries", 10).meta({
      description: "Any of these industries, as sources state them (case-insensitive).",
    }),
    keywords: listOf("keywords", 20).meta({
      description: "Any of these keywords (see `keywords` of enrich); more matches rank higher.",
    }),
    technologies: listOf("technologies", 20).meta({
      description: "Any of these technologies, e.g. `WordPress`; more matches rank higher.",
    }),
    country: z
      .string()
      .trim()
      .min(2, { error: "must be a country name or a two-letter code" })
      .max(60, { error: "must be at most 60 characters" })
      .regex(/^[\p{L} .'&()-]+$/u, { error: "must be a country name or a two-letter code" })
      .optional()
      .meta({ description: "A two-letter ISO 3166 code or an English country name, e.g. `US` or `Germany`." }),
    locality: text.optional().meta({ description: "City, e.g. `Berlin` (case-insensitive)." }),
    sizeRange: z
      .enum(COMPANY_SIZE_RANGES, {
        error: `must be one of ${COMPANY_SIZE_RANGES.map((range) => `\`${range}\``).join(", ")}`,
      })
      .optional()
      .meta({ description: "Employee-count bracket." }),
  })
  .meta({ description: "Every filter given must match; a list filter matches when any of its values does." });

export const companyDiscoverDataSchema = z
  .object({
    companies: z.array(
      z.object({
        domain: z.string(),
        name: z.string().nullable(),
        similarity: z
          .number()
          .nullable()
          .meta({ description: "0–1 likeness to `domain`; `null` when discovering by filters alone." }),
        matched: z.array(z.string()).meta({
          description:
            "Why it is listed: the keywords and technologies it shares with `domain` or matches in `filters`.",
        }),
      }),
    ),
    total: z.number().int().meta({ description: "Matching companies before paging." }),
    nextCursor,
  })
  .meta({ id: "CompanyDiscover" });

export const companyDiscoverContract = defineContract({
  operationId: "companies_discover",
  scope: "enrichment",
  method: "POST",
  path: "/v1/data/svc/companies/discover",
  tag: "Companies discover",
  summary: "Companies like a given one, or matching filters",
  description:
    "Lookalikes of `domain` (companies that describe themselves with the same words, a similar stack adding weight), most alike first; or companies matching `filters` (industry, keywords, technologies, country, locality, size), most matches first; or lookalikes narrowed by filters. Answered from the companies the service has collected and enriched, a store that grows with every call. Up to 500 companies are ranked per request; `total` counts them and `nextCursor` pages through them. Priced: a base price plus one price per company returned, nothing when the page is empty; X-Budget-Cents cuts the page to what it affords.",
  auth: "apiKey",
  headers: pricedHeaders,
  body: z
    .strictObject({
      domain: publicHostname.optional().meta({ description: "Find companies like this one." }),
      filters: discoverFilters.optional(),
      limit,
      cursor,
    })
    .refine(
      (body) => body.domain !== undefined || Object.values(body.filters ?? {}).some((value) => value !== undefined),
      {
        error: "send `domain`, at least one filter, or both",
        path: ["domain"],
      },
    ),
  response: pricedEnvelope(companyDiscoverDataSchema),
  errors: ["validation_error", "unauthorized", "payment_required"],
});
