import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { VendorError } from "@/lib/providers/vendors/vendor-error";
import { type FakeSecEdgar, startFakeSecEdgar } from "@/test/fakes/sec-edgar-server";
import { createSecEdgarFundingSource, type SecEdgarFundingSourceOptions } from "./sec-edgar";

// Real HTTP on loopback against the local fake, through the real outbound client; nothing here reaches the SEC.
const USER_AGENT = "SignalboxBot/0.1 (+company data collector; ops@signalbox.example)";
const http = createOutboundClient({ allowLoopback: true, userAgent: USER_AGENT });

let fake: FakeSecEdgar;

beforeAll(async () => {
  fake = await startFakeSecEdgar();
});

afterEach(() => {
  fake.setMode("normal");
  fake.requests.length = 0;
});

afterAll(async () => {
  await fake.close();
});

function source(overrides: Partial<SecEdgarFundingSourceOptions> = {}, target: FakeSecEdgar = fake) {
  return createSecEdgarFundingSource({
    http,
    searchBaseUrl: target.searchBaseUrl,
    archiveBaseUrl: target.archiveBaseUrl,
    requestIntervalMs: 0,
    ...overrides,
  });
}

function archivePaths(target: FakeSecEdgar = fake): string[] {
  return target.requests.filter((request) => request.path.startsWith("/Archives/")).map((request) => request.path);
}

/** Awaits a failed lookup and checks the error can be shown anywhere: it names neither the source nor its hosts. */
async function failure(call: Promise<unknown>): Promise<VendorError> {
  const error: unknown = await call.then(
    () => {
      throw new Error("expected the lookup to fail");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(VendorError);
  const message = (error as Error).message;
  expect(message).not.toMatch(/sec|edgar|efts|127\.0\.0\.1|Request Rate Threshold/i);
  return error as VendorError;
}

describe("SEC EDGAR Form D funding source", () => {
  it("turns the company's own filings into rounds, counting an amended offering once", async () => {
    const funding = await source().findFunding("Lumenfold Robotics");

    const debtRound = {
      type: "Form D — debt, option to acquire",
      amountUsd: 1_250_000,
      date: "2024-05-20",
      investors: [],
    };
    const equityRound = { type: "Form D — equity", amountUsd: 5_000_000, date: "2022-02-28", investors: [] };
    expect(funding).toEqual({
      // 5,000,000 from the amendment (cumulative), not 3,000,000 + 5,000,000; the unreadable filing adds nothing.
      totalRaisedUsd: 6_250_000,
      lastRound: debtRound,
      rounds: [debtRound, equityRound],
    });
  });

  it("searches the exact phrase among Form D and D/A filings, declares its contact and reads the archive by CIK", async () => {
    await source().findFunding("Lumenfold Robotics, Inc.");

    const [search] = fake.requests;
    expect(search?.path).toBe("/LATEST/search-index");
    expect(search?.query).toMatchObject({ q: '"Lumenfold Robotics"', forms: "D,D/A" });
    for (const request of fake.requests) expect(request.headers["user-agent"]).toBe(USER_AGENT);
    // Newest first; only the company's own filings are fetched, never the similarly named trust's or the fund's.
    expect(archivePaths()).toEqual([
      "/Archives/edgar/data/9990001/000999000124000004/primary_doc.xml",
      "/Archives/edgar/data/9990001/000999000124000003/primary_doc.xml",
      "/Archives/edgar/data/9990001/000999000123000002/primary_doc.xml",
      "/Archives/edgar/data/9990001/000999000122000001/primary_doc.xml",
    ]);
  });

  it("reads at most maxFilings filings, most recent first", async () => {
    const funding = await source({ maxFilings: 2 }).findFunding("Lumenfold Robotics");

    expect(archivePaths()).toHaveLength(2);
    // The newest filing is unreadable, so only the 2024 debt round remains.
    expect(funding?.rounds.map((round) => round.date)).toEqual(["2024-05-20"]);
    expect(funding?.totalRaisedUsd).toBe(1_250_000);
  });

  it("follows the search's pages", async () => {
    const paged = await startFakeSecEdgar({ pageSize: 2 });
    try {
      const funding = await source({}, paged).findFunding("Lumenfold Robotics");
      expect(funding?.totalRaisedUsd).toBe(6_250_000);
      expect(
        paged.requests
          .filter((request) => request.path === "/LATEST/search-index")
          .map((request) => request.query.from ?? "0"),
      ).toEqual(["0", "2", "4"]);
    } finally {
      await paged.close();
    }
  });

  it("groups an amendment with its offering by file number when it names no previous filing, and decodes entities", async () => {
    const funding = await source().findFunding("Corvid & Loom");
    const round = { type: "Form D — equity, other", amountUsd: 1_000_000, date: "2021-04-20", investors: [] };
    expect(funding).toEqual({ totalRaisedUsd: 1_000_000, lastRound: round, rounds: [round] });
  });

  it("dates a round whose first sale is yet to occur by its filing", async () => {
    const funding = await source().findFunding("Kestrel Fen Labs");
    expect(funding?.rounds).toEqual([{ type: "Form D — equity", amountUsd: 0, date: "2025-01-15", investors: [] }]);
  });

  it("answers null when no filing names the company as its issuer", async () => {
    expect(await source().findFunding("Northgate Robotics")).toBeNull();
    // Mentioned in a fund's filing, but never the issuer.
    expect(await source().findFunding("Lumenfold")).toBeNull();
    expect(archivePaths()).toEqual([]);
    expect(await source().findFunding('  "" ')).toBeNull();
  });

  it("reports a rate-limited search with the wait it asked for", async () => {
    fake.setMode("rate_limited");
    const error = await failure(source().findFunding("Lumenfold Robotics"));
    expect(error).toMatchObject({ reason: "rate_limited", status: 429, retryAfterSeconds: 30 });
  });

  it("reports an unavailable search", async () => {
    fake.setMode("unavailable");
    const error = await failure(source().findFunding("Lumenfold Robotics"));
    expect(error).toMatchObject({ reason: "unavailable", status: 503 });
  });

  it("refuses a search answer of another shape", async () => {
    fake.setMode("unexpected_shape");
    const error = await failure(source().findFunding("Lumenfold Robotics"));
    expect(error.reason).toBe("invalid_body");
  });

  it("stops when the archive says to slow down instead of skipping the filing", async () => {
    const error = await failure(source().findFunding("Brightwater Instruments"));
    expect(error).toMatchObject({ reason: "rate_limited", status: 429, retryAfterSeconds: 30 });
  });

  it("fails, rather than answering null, when every matching filing is unreadable", async () => {
    // With one filing read at most, only the unreadable newest one is tried.
    const error = await failure(source({ maxFilings: 1 }).findFunding("Lumenfold Robotics"));
    expect(error.reason).toBe("unavailable");
  });

  it("is stopped by the caller's signal", async () => {
    const error = await failure(source().findFunding("Lumenfold Robotics", AbortSignal.abort()));
    expect(error.reason).toBe("aborted");
  });

  it("will not run without a contact address in the User-Agent", async () => {
    expect(() => source({ http: createOutboundClient({ allowLoopback: true }) })).toThrow(/contact/);
    // The fake, like the SEC, refuses undeclared tools.
    const anonymous = { userAgent: "anonymous@", request: createOutboundClient({ allowLoopback: true }).request };
    const error = await failure(source({ http: anonymous }).findFunding("Lumenfold Robotics"));
    expect(error).toMatchObject({ reason: "unauthorized", status: 403 });
  });
});
