import { describe, expect, it } from "vitest";
import {
  addressKind,
  classifyAddress,
  forwardingAddressCheck,
  isAllowedAddress,
  isPublicAddress,
} from "@/lib/outbound/address-policy";

describe("classifyAddress", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "100.63.255.255", // just below 100.64/10
    "100.128.0.0", // just above it
    "172.15.255.255",
    "172.32.0.0",
    "192.0.1.1",
    "192.169.0.1",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1", // 6to4 of 8.8.8.8
  ])("%s is public", (ip) => {
    expect(classifyAddress(ip)).toBe("public");
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "127.0.0.2",
    "::1",
    "0:0:0:0:0:0:0:1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "[::1]",
  ])("%s is loopback", (ip) => {
    expect(classifyAddress(ip)).toBe("loopback");
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "10.255.255.255",
    "100.64.0.1",
    "100.127.255.255",
    "169.254.169.254", // cloud metadata
    "169.254.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::ffff:0.0.0.0",
    "::10.0.0.1", // IPv4-compatible
    "::169.254.169.254",
    "64:ff9b::127.0.0.1", // NAT64 of loopback is not our loopback
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::1",
    "100::1",
    "2001::1", // Teredo
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001:db8::1",
    "2001:db8:ffff::",
    "2002:7f00:1::", // 6to4 of 127.0.0.1
    "2002:a00:1::1", // 6to4 of 10.0.0.1
    "2002:a9fe:a9fe::",
    "fc00::1",
    "fd00::1",
    "fd00:ec2::254", // AWS metadata over IPv6
    "fe80::1",
    "febf:ffff::1",
    "fec0::1",
    "ff02::1",
    "ff00::",
    "fe80::1%eth0",
    "not-an-ip",
    "",
    "1.2.3",
    "256.1.1.1",
  ])("%s is blocked", (ip) => {
    expect(classifyAddress(ip)).toBe("blocked");
    expect(isPublicAddress(ip)).toBe(false);
  });
});

describe("isAllowedAddress", () => {
  it("allows loopback only when asked, and nothing else private", () => {
    expect(isAllowedAddress("127.0.0.1")).toBe(false);
    expect(isAllowedAddress("127.0.0.1", { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress("::1", { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress("10.0.0.1", { allowLoopback: true })).toBe(false);
    expect(isAllowedAddress("169.254.169.254", { allowLoopback: true })).toBe(false);
    expect(isAllowedAddress("0.0.0.0", { allowLoopback: true })).toBe(false);
    expect(isAllowedAddress("fe80::1", { allowLoopback: true })).toBe(false);
    expect(isAllowedAddress("8.8.8.8")).toBe(true);
  });
});

describe("addressKind", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["::ffff:8.8.8.8", "public"],
    ["127.0.0.1", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.0.1", "private"],
    ["100.64.0.1", "private"],
    ["fd12:3456::1", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["169.254.169.254", "link_local"],
    ["::ffff:169.254.169.254", "link_local"],
    ["100.100.100.200", "link_local"], // Alibaba metadata, inside carrier-grade NAT space
    ["fe80::1", "link_local"],
    ["fd00:ec2::254", "link_local"], // AWS metadata, inside unique local space
    ["64:ff9b::a9fe:a9fe", "link_local"], // NAT64 to the translator's metadata service
    ["64:ff9b::127.0.0.1", "reserved"],
    ["0.0.0.0", "reserved"],
    ["224.0.0.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["not-an-ip", "reserved"],
  ])("%s is %s", (ip, kind) => {
    expect(addressKind(ip)).toBe(kind);
  });
});

describe("forwardingAddressCheck", () => {
  const publicOnly = forwardingAddressCheck({ private: false, ranges: [] });
  const allowPrivate = forwardingAddressCheck({ private: true, ranges: [] });

  it("allows public addresses only by default", () => {
    for (const ip of ["8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) expect(publicOnly(ip)).toBe(true);
    for (const ip of ["127.0.0.1", "::1", "10.0.0.1", "192.168.1.1", "fd00::1", "::ffff:127.0.0.1", "::ffff:a00:1"])
      expect(publicOnly(ip)).toBe(false);
  });

  it("opens private and loopback with `private`, but not link-local, metadata or reserved space", () => {
    for (const ip of ["127.0.0.1", "::1", "10.0.0.1", "172.20.0.5", "192.168.1.1", "100.64.0.1", "fd00::1"])
      expect(allowPrivate(ip)).toBe(true);
    for (const ip of [
      "169.254.169.254",
      "::ffff:169.254.169.254",
      "100.100.100.200",
      "fe80::1",
      "fd00:ec2::254",
      "0.0.0.0",
      "224.0.0.1",
    ])
      expect(allowPrivate(ip)).toBe(false);
  });

  it("opens exactly the listed ranges, IPv4-mapped addresses matched as IPv4", () => {
    const check = forwardingAddressCheck({
      private: false,
      ranges: [
        ["10.0.0.0", 8],
        ["127.0.0.1", 32],
        ["fd00:1::", 32],
      ],
    });
    for (const ip of ["10.255.0.1", "127.0.0.1", "::ffff:127.0.0.1", "::ffff:a00:1", "fd00:1::5", "8.8.8.8"])
      expect(check(ip)).toBe(true);
    for (const ip of ["127.0.0.2", "::1", "172.16.0.1", "192.168.1.1", "fd00:2::5", "169.254.169.254"])
      expect(check(ip)).toBe(false);
  });

  it("opens link-local and metadata addresses only through a range inside them, not a broad one", () => {
    const broad = forwardingAddressCheck({
      private: true,
      ranges: [
        ["0.0.0.0", 0],
        ["::", 0],
        ["100.64.0.0", 10],
        ["fd00::", 8],
      ],
    });
    for (const ip of ["169.254.169.254", "100.100.100.200", "fe80::1", "fd00:ec2::254", "::ffff:169.254.169.254"])
      expect(broad(ip)).toBe(false);
    expect(broad("0.0.0.0")).toBe(true); // reserved space a listed range covers is the operator's choice

    const named = forwardingAddressCheck({
      private: false,
      ranges: [
        ["169.254.169.254", 32],
        ["fe80::", 10],
        ["fd00:ec2::254", 128],
      ],
    });
    for (const ip of ["169.254.169.254", "::ffff:169.254.169.254", "fe80::abcd", "fd00:ec2::254"])
      expect(named(ip)).toBe(true);
    for (const ip of ["169.254.169.253", "100.100.100.200", "fd00:ec2::253"]) expect(named(ip)).toBe(false);
  });
});
