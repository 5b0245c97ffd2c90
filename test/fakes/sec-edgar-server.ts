import type { ServerResponse } from "node:http";
import { type FakeVendorRequest, sendJson, startFakeVendorServer } from "./vendor-server";

/*
 * A local stand-in for the two public SEC EDGAR endpoints the Form D funding source reads, so its tests run offline
 * over real HTTP:
 *
 *   GET /LATEST/search-index?q="<phrase>"&forms=D,D/A[&from=N]   EDGAR full-text search: an Elasticsearch envelope,
 *       { took, timed_out, hits: { total: { value, relation }, max_score, hits: [{ _index, _id: "<adsh>:primary_doc.xml",
 *       _score, _source: { ciks, display_names: ["Name  (CIK 0001234567)"], file_date, form, root_forms, adsh,
 *       file_num, file_type, biz_states, inc_states, sics, … } }] } }, ten hits a page (`pageSize`), in relevance
 *       order rather than by date.
 *   GET /Archives/edgar/data/<cik without leading zeros>/<adsh without dashes>/primary_doc.xml   the Form D XML.
 *
 * The shapes follow public descriptions and examples of these endpoints (EDGAR full-text search's JSON as seen from its
 * own web page; the Form D XML technical specification's `edgarSubmission` document). Like the SEC, the fake refuses
 * requests whose User-Agent declares no contact address (403). Every issuer, person, CIK and accession number below
 * is handmade and fictional (CIKs 00099900xx, phone numbers in the reserved 555-01xx range).
 */

export interface FakeFormDFiling {
  cik: string;
  adsh: string;
  form: "D" | "D/A";
  fileDate: string;
  fileNumber: string;
  entityName: string;
  /** Further text of the filing the full-text search can match, e.g. a fund naming a portfolio company. */
  body?: string;
  previousAccessionNumber?: string;
  /** YYYY-MM-DD, or "yet to occur". */
  dateOfFirstSale: string;
  securityTypes: (
    "isEquityType" | "isDebtType" | "isOptionToAcquireType" | "isPooledInvestmentFundType" | "isOtherType"
  )[];
  totalOfferingAmount: string;
  totalAmountSold: string;
  totalRemaining: string;
  /** How the archive answers for this filing's document; default 200. */
  archiveStatus?: 200 | 429 | 503;
}

const LUMENFOLD = { cik: "0009990001", entityName: "Lumenfold Robotics, Inc." };

export const FAKE_FORM_D_FILINGS: readonly FakeFormDFiling[] = [
  // Listed in no date order: the search ranks by relevance.
  {
    ...LUMENFOLD,
    adsh: "0009990001-24-000003",
    form: "D",
    fileDate: "2024-06-05",
    fileNumber: "021-990002",
    dateOfFirstSale: "2024-05-20",
    securityTypes: ["isDebtType", "isOptionToAcquireType"],
    totalOfferingAmount: "Indefinite",
    totalAmountSold: "1250000",
    totalRemaining: "Indefinite",
  },
  {
    ...LUMENFOLD,
    adsh: "0009990001-22-000001",
    form: "D",
    fileDate: "2022-03-10",
    fileNumber: "021-990001",
    dateOfFirstSale: "2022-02-28",
    securityTypes: ["isEquityType"],
    totalOfferingAmount: "5000000",
    totalAmountSold: "3000000",
    totalRemaining: "2000000",
  },
  {
    // Not the company: the same stem, another issuer.
    cik: "0009990002",
    entityName: "Lumenfold Robotics Holdings Trust",
    adsh: "0009990002-24-000001",
    form: "D",
    fileDate: "2024-08-01",
    fileNumber: "021-990101",
    dateOfFirstSale: "2024-07-15",
    securityTypes: ["isPooledInvestmentFundType"],
    totalOfferingAmount: "40000000",
    totalAmountSold: "40000000",
    totalRemaining: "0",
  },
  {
    // The annual amendment of the 2022 offering: cumulative amounts, the same offering.
    ...LUMENFOLD,
    adsh: "0009990001-23-000002",
    form: "D/A",
    fileDate: "2023-02-20",
    fileNumber: "021-990001",
    previousAccessionNumber: "0009990001-22-000001",
    dateOfFirstSale: "2022-02-28",
    securityTypes: ["isEquityType"],
    totalOfferingAmount: "5000000",
    totalAmountSold: "5000000",
    totalRemaining: "0",
  },
  {
    // Not the company either: a fund that names it in its filing.
    cik: "0009990003",
    entityName: "Northgate Ventures Fund II, L.P.",
    body: "Portfolio companies include Lumenfold Robotics and others.",
    adsh: "0009990003-23-000001",
    form: "D",
    fileDate: "2023-09-15",
    fileNumber: "021-990201",
    dateOfFirstSale: "2023-09-01",
    securityTypes: ["isPooledInvestmentFundType"],
    totalOfferingAmount: "Indefinite",
    totalAmountSold: "12000000",
    totalRemaining: "Indefinite",
  },
  {
    // The most recent filing, whose document the archive cannot serve right now.
    ...LUMENFOLD,
    adsh: "0009990001-24-000004",
    form: "D",
    fileDate: "2024-11-02",
    fileNumber: "021-990003",
    dateOfFirstSale: "2024-10-21",
    securityTypes: ["isEquityType"],
    totalOfferingAmount: "9000000",
    totalAmountSold: "9000000",
    totalRemaining: "0",
    archiveStatus: 503,
  },
  {
    // An "&" in the name (escaped in the XML), an amendment without previousAccessionNumber, found by file number.
    cik: "0009990004",
    entityName: "Corvid & Loom, Inc.",
    adsh: "0009990004-21-000001",
    form: "D",
    fileDate: "2021-05-01",
    fileNumber: "021-990301",
    dateOfFirstSale: "2021-04-20",
    securityTypes: ["isEquityType", "isOtherType"],
    totalOfferingAmount: "1000000",
    totalAmountSold: "800000",
    totalRemaining: "200000",
  },
  {
    cik: "0009990004",
    entityName: "Corvid & Loom, Inc.",
    adsh: "0009990004-22-000002",
    form: "D/A",
    fileDate: "2022-04-20",
    fileNumber: "021-990301",
    dateOfFirstSale: "2021-04-20",
    securityTypes: ["isEquityType", "isOtherType"],
    totalOfferingAmount: "1000000",
    totalAmountSold: "1000000",
    totalRemaining: "0",
  },
  {
    // First sale yet to occur: nothing sold yet, dated by its filing.
    cik: "0009990005",
    entityName: "Kestrel Fen Labs LLC",
    adsh: "0009990005-25-000001",
    form: "D",
    fileDate: "2025-01-15",
    fileNumber: "021-990401",
    dateOfFirstSale: "yet to occur",
    securityTypes: ["isEquityType"],
    totalOfferingAmount: "2000000",
    totalAmountSold: "0",
    totalRemaining: "2000000",
  },
  {
    // The archive tells us to slow down when this document is asked for.
    cik: "0009990006",
    entityName: "Brightwater Instruments Corp",
    adsh: "0009990006-24-000001",
    form: "D",
    fileDate: "2024-02-02",
    fileNumber: "021-990501",
    dateOfFirstSale: "2024-01-25",
    securityTypes: ["isEquityType"],
    totalOfferingAmount: "3000000",
    totalAmountSold: "3000000",
    totalRemaining: "0",
    archiveStatus: 429,
  },
  {
    // The company of the fake websites (test/fakes/company-sites/acme.example), for tests through the whole app.
    cik: "0009990007",
    entityName: "Acme Analytics, Inc.",
    adsh: "0009990007-23-000001",
    form: "D",
    fileDate: "2023-04-12",
    fileNumber: "021-990601",
    dateOfFirstSale: "2023-03-30",
    securityTypes: ["isEquityType"],
    totalOfferingAmount: "8000000",
    totalAmountSold: "6500000",
    totalRemaining: "1500000",
  },
];

/** `normal` answers the search per the data; the others make the search endpoint fail as the real one can. */
export type FakeSecEdgarMode = "normal" | "rate_limited" | "unavailable" | "unexpected_shape";

export interface FakeSecEdgarOptions {
  /** Hits per search page; default 10, as the real search answers. */
  pageSize?: number;
  /** The Retry-After of 429 answers; default 30. */
  retryAfterSeconds?: number;
}

export interface FakeSecEdgar {
  /** Like "https://efts.sec.gov/LATEST". */
  searchBaseUrl: string;
  /** Like "https://www.sec.gov". */
  archiveBaseUrl: string;
  requests: FakeVendorRequest[];
  setMode(mode: FakeSecEdgarMode): void;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakeSecEdgar(options: FakeSecEdgarOptions = {}): Promise<FakeSecEdgar> {
  const pageSize = options.pageSize ?? 10;
  const retryAfter = String(options.retryAfterSeconds ?? 30);
  let mode: FakeSecEdgarMode = "normal";

  const server = await startFakeVendorServer((request, response) => {
    if (request.method !== "GET") return sendText(response, 405, "text/plain", "Method Not Allowed");
    // SEC fair access: undeclared automated tools are refused.
    if (!String(request.headers["user-agent"] ?? "").includes("@")) {
      return sendText(
        response,
        403,
        "text/html",
        "<html><body><h1>Your Request Originates from an Undeclared Automated Tool</h1></body></html>",
      );
    }
    if (request.path === "/LATEST/search-index") {
      switch (mode) {
        case "rate_limited":
          return sendText(response, 429, "text/html", "<html><body>Request Rate Threshold Exceeded</body></html>", {
            "retry-after": retryAfter,
          });
        case "unavailable":
          return sendText(response, 503, "text/html", "<html><body>Service Unavailable</body></html>");
        case "unexpected_shape":
          return sendJson(response, 200, { results: [{ name: "Lumenfold Robotics, Inc." }] });
        case "normal":
          return search(new URLSearchParams(request.query), pageSize, response);
      }
    }
    const archive = /^\/Archives\/edgar\/data\/(\d+)\/(\d{18})\/primary_doc\.xml$/.exec(request.path);
    const filing =
      archive &&
      FAKE_FORM_D_FILINGS.find(
        (item) => String(Number(item.cik)) === archive[1] && item.adsh.replace(/-/g, "") === archive[2],
      );
    // The archive serves under the CIK without leading zeros only.
    if (!filing || archive?.[1]?.startsWith("0"))
      return sendText(response, 404, "text/html", "<html><body>Not Found</body></html>");
    if (filing.archiveStatus === 429) {
      return sendText(response, 429, "text/html", "<html><body>Request Rate Threshold Exceeded</body></html>", {
        "retry-after": retryAfter,
      });
    }
    if (filing.archiveStatus === 503)
      return sendText(response, 503, "text/html", "<html><body>Service Unavailable</body></html>");
    return sendText(response, 200, "text/xml", formDXml(filing));
  });

  return {
    searchBaseUrl: `${server.origin}/LATEST`,
    archiveBaseUrl: server.origin,
    requests: server.requests,
    setMode: (next) => {
      mode = next;
    },
    close: server.close,
  };
}

function sendText(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": `${type}; charset=utf-8`, ...headers });
  response.end(body);
}

/** Words as the search engine indexes them: case and punctuation do not matter to a phrase query. */
function tokens(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
}

function search(query: URLSearchParams, pageSize: number, response: ServerResponse): void {
  const q = query.get("q") ?? "";
  const forms = (query.get("forms") ?? "")
    .split(",")
    .map((form) => form.trim())
    .filter(Boolean);
  const from = Number(query.get("from") ?? "0");
  if (!Number.isInteger(from) || from < 0) return sendJson(response, 400, { error: "Invalid from" });
  const phrase = tokens(q.replace(/^"|"$/g, ""));
  const matching = FAKE_FORM_D_FILINGS.filter(
    (filing) =>
      phrase.trim() !== "" &&
      (forms.length === 0 || forms.includes(filing.form)) &&
      tokens(`${filing.entityName} ${filing.body ?? ""}`).includes(phrase),
  );
  const page = matching.slice(from, from + pageSize);
  sendJson(response, 200, {
    took: 12,
    timed_out: false,
    _shards: { total: 50, successful: 50, skipped: 0, failed: 0 },
    hits: {
      total: { value: matching.length, relation: "eq" },
      max_score: page.length > 0 ? 9.5 : null,
      hits: page.map((filing, index) => ({
        _index: "edgar_file",
        _id: `${filing.adsh}:primary_doc.xml`,
        _score: 9.5 - index,
        _source: {
          ciks: [filing.cik],
          period_ending: null,
          file_num: [filing.fileNumber],
          display_names: [`${filing.entityName}  (CIK ${filing.cik})`],
          xsl: "xslFormDX01",
          sequence: 1,
          root_forms: ["D"],
          file_date: filing.fileDate,
          biz_states: ["CA"],
          sics: [],
          form: filing.form,
          adsh: filing.adsh,
          film_num: ["249990001"],
          biz_locations: ["San Jose, CA"],
          file_type: filing.form,
          file_description: null,
          inc_states: ["DE"],
          items: [],
        },
      })),
    },
    aggregations: { form_filter: { buckets: [{ key: "D", doc_count: matching.length }] } },
    query: { q, forms: forms.join(","), from },
  });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A Form D primary document in the shape EDGAR serves (schema X0708), with the filing's values. */
function formDXml(filing: FakeFormDFiling): string {
  const amendment = filing.form === "D/A";
  const previous = filing.previousAccessionNumber
    ? `\n        <previousAccessionNumber>${filing.previousAccessionNumber}</previousAccessionNumber>`
    : "";
  const firstSale = /^\d{4}-\d{2}-\d{2}$/.test(filing.dateOfFirstSale)
    ? `<value>${filing.dateOfFirstSale}</value>`
    : "<yetToOccur>true</yetToOccur>";
  const securities = filing.securityTypes.map((type) => `<${type}>true</${type}>`).join("\n      ");
  const otherDescription = filing.securityTypes.includes("isOtherType")
    ? "\n      <descriptionOfOtherType>Simple agreements for future equity</descriptionOfOtherType>"
    : "";
  const fund = filing.securityTypes.includes("isPooledInvestmentFundType");
  return `<?xml version="1.0"?>
<edgarSubmission>
  <schemaVersion>X0708</schemaVersion>
  <submissionType>${filing.form}</submissionType>
  <testOrLive>LIVE</testOrLive>
  <!-- Handmade fictional filing for tests. -->
  <primaryIssuer>
    <cik>${filing.cik}</cik>
    <entityName>${escapeXml(filing.entityName)}</entityName>
    <issuerAddress>
      <street1>100 Example Way</street1>
      <city>San Jose</city>
      <stateOrCountry>CA</stateOrCountry>
      <stateOrCountryDescription>CALIFORNIA</stateOrCountryDescription>
      <zipCode>95100</zipCode>
    </issuerAddress>
    <issuerPhoneNumber>408-555-0142</issuerPhoneNumber>
    <jurisdictionOfInc>DELAWARE</jurisdictionOfInc>
    <issuerPreviousNameList><value>None</value></issuerPreviousNameList>
    <edgarPreviousNameList><value>None</value></edgarPreviousNameList>
    <entityType>${fund ? "Limited Partnership" : "Corporation"}</entityType>
    <yearOfInc><withinFiveYears>true</withinFiveYears><value>2020</value></yearOfInc>
  </primaryIssuer>
  <relatedPersonsList>
    <relatedPersonInfo>
      <relatedPersonName><firstName>Avery</firstName><lastName>Quill</lastName></relatedPersonName>
      <relatedPersonAddress><street1>100 Example Way</street1><city>San Jose</city><stateOrCountry>CA</stateOrCountry><zipCode>95100</zipCode></relatedPersonAddress>
      <relatedPersonRelationshipList><relationship>Executive Officer</relationship><relationship>Director</relationship></relatedPersonRelationshipList>
      <relationshipClarification/>
    </relatedPersonInfo>
  </relatedPersonsList>
  <offeringData>
    <industryGroup><industryGroupType>${fund ? "Pooled Investment Fund" : "Other Technology"}</industryGroupType></industryGroup>
    <issuerSize><revenueRange>Decline to Disclose</revenueRange></issuerSize>
    <federalExemptionsExclusions><item>06b</item></federalExemptionsExclusions>
    <typeOfFiling>
      <newOrAmendment>
        <isAmendment>${amendment}</isAmendment>${previous}
      </newOrAmendment>
      <dateOfFirstSale>${firstSale}</dateOfFirstSale>
    </typeOfFiling>
    <durationOfOffering><moreThanOneYear>false</moreThanOneYear></durationOfOffering>
    <typesOfSecuritiesOffered>
      ${securities}${otherDescription}
    </typesOfSecuritiesOffered>
    <businessCombinationTransaction><isBusinessCombinationTransaction>false</isBusinessCombinationTransaction></businessCombinationTransaction>
    <minimumInvestmentAccepted>0</minimumInvestmentAccepted>
    <salesCompensationList/>
    <offeringSalesAmounts>
      <totalOfferingAmount>${filing.totalOfferingAmount}</totalOfferingAmount>
      <totalAmountSold>${filing.totalAmountSold}</totalAmountSold>
      <totalRemaining>${filing.totalRemaining}</totalRemaining>
    </offeringSalesAmounts>
    <investors>
      <hasNonAccreditedInvestors>false</hasNonAccreditedInvestors>
      <totalNumberAlreadyInvested>7</totalNumberAlreadyInvested>
    </investors>
    <salesCommissionsFindersFees>
      <salesCommissions><dollarAmount>0</dollarAmount></salesCommissions>
      <findersFees><dollarAmount>0</dollarAmount></findersFees>
    </salesCommissionsFindersFees>
    <useOfProceeds><grossProceedsUsed><dollarAmount>0</dollarAmount></grossProceedsUsed></useOfProceeds>
    <signatureBlock>
      <authorizedRepresentative>false</authorizedRepresentative>
      <signature>
        <issuerName>${escapeXml(filing.entityName)}</issuerName>
        <signatureName>/s/ Avery Quill</signatureName>
        <nameOfSigner>Avery Quill</nameOfSigner>
        <signatureTitle>Chief Executive Officer</signatureTitle>
        <signatureDate>${filing.fileDate}</signatureDate>
      </signature>
    </signatureBlock>
  </offeringData>
</edgarSubmission>
`;
}
