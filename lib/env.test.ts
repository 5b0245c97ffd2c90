import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

describe("parseEnv", () => {
  it("applies defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, HOST: "0.0.0.0", DATA_DIR: ".data", DATABASE_POOL_SIZE: 10 });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("treats an empty DATABASE_URL as unset, so the embedded database is used", () => {
    expect(parseEnv({ DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  });

  it("accepts postgres URLs and coerces numbers", () => {
    const env = parseEnv({ DATABASE_URL: "postgresql://u:p@db:5432/app", PORT: "8080", DATABASE_POOL_SIZE: "25" });
    expect(env).toMatchObject({ DATABASE_URL: "postgresql://u:p@db:5432/app", PORT: 8080, DATABASE_POOL_SIZE: 25 });
  });

  it("names every bad variable in one error", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://x", PORT: "eighty" })).toThrowError(
      /DATABASE_URL[\s\S]*PORT|PORT[\s\S]*DATABASE_URL/,
    );
  });

  it("reads collector settings: DNS servers, test-only loopback and port overrides", () => {
    const env = parseEnv({
      DNS_SERVERS: "127.0.0.1:5353, 9.9.9.9",
      OUTBOUND_ALLOW_LOOPBACK: "true",
      OUTBOUND_TEST_PORTS: "http=8080,https=8443",
    });
    expect(env).toMatchObject({
      DNS_SERVERS: ["127.0.0.1:5353", "9.9.9.9"],
      OUTBOUND_ALLOW_LOOPBACK: true,
      OUTBOUND_TEST_PORTS: { http: 8080, https: 8443 },
    });
    expect(parseEnv({})).toMatchObject({
      DNS_SERVERS: [],
      OUTBOUND_ALLOW_LOOPBACK: false,
      OUTBOUND_TEST_PORTS: {},
      SEC_EDGAR_ENABLED: true,
    });
  });

  it("serves ingest on the launcher's fast path unless INGEST_FAST_PATH turns it off", () => {
    expect(parseEnv({}).INGEST_FAST_PATH).toBe(true);
    expect(parseEnv({ INGEST_FAST_PATH: "" }).INGEST_FAST_PATH).toBe(true);
    expect(parseEnv({ INGEST_FAST_PATH: "false" }).INGEST_FAST_PATH).toBe(false);
    expect(parseEnv({ INGEST_FAST_PATH: "0" }).INGEST_FAST_PATH).toBe(false);
    expect(() => parseEnv({ INGEST_FAST_PATH: "off" })).toThrowError(/INGEST_FAST_PATH/);
  });

  it("reads HEAP_GROWING_PERCENT: 100 unless set, 0 for V8's own growth, whole percents up to 1000", () => {
    expect(parseEnv({}).HEAP_GROWING_PERCENT).toBe(100);
    expect(parseEnv({ HEAP_GROWING_PERCENT: "0" }).HEAP_GROWING_PERCENT).toBe(0);
    expect(parseEnv({ HEAP_GROWING_PERCENT: "50" }).HEAP_GROWING_PERCENT).toBe(50);
    for (const bad of ["-1", "1001", "1.5", "lots"])
      expect(() => parseEnv({ HEAP_GROWING_PERCENT: bad })).toThrowError(/HEAP_GROWING_PERCENT/);
  });

  it("refuses malformed port overrides and flags", () => {
    expect(() => parseEnv({ OUTBOUND_TEST_PORTS: "ftp=21" })).toThrowError(/OUTBOUND_TEST_PORTS/);
    expect(() => parseEnv({ OUTBOUND_ALLOW_LOOPBACK: "yes" })).toThrowError(/OUTBOUND_ALLOW_LOOPBACK/);
  });

  it("reads FORWARD_ALLOW_PRIVATE as public only, private and loopback, or a list of ranges", () => {
    for (const off of [undefined, "", "false", "0"])
      expect(parseEnv({ FORWARD_ALLOW_PRIVATE: off }).FORWARD_ALLOW_PRIVATE).toEqual({ private: false, ranges: [] });
    for (const on of ["true", "1"])
      expect(parseEnv({ FORWARD_ALLOW_PRIVATE: on }).FORWARD_ALLOW_PRIVATE).toEqual({ private: true, ranges: [] });
    expect(
      parseEnv({ FORWARD_ALLOW_PRIVATE: " 10.0.0.0/8, 127.0.0.1/32,fd00::/8 , 192.168.1.7, ::1" })
        .FORWARD_ALLOW_PRIVATE,
    ).toEqual({
      private: false,
      ranges: [
        ["10.0.0.0", 8],
        ["127.0.0.1", 32],
        ["fd00::", 8],
        ["192.168.1.7", 32],
        ["::1", 128],
      ],
    });
  });

  it.each([
    ["10.0.0.0/33", /"10.0.0.0\/33" has a prefix length that is not 0 to 32/],
    ["fd00::/129", /not 0 to 128/],
    ["10.0.0.0/8/1", /is not true, false or a CIDR range/],
    ["10.0.0/8", /is not true, false or a CIDR range/],
    ["yes", /"yes" is not true, false or a CIDR range/],
    ["10.0.0.0/-1", /prefix length/],
    ["10.0.0.0/", /prefix length/],
    ["::ffff:10.0.0.0/104", /IPv4-mapped IPv6 range: write it as IPv4/],
  ])("refuses FORWARD_ALLOW_PRIVATE=%s with a message naming the entry", (value, message) => {
    expect(() => parseEnv({ FORWARD_ALLOW_PRIVATE: value })).toThrowError(/FORWARD_ALLOW_PRIVATE/);
    expect(() => parseEnv({ FORWARD_ALLOW_PRIVATE: value })).toThrowError(message);
  });
});
