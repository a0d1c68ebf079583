// Exact arithmetic-free comparison of JSON numbers, by their decimal digits.
import { ExactNumber } from "./exact_number.ts";

/** A finite decimal: `0.<digits> × 10^point`, digits without leading or trailing zeros ("" is zero). */
interface Decimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly point: number;
}

const ZERO: Decimal = { negative: false, digits: "", point: 0 };

/** The decimal a JSON number text (or a JavaScript number's text, `1e+21`) writes. */
function decimalOf(text: string): Decimal {
  const negative = text.charCodeAt(0) === 0x2d;
  let end = text.length;
  let exponent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i) | 0x20;
    if (c === 0x65) {
      end = i;
      exponent = Number(text.slice(i + 1));
      break;
    }
  }
  const mantissa = text.slice(negative ? 1 : 0, end);
  const dot = mantissa.indexOf(".");
  const whole = dot === -1 ? mantissa : mantissa.slice(0, dot);
  const all = dot === -1 ? mantissa : whole + mantissa.slice(dot + 1);
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === 0x30) first++;
  let last = all.length;
  while (last > first && all.charCodeAt(last - 1) === 0x30) last--;
  if (first === last) return ZERO;
  return { negative, digits: all.slice(first, last), point: whole.length - first + exponent };
}

function sign(d: Decimal): number {
  return d.digits === "" ? 0 : d.negative ? -1 : 1;
}

function compareDecimals(a: Decimal, b: Decimal): number {
  const sa = sign(a);
  const sb = sign(b);
  if (sa !== sb || sa === 0) return sa < sb ? -1 : sa > sb ? 1 : 0;
  // Same sign, both non-zero: the magnitude with the higher leading digit position is larger; at
  // the same position, digit strings compare as written (a prefix is the smaller).
  const magnitude = a.point !== b.point ? (a.point < b.point ? -1 : 1) : a.digits < b.digits ? -1 : a.digits > b.digits ? 1 : 0;
  return sa * magnitude;
}

/**
 * Whether the number `text` writes is exactly `value` as JavaScript writes it: then the double
 * stands for the text (`1.50` is 1.5), else the text must be kept (see `ExactNumber`).
 */
export function isExactDouble(text: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const shortest = String(value);
  return shortest === text || compareDecimals(decimalOf(text), decimalOf(shortest)) === 0;
}

/** A JSON number text as a value: a plain number when a double holds it exactly, else an ExactNumber. */
export function jsonNumber(text: string): number | ExactNumber {
  const value = Number(text);
  return isExactDouble(text, value) ? value : new ExactNumber(text);
}

/** Whether `value` is a JSON number: a plain number or an ExactNumber. */
export function isJsonNumber(value: unknown): value is number | ExactNumber {
  return typeof value === "number" || value instanceof ExactNumber;
}

/**
 * Orders two JSON numbers by their exact values (negative, zero, positive as `a` is less, equal,
 * greater). Two plain numbers compare as doubles; with an ExactNumber, by decimal digits, so
 * 9007199254740993 is greater than 9007199254740992 and 0.1 differs from
 * 0.1000000000000000055511151231257827.
 */
export function compareNumbers(a: number | ExactNumber, b: number | ExactNumber): number {
  // Two doubles, or a non-finite double (none comes from JSON, but a caller may hold one): by value.
  if ((typeof a === "number" && (typeof b === "number" || !Number.isFinite(a))) || (typeof b === "number" && !Number.isFinite(b))) {
    const x = Number(a);
    const y = Number(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return compareDecimals(decimalOf(String(a)), decimalOf(String(b)));
}

/**
 * A JSON number's canonical text: the way JavaScript writes a number (`Number.prototype.toString`),
 * with every digit of an ExactNumber. Equal values give the same text and different values
 * different texts, so the text can be a key: `9007199254740993`, `1e+400`,
 * `0.1000000000000000055511151231257827`; a plain number gives `String(value)`.
 */
export function numberText(value: number | ExactNumber): string {
  if (typeof value === "number") return String(value);
  const { negative, digits, point } = decimalOf(value.text);
  if (digits === "") return "0";
  const k = digits.length;
  let text: string;
  if (k <= point && point <= 21) text = digits + "0".repeat(point - k);
  else if (0 < point && point <= 21) text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  else if (-6 < point && point <= 0) text = `0.${"0".repeat(-point)}${digits}`;
  else {
    const e = point - 1;
    text = `${digits[0]}${k > 1 ? `.${digits.slice(1)}` : ""}e${e < 0 ? "-" : "+"}${Math.abs(e)}`;
  }
  return negative ? `-${text}` : text;
}
