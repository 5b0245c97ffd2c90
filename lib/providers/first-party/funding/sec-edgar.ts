import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { Funding, FundingRound } from "@/lib/providers/fields/intelligence";
import { parseRetryAfter } from "@/lib/outbound/retry-after";
import type { OutboundClient, OutboundResponse } from "@/lib/outbound/types";
import { VendorError } from "@/lib/providers/vendors/vendor-error";
import { requestVendorJson } from "@/lib/providers/vendors/vendor-request";
import { displayNameEntity, sameCompany, searchPhrase } from "./company-names";
import { type FormDDocument, parseFormD } from "./form-d";

/*
 * Funding rounds from the SEC's EDGAR system: US issuers raising money under Regulation D file a Form D notice
 * (free to read, no account). Two public endpoints are used:
 *
 *   Full-text search  GET {searchBaseUrl}/search-index?q="<phrase>"&forms=D,D/A[&from=<offset>]
 *     → an Elasticsearch envelope: { hits: { total: { value }, hits: [{ _id: "<adsh>:<file name>", _source: {
 *         ciks: ["0001234567"], display_names: ["Name  (CIK 0001234567)"], file_date: "YYYY-MM-DD",
 *         form: "D" | "D/A", adsh: "0001234567-24-000001", file_num: ["021-123456"], … } }] } }
 *   Filing archive    GET {archiveBaseUrl}/Archives/edgar/data/<cik, no leading zeros>/<adsh without dashes>/primary_doc.xml
 *     → the Form D itself (see ./form-d.ts).
 *
 * SEC fair access: every request declares a User-Agent with a contact address (the outbound client's, from
 * OUTBOUND_CONTACT) and stays under 10 requests per second, so one lookup sends its requests one after another with
 * a pause between them. Being told to slow down (429) is not pressed on: the search retries only after a short
 * stated wait, and a filing's 429 ends the lookup.
 *
 * Form D names no investors and no round names ("Series A"), only the kind of security, so rounds are labelled by it.
 * Errors never name the source: they may be logged or shown anywhere.
 */

export interface SecEdgarFundingSourceOptions {
  http: OutboundClient;
  /** Default "https://efts.sec.gov/LATEST"; tests point it at a local fake. */
  searchBaseUrl?: string;
  /** Default "https://www.sec.gov". */
  archiveBaseUrl?: string;
  /** Filings read at most per lookup, most recent first; default 8. */
  maxFilings?: number;
  /** Pause between two requests of one lookup; default 150 ms (SEC allows 10 requests per second in all). */
  requestIntervalMs?: number;
}

export interface FundingSource {
  /** The company's Form D funding, or null when no filing names it as the issuer. */
  findFunding(companyName: string, signal?: AbortSignal): Promise<Funding | null>;
}

const DEFAULT_SEARCH_BASE_URL = "https://efts.sec.gov/LATEST";
const DEFAULT_ARCHIVE_BASE_URL = "https://www.sec.gov";
const DEFAULT_MAX_FILINGS = 8;
const DEFAULT_REQUEST_INTERVAL_MS = 150;
/** The search answers ten hits a page; a company rarely has more Form D filings than a few pages hold. */
const MAX_SEARCH_PAGES = 3;
/** A search page is a few kilobytes and a Form D a few dozen; anything far larger is not what we asked for. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
const FORM_TYPES = "D,D/A";

const searchBody = z.object({
  hits: z.object({
    total: z.object({ value: z.number() }).catch({ value: 0 }),
    hits: z.array(
      z.object({
        _id: z.string(),
        _source: z.object({
          ciks: z.array(z.string()).min(1),
          display_names: z.array(z.string()).catch([]),
          file_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
          form: z.string(),
          adsh: z.string().optional(),
          file_num: z.array(z.string()).catch([]),
        }),
      }),
    ),
  }),
});

type SearchHit = z.infer<typeof searchBody>["hits"]["hits"][number];

interface Filing {
  cik: string;
  adsh: string;
  form: string;
  fileDate: string;
  fileNumber: string | null;
}

interface ReadFiling extends Filing {
  document: FormDDocument;
}

export function createSecEdgarFundingSource(options: SecEdgarFundingSourceOptions): FundingSource {
  const searchBaseUrl = new URL(options.searchBaseUrl ?? DEFAULT_SEARCH_BASE_URL).href.replace(/\/+$/, "");
  const archiveBaseUrl = new URL(options.archiveBaseUrl ?? DEFAULT_ARCHIVE_BASE_URL).href.replace(/\/+$/, "");
  const maxFilings = Math.max(1, Math.floor(options.maxFilings ?? DEFAULT_MAX_FILINGS));
  const intervalMs = Math.max(0, options.requestIntervalMs ?? DEFAULT_REQUEST_INTERVAL_MS);
  // The source refuses to run anonymously rather than be blocked for it.
  if (!options.http.userAgent.includes("@")) {
    throw new Error(
      "The funding source needs a contact e-mail address in the outbound User-Agent (set OUTBOUND_CONTACT).",
    );
  }

  return {
    async findFunding(companyName, signal = new AbortController().signal) {
      const phrase = searchPhrase(companyName);
      if (phrase === "") return null;
      const http = pacedClient(options.http, intervalMs);

      const filings = await searchFilings(http, searchBaseUrl, phrase, companyName, maxFilings, signal);
      if (filings.length === 0) return null;

      const read: ReadFiling[] = [];
      let failures = 0;
      for (const filing of filings) {
        const document = await readFiling(http, archiveBaseUrl, filing, signal);
        if (document === null) failures += 1;
        // The issuer named in the filing itself is authoritative; the search's display name only picked it.
        else if (document.entityName === null || sameCompany(companyName, document.entityName))
          read.push({ ...filing, document });
      }
      if (read.length === 0) {
        if (failures > 0) throw new VendorError("unavailable", "upstream filings could not be read");
        return null;
      }
      return toFunding(latestPerOffering(read));
    },
  };
}

/** The client, with the requests of one lookup started at least `intervalMs` apart (SEC fair access). */
function pacedClient(http: OutboundClient, intervalMs: number): OutboundClient {
  let lastStartedAt: number | undefined;
  return {
    userAgent: http.userAgent,
    async request(url, init = {}) {
      if (lastStartedAt !== undefined) {
        const wait = lastStartedAt + intervalMs - performance.now();
        // An abort during the pause surfaces from the request itself, which sees the same signal.
        if (wait > 0) await sleep(wait, undefined, { signal: init.signal }).catch(() => undefined);
      }
      lastStartedAt = performance.now();
      return http.request(url, init);
    },
  };
}

/** Filings whose search display name is the company, newest first, one per accession number, at most `maxFilings`. */
async function searchFilings(
  http: OutboundClient,
  baseUrl: string,
  phrase: string,
  companyName: string,
  maxFilings: number,
  signal: AbortSignal,
): Promise<Filing[]> {
  const byAccession = new Map<string, Filing>();
  for (let page = 0, offset = 0; page < MAX_SEARCH_PAGES; page += 1) {
    const query = new URLSearchParams({ q: `"${phrase}"`, forms: FORM_TYPES });
    if (offset > 0) query.set("from", String(offset));
    const answer = await requestVendorJson({
      http,
      url: `${baseUrl}/search-index?${query}`,
      headers: {},
      signal,
      maxBytes: MAX_BODY_BYTES,
    });
    if (!answer.found) throw new VendorError("rejected", "upstream answered 404", { status: 404 });
    const parsed = searchBody.safeParse(answer.body);
    if (!parsed.success) throw new VendorError("invalid_body", "upstream answered with an unexpected body");

    const hits = parsed.data.hits.hits;
    for (const hit of hits) {
      const filing = matchingFiling(hit, companyName);
      if (filing && !byAccession.has(filing.adsh)) byAccession.set(filing.adsh, filing);
    }
    offset += hits.length;
    // Relevance decides the search's order, not dates, so the newest filings may sit on a later page.
    if (hits.length === 0 || offset >= parsed.data.hits.total.value) break;
  }
  return [...byAccession.values()].sort(newestFirst).slice(0, maxFilings);
}

function matchingFiling(hit: SearchHit, companyName: string): Filing | null {
  const source = hit._source;
  if (source.form !== "D" && source.form !== "D/A") return null;
  // Co-issuers share a filing; the CIK at the matching name's position is the company's own archive folder.
  const index = source.display_names.findIndex((name) => sameCompany(companyName, displayNameEntity(name)));
  if (index === -1) return null;
  const adsh = source.adsh ?? hit._id.split(":", 1)[0] ?? "";
  const cik = (source.ciks[index] ?? source.ciks[0] ?? "").replace(/^0+/, "");
  if (!/^\d{10}-\d{2}-\d{6}$/.test(adsh) || !/^\d+$/.test(cik)) return null;
  return { cik, adsh, form: source.form, fileDate: source.file_date, fileNumber: source.file_num[0] ?? null };
}

/**
 * The filing's Form D, or null when this one filing cannot be read (not found, unavailable, not a Form D): one bad
 * filing should not cost the others. Being told to slow down (429) or being stopped is not skipped: it ends the lookup.
 */
async function readFiling(
  http: OutboundClient,
  baseUrl: string,
  filing: Filing,
  signal: AbortSignal,
): Promise<FormDDocument | null> {
  const url = `${baseUrl}/Archives/edgar/data/${filing.cik}/${filing.adsh.replace(/-/g, "")}/primary_doc.xml`;
  let response: OutboundResponse;
  try {
    response = await http.request(url, {
      headers: { accept: "application/xml, text/xml" },
      signal,
      maxBytes: MAX_BODY_BYTES,
      overflow: "error",
    });
  } catch (error) {
    if (signal.aborted) throw new VendorError("aborted", "upstream request aborted", { cause: error });
    return null;
  }
  if (response.status === 429) {
    throw new VendorError("rate_limited", "upstream answered 429", {
      status: 429,
      retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")),
    });
  }
  if (response.status < 200 || response.status > 299) return null;
  return parseFormD(response.text());
}

/**
 * One filing per offering: a D/A restates the whole offering with cumulative amounts, so only the latest filing of
 * each offering counts (adding them up would count the same money twice). An amendment belongs to the filing its
 * previousAccessionNumber names, else to the latest earlier offering with the same SEC file number; an amendment
 * whose original we did not read stands for its offering itself.
 */
function latestPerOffering(filings: ReadFiling[]): ReadFiling[] {
  const offeringOf = new Map<string, ReadFiling[]>();
  const offerings: ReadFiling[][] = [];
  for (const filing of [...filings].sort((a, b) => newestFirst(b, a))) {
    const previous = filing.document.previousAccessionNumber;
    const amended = filing.document.isAmendment
      ? ((previous !== null ? offeringOf.get(previous) : undefined) ??
        offerings.findLast(
          (offering) =>
            filing.fileNumber !== null && offering.some((earlier) => earlier.fileNumber === filing.fileNumber),
        ))
      : undefined;
    const offering = amended ?? [];
    if (!amended) offerings.push(offering);
    offering.push(filing);
    offeringOf.set(filing.adsh, offering);
  }
  return offerings.map((offering) => offering.at(-1)).filter((filing): filing is ReadFiling => filing !== undefined);
}

function toFunding(filings: ReadFiling[]): Funding {
  const rounds = filings.map(toRound).sort((a, b) => (b.date ?? "").localeCompare(a.date ?? ""));
  const known = rounds.flatMap((round) => (round.amountUsd === null ? [] : [round.amountUsd]));
  return {
    totalRaisedUsd: known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0),
    lastRound: rounds[0] ?? null,
    rounds,
  };
}

function toRound(filing: ReadFiling): FundingRound {
  const { document } = filing;
  return {
    type: document.securityTypes.length === 0 ? "Form D" : `Form D — ${document.securityTypes.join(", ")}`,
    // What was sold, not what was offered: the offering amount is an intention (and may be "Indefinite").
    amountUsd: document.totalAmountSold,
    date: document.dateOfFirstSale ?? filing.fileDate,
    // Form D lists the issuer's executives and promoters, never its investors.
    investors: [],
  };
}

function newestFirst(a: Filing, b: Filing): number {
  return b.fileDate.localeCompare(a.fileDate) || b.adsh.localeCompare(a.adsh);
}
