import { describe, expect, test } from "bun:test";
import { formatTimestamp, parseTimestamp, timestampText } from "./timestamp.ts";

describe("timestamp parsing", () => {
  test("keeps the text as sent, trimmed, when it is plain digits", () => {
    expect(timestampText(" 1700000000 ")).toBe("1700000000");
    for (const bad of ["", "1e9", "-1", "+1", "0x10", "1.5", "17000000000000000", "soon", null, undefined]) expect(timestampText(bad)).toBeNull();
  });

  test("reads seconds, milliseconds, either, and RFC 3339", () => {
    expect(parseTimestamp("1700000000")).toBe(1700000000);
    expect(parseTimestamp("1700000000123", "ms")).toBe(1700000000.123);
    expect(parseTimestamp("1700000000123", "s-or-ms")).toBe(1700000000.123);
    expect(parseTimestamp("1700000000", "s-or-ms")).toBe(1700000000);
    expect(parseTimestamp("2023-07-19T14:56:51.5Z", "rfc3339")).toBe(Date.UTC(2023, 6, 19, 14, 56, 51) / 1000 + 0.5);
    expect(parseTimestamp("1700000000", "rfc3339")).toBeNull();
  });

  test("writes now the way each unit reads it back", () => {
    const now = new Date(1700000000123);
    expect(formatTimestamp(now)).toBe("1700000000");
    expect(formatTimestamp(now, "ms")).toBe("1700000000123");
    expect(parseTimestamp(formatTimestamp(now, "rfc3339"), "rfc3339")).toBe(1700000000.123);
  });
});
