// This folder is bundled into the QuickJS sandbox with the JSONPath engine: plain ES2023, nothing from the host.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";

const folder = new URL(".", import.meta.url);

test("module files import only siblings and use no Bun/Node APIs", () => {
  const sources = readdirSync(folder).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  expect(sources.length).toBeGreaterThan(3);
  for (const file of sources) {
    const code = readFileSync(new URL(file, folder), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    for (const [, specifier] of code.matchAll(/(?:import|export)[^;]*?from\s+"([^"]+)"/g)) {
      expect({ file, specifier, local: /^\.\/[a-z_]+\.ts$/.test(specifier) }).toEqual({ file, specifier, local: true });
    }
    expect({ file, hostApi: /\b(Bun|Buffer|process|require|globalThis)\b|"node:/.exec(code)?.[0] ?? null }).toEqual({ file, hostApi: null });
  }
});
