import { expect, test } from "bun:test";
import { ExactNumber } from "../json/index.ts";
import { InvalidMultipart, MAX_PARTS, parseMultipart, TooManyParts } from "./parse_multipart.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const TYPE = "multipart/form-data; boundary=XyZ";
const part = (headers: string, content: string) => `--XyZ\r\n${headers}\r\n\r\n${content}\r\n`;
const body = (...parts: string[]) => enc(parts.join("") + "--XyZ--\r\n");
const field = (name: string, value: string, type?: string) =>
  part(`Content-Disposition: form-data; name="${name}"${type ? `\r\nContent-Type: ${type}` : ""}`, value);

test("text fields become body fields (a repeated name an array); a JSON part is parsed, numbers exact", () => {
  const parsed = parseMultipart(
    body(
      field("a", "1"),
      field("tag", "x"),
      field("tag", "y"),
      field("payload", '{"id":9007199254740993,"n":[1]}', "application/json"),
      field("__proto__", "p"),
    ),
    TYPE,
  );
  expect(parsed.files).toEqual([]);
  expect(JSON.stringify(parsed.fields)).toBe('{"a":"1","tag":["x","y"],"payload":{"id":9007199254740993,"n":[1]},"__proto__":"p"}');
  expect((parsed.fields.payload as { id: unknown }).id).toEqual(new ExactNumber("9007199254740993"));
});

test("file parts are described (field, filename, type, size, sha256) in body order, their bytes not kept", () => {
  const jpeg = "\xff\xd8\xff binary \r\n--XyZ-not-a-boundary \x00";
  const raw = Buffer.concat([
    Buffer.from(field("payload", '{"event":"media.play"}', "application/json")),
    Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="thumb"; filename="a b.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'),
    Buffer.from(jpeg, "latin1"),
    Buffer.from("\r\n--XyZ\r\nContent-Disposition: form-data; name=\"doc\"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt\r\n\r\nhello\r\n--XyZ--"),
  ]);
  const parsed = parseMultipart(new Uint8Array(raw), TYPE);
  expect(parsed.fields).toEqual({ payload: { event: "media.play" } });
  expect(parsed.files).toEqual([
    {
      field: "thumb",
      filename: "a b.jpg",
      contentType: "image/jpeg",
      size: Buffer.from(jpeg, "latin1").length,
      sha256: new Bun.CryptoHasher("sha256").update(Buffer.from(jpeg, "latin1")).digest("hex"),
    },
    {
      field: "doc",
      filename: "résumé.txt",
      contentType: "application/octet-stream",
      size: 5,
      sha256: new Bun.CryptoHasher("sha256").update("hello").digest("hex"),
    },
  ]);
});

test("a preamble, a quoted boundary, padding after a delimiter and an epilogue are fine; a charset is honoured", () => {
  const raw = `preamble\r\n--a'b c\r\n${'Content-Disposition: form-data; name="x"\r\nContent-Type: text/plain; charset=iso-8859-1'}\r\n\r\ncaf\xe9\r\n--a'b c-- \r\nepilogue`;
  expect(parseMultipart(new Uint8Array(Buffer.from(raw, "latin1")), `multipart/form-data; boundary="a'b c"`).fields).toEqual({ x: "café" });
  expect(parseMultipart(enc("--XyZ--\r\n"), TYPE)).toEqual({ fields: {}, files: [] });
});

test("malformed bodies are InvalidMultipart, with a message that says what is wrong", () => {
  const cases: Array<[Uint8Array, string, string]> = [
    [body(field("a", "1")), "multipart/form-data", "names no boundary"],
    [enc("no parts at all"), TYPE, "never appears"],
    [enc(field("a", "1")), TYPE, "not ended by the boundary"],
    [enc('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n'), TYPE, "not ended by an empty line"],
    [body(part("Content-Type: text/plain", "x")), TYPE, "no Content-Disposition"],
    [body(part("Content-Disposition: form-data", "x")), TYPE, "names no field"],
    [body(field("j", "{nope", "application/json")), TYPE, "does not parse"],
    [new Uint8Array(Buffer.from(`--XyZ\r\nContent-Disposition: form-data; name="t"\r\n\r\n\xff\xfe\r\n--XyZ--`, "latin1")), TYPE, "not valid utf-8"],
    [enc("--XyZ garbage"), TYPE, "not followed by a line end"],
  ];
  for (const [bytes, type, message] of cases) {
    let error: unknown;
    try {
      parseMultipart(bytes, type);
    } catch (e) {
      error = e;
    }
    expect({ message, error: error instanceof InvalidMultipart, text: (error as Error)?.message?.toLowerCase().includes(message.toLowerCase()) }).toEqual({
      message,
      error: true,
      text: true,
    });
  }
});

test(`more than ${MAX_PARTS} parts is TooManyParts`, () => {
  const many = Array.from({ length: MAX_PARTS }, (_, i) => field(`f${i}`, "v"));
  expect(Object.keys(parseMultipart(body(...many), TYPE).fields)).toHaveLength(MAX_PARTS);
  expect(() => parseMultipart(body(...many, field("one-more", "v")), TYPE)).toThrow(TooManyParts);
});
