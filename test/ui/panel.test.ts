import { describe, expect, test } from "bun:test";
import { panelRoutes } from "../../src/ui/routes.ts";

const app = panelRoutes();
const get = (path: string) => app.handle(new Request(`http://inlet.test${path}`));

describe("the web panel's routes", () => {
  test("serve the page at / without authentication, with a strict content security policy", async () => {
    const response = await get("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("content-security-policy")).toContain("connect-src 'self'");
    const html = await response.text();
    expect(html).toMatch(/<script type="module" src="\/ui\/app\.js\?v=\w+"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/ui\/app\.css\?v=\w+">/);
  });

  test("serve the bundled client script and stylesheet, embedded at build time", async () => {
    const script = await get("/ui/app.js");
    expect(script.headers.get("content-type")).toStartWith("text/javascript");
    const js = await script.text();
    // Bundled: no imports left for the browser to resolve, and the contract's names are in it.
    expect(js).not.toMatch(/^import /m);
    for (const name of [
      "Admin token",
      "Sign in",
      "New trigger",
      "Authentication Type",
      "Curl Command",
      "Window (seconds)",
      "Pre-Execution Filter",
      "PII Redaction",
      "Field patterns",
    ]) {
      expect(js).toContain(name);
    }
    const css = await get("/ui/app.css");
    expect(css.headers.get("content-type")).toStartWith("text/css");
    expect(await css.text()).toContain(":focus-visible");
  });

  test("reference nothing on another origin (no CDN, no web fonts)", async () => {
    const bodies = await Promise.all(["/", "/ui/app.js", "/ui/app.css"].map(async (p) => (await get(p)).text()));
    // The only absolute URL allowed is the SVG namespace, which is a name, not a request.
    const urls = bodies.flatMap((b) => b.match(/https?:\/\/[^\s"'`)]+/g) ?? []).filter((u) => u !== "http://www.w3.org/2000/svg");
    expect(urls).toEqual([]);
    expect(bodies[2]).not.toContain("@import");
    expect(bodies[2]).not.toContain("@font-face");
  });
});
