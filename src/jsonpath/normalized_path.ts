// RFC 9535 §2.7 normalized paths: `$['name'][0]`, names in single quotes with minimal escaping.

const SHORT_ESCAPES: Record<number, string> = {
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0c: "\\f",
  0x0d: "\\r",
  0x27: "\\'",
  0x5c: "\\\\",
};

export function nameSegment(name: string): string {
  let out = "['";
  let chunk = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x20 && c !== 0x27 && c !== 0x5c) continue;
    out += name.slice(chunk, i) + (SHORT_ESCAPES[c] ?? "\\u00" + c.toString(16).padStart(2, "0"));
    chunk = i + 1;
  }
  return out + name.slice(chunk) + "']";
}

export function indexSegment(index: number): string {
  return "[" + index + "]";
}
