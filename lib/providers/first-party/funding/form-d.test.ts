import { describe, expect, it } from "vitest";
import { amount, parseFormD } from "./form-d";

// A handmade, fictional Form D in EDGAR's primary_doc.xml shape, with the irregularities a parser meets in practice:
// a namespace prefix, an XML declaration, comments, entities, CDATA and empty elements.
const AMENDMENT = `<?xml version="1.0" encoding="UTF-8"?>
<!-- <entityName>Commented Out Corp</entityName> -->
<ns1:edgarSubmission xmlns:ns1="http://www.sec.gov/edgar/formd">
  <ns1:schemaVersion>X0708</ns1:schemaVersion>
  <ns1:submissionType>D/A</ns1:submissionType>
  <ns1:relatedPersonsList><ns1:relatedPersonInfo><ns1:relationshipClarification/></ns1:relatedPersonInfo></ns1:relatedPersonsList>
  <ns1:primaryIssuer>
    <ns1:cik>0009990004</ns1:cik>
    <ns1:entityName>Corvid &amp; Loom, Inc. &#8212; &#x41;</ns1:entityName>
  </ns1:primaryIssuer>
  <ns1:issuerList><ns1:issuer><ns1:entityName>Co-Issuer LLC</ns1:entityName></ns1:issuer></ns1:issuerList>
  <ns1:offeringData>
    <ns1:typeOfFiling>
      <ns1:newOrAmendment>
        <ns1:isAmendment>true</ns1:isAmendment>
        <ns1:previousAccessionNumber>0009990004-21-000001</ns1:previousAccessionNumber>
      </ns1:newOrAmendment>
      <ns1:dateOfFirstSale><ns1:value>2021-04-20</ns1:value></ns1:dateOfFirstSale>
    </ns1:typeOfFiling>
    <ns1:typesOfSecuritiesOffered>
      <ns1:isEquityType>true</ns1:isEquityType>
      <ns1:isOtherType>true</ns1:isOtherType>
      <ns1:descriptionOfOtherType><![CDATA[SAFEs & <notes>]]></ns1:descriptionOfOtherType>
    </ns1:typesOfSecuritiesOffered>
    <ns1:offeringSalesAmounts>
      <ns1:totalOfferingAmount>Indefinite</ns1:totalOfferingAmount>
      <ns1:totalAmountSold>1,000,000.50</ns1:totalAmountSold>
      <ns1:totalRemaining>Indefinite</ns1:totalRemaining>
    </ns1:offeringSalesAmounts>
  </ns1:offeringData>
</ns1:edgarSubmission>`;

const FIRST_SALE_YET_TO_OCCUR = `<?xml version="1.0"?>
<edgarSubmission>
  <submissionType>D</submissionType>
  <primaryIssuer><entityName>Kestrel Fen Labs LLC</entityName></primaryIssuer>
  <offeringData>
    <typeOfFiling>
      <newOrAmendment><isAmendment>false</isAmendment></newOrAmendment>
      <dateOfFirstSale><yetToOccur>true</yetToOccur></dateOfFirstSale>
    </typeOfFiling>
    <typesOfSecuritiesOffered><isPooledInvestmentFundType>true</isPooledInvestmentFundType><isDebtType>false</isDebtType></typesOfSecuritiesOffered>
    <offeringSalesAmounts><totalOfferingAmount>2000000</totalOfferingAmount><totalAmountSold>0</totalAmountSold></offeringSalesAmounts>
  </offeringData>
</edgarSubmission>`;

describe("parseFormD", () => {
  it("reads an amendment with a namespace prefix, entities and CDATA", () => {
    expect(parseFormD(AMENDMENT)).toEqual({
      submissionType: "D/A",
      entityName: "Corvid & Loom, Inc. — A",
      isAmendment: true,
      previousAccessionNumber: "0009990004-21-000001",
      dateOfFirstSale: "2021-04-20",
      securityTypes: ["equity", "other"],
      totalOfferingAmount: null,
      totalAmountSold: 1000000.5,
    });
  });

  it("reads a new filing whose first sale is yet to occur, ticking only boxes marked true", () => {
    expect(parseFormD(FIRST_SALE_YET_TO_OCCUR)).toEqual({
      submissionType: "D",
      entityName: "Kestrel Fen Labs LLC",
      isAmendment: false,
      previousAccessionNumber: null,
      dateOfFirstSale: null,
      securityTypes: ["pooled fund"],
      totalOfferingAmount: 2000000,
      totalAmountSold: 0,
    });
  });

  it("returns null for a document that is not a Form D", () => {
    expect(parseFormD("<html><body>Not Found</body></html>")).toBeNull();
    expect(parseFormD("")).toBeNull();
  });

  it("leaves out what a sparse document does not state", () => {
    expect(parseFormD("<edgarSubmission><primaryIssuer><entityName/></primaryIssuer></edgarSubmission>")).toEqual({
      submissionType: null,
      entityName: null,
      isAmendment: false,
      previousAccessionNumber: null,
      dateOfFirstSale: null,
      securityTypes: [],
      totalOfferingAmount: null,
      totalAmountSold: null,
    });
  });
});

describe("amount", () => {
  it.each([
    ["5000000", 5000000],
    ["$5,000,000.00", 5000000],
    [" 250000 ", 250000],
    ["Indefinite", null],
    ["", null],
    ["-5", null],
    ["1e9", null],
    [null, null],
  ])("%j → %j", (text, expected) => {
    expect(amount(text)).toBe(expected);
  });
});
