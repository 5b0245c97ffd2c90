import { describe, expect, it } from "vitest";
import { parseDollars } from "./money";

describe("parseDollars", () => {
  it.each([
    ["12.34", 1234],
    ["12", 1200],
    ["12.3", 1230],
    ["12.", 1200],
    [".5", 50],
    ["0.01", 1],
    ["0.29", 29],
    [" $1,234.56 ", 123456],
    ["$ 7", 700],
    ["100000", 10_000_000],
  ])("reads %j as %i cents", (text, cents) => {
    expect(parseDollars(text)).toEqual({ cents });
  });

  it.each([
    ["", "Enter an amount, like 12.34."],
    ["   ", "Enter an amount, like 12.34."],
    ["abc", "Enter an amount in dollars and cents, like 12.34."],
    ["-5", "Enter an amount in dollars and cents, like 12.34."],
    ["1e3", "Enter an amount in dollars and cents, like 12.34."],
    ["12,34", "Enter an amount in dollars and cents, like 12.34."],
    ["1,2345", "Enter an amount in dollars and cents, like 12.34."],
    [".", "Enter an amount in dollars and cents, like 12.34."],
    ["12.345", "Use at most two decimals: the smallest amount is one cent."],
    ["0", "Enter at least 0.01."],
    ["0.00", "Enter at least 0.01."],
    ["9".repeat(20), "That amount is too large."],
  ])("refuses %j", (text, error) => {
    expect(parseDollars(text)).toEqual({ error });
  });
});
