/*
 * Reads the fields we use from a Form D filing's primary document (`primary_doc.xml`, root `edgarSubmission`):
 *
 *   edgarSubmission
 *     submissionType                      "D" or "D/A"
 *     primaryIssuer / entityName, cik
 *     offeringData
 *       typeOfFiling / newOrAmendment / isAmendment, previousAccessionNumber
 *       typeOfFiling / dateOfFirstSale / value (YYYY-MM-DD) | yetToOccur
 *       typesOfSecuritiesOffered / isEquityType, isDebtType, isPooledInvestmentFundType, … (each "true" when ticked)
 *       offeringSalesAmounts / totalOfferingAmount, totalAmountSold, totalRemaining ("Indefinite" is allowed where
 *                                                                                   the issuer cannot state an amount)
 *
 * The document is small, regular, generated XML without mixed content, so a few careful tag lookups do the job
 * without an XML dependency. Elements may carry a namespace prefix; entities and CDATA are decoded.
 */

export interface FormDDocument {
  submissionType: string | null;
  entityName: string | null;
  isAmendment: boolean;
  previousAccessionNumber: string | null;
  /** YYYY-MM-DD, or null when the first sale is yet to occur or not stated. */
  dateOfFirstSale: string | null;
  /** Readable labels of the ticked security types, in form order, e.g. ["equity", "debt"]. */
  securityTypes: string[];
  /** USD; null when not a number (e.g. "Indefinite") or absent. */
  totalOfferingAmount: number | null;
  totalAmountSold: number | null;
}

/** The form's boxes, in its order, with the labels we show. */
const SECURITY_TYPES: [element: string, label: string][] = [
  ["isEquityType", "equity"],
  ["isDebtType", "debt"],
  ["isOptionToAcquireType", "option to acquire"],
  ["isSecurityToBeAcquiredType", "security to be acquired"],
  ["isPooledInvestmentFundType", "pooled fund"],
  ["isTenantInCommonType", "tenant-in-common"],
  ["isMineralPropertyType", "mineral property"],
  ["isOtherType", "other"],
];

/** Parses a Form D primary document; null when it is not one (no `edgarSubmission` root). */
export function parseFormD(xml: string): FormDDocument | null {
  const submission = element(stripComments(xml), "edgarSubmission");
  if (submission === null) return null;
  const offering = element(submission, "offeringData") ?? "";
  const typeOfFiling = element(offering, "typeOfFiling") ?? "";
  const newOrAmendment = element(typeOfFiling, "newOrAmendment") ?? "";
  const securities = element(offering, "typesOfSecuritiesOffered") ?? "";
  const amounts = element(offering, "offeringSalesAmounts") ?? "";
  const submissionType = text(submission, "submissionType");

  return {
    submissionType,
    entityName: text(element(submission, "primaryIssuer") ?? "", "entityName"),
    isAmendment: text(newOrAmendment, "isAmendment")?.toLowerCase() === "true" || submissionType === "D/A",
    previousAccessionNumber: text(newOrAmendment, "previousAccessionNumber"),
    dateOfFirstSale: isoDate(text(element(typeOfFiling, "dateOfFirstSale") ?? "", "value")),
    securityTypes: SECURITY_TYPES.filter(([name]) => text(securities, name)?.toLowerCase() === "true").map(
      ([, label]) => label,
    ),
    totalOfferingAmount: amount(text(amounts, "totalOfferingAmount")),
    totalAmountSold: amount(text(amounts, "totalAmountSold")),
  };
}

/** "5000000", "5,000,000.00" or "$5000000" → 5000000; "Indefinite", "", negative or anything else → null. */
export function amount(value: string | null): number | null {
  if (value === null) return null;
  const cleaned = value.replace(/[$,\s]/g, "");
  if (!/^\d+(?:\.\d+)?$/.test(cleaned)) return null;
  const parsed = Number(cleaned);
  return Number.isFinite(parsed) ? parsed : null;
}

function isoDate(value: string | null): string | null {
  return value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
}

/** The trimmed, decoded text of the first `name` element inside `xml`; null when absent or empty. */
function text(xml: string, name: string): string | null {
  const inner = element(xml, name);
  if (inner === null) return null;
  const decoded = decodeXml(inner).trim();
  return decoded === "" ? null : decoded;
}

/**
 * The raw inner XML of the first `name` element (any namespace prefix), "" for `<name/>`, null when absent. Form D
 * elements do not nest inside themselves, so the first closing tag is the matching one.
 */
function element(xml: string, name: string): string | null {
  const open = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*?)?(/?)>`).exec(xml);
  if (!open) return null;
  if (open[1] === "/") return "";
  const start = open.index + open[0].length;
  const close = new RegExp(`</(?:[\\w.-]+:)?${name}\\s*>`).exec(xml.slice(start));
  return close ? xml.slice(start, start + close.index) : null;
}

function stripComments(xml: string): string {
  return xml.replace(/<!--[\s\S]*?-->/g, "");
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** CDATA sections verbatim, the five XML entities and numeric character references decoded; tags inside dropped. */
function decodeXml(inner: string): string {
  return inner
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) =>
      part.startsWith("<![CDATA[")
        ? part.slice(9, -3)
        : part.replace(/<[^>]*>/g, "").replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity: string, body: string) => {
            if (body[0] === "#") {
              const code =
                body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
              return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
            }
            return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
          }),
    )
    .join("");
}
