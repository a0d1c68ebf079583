import { expect, test } from "bun:test";
import { localOnly, localOnlyNote, publicBaseUrl } from "./base_url.ts";
import { loadServerConfig } from "./load_server_config.ts";

test("loopback, localhost and wildcard base URLs are local only; others are not", () => {
  for (const url of [
    "http://127.0.0.1:8080",
    "http://127.1.2.3:1",
    "http://localhost:8080",
    "http://app.localhost",
    "http://[::1]:8080",
    "http://0.0.0.0:80",
    "http://[::]:80",
  ]) {
    expect(localOnly(url)).toBe(true);
  }
  for (const url of ["https://hooks.example.com", "http://192.168.1.5:8080", "http://[2001:db8::1]:8080", "http://128.0.0.1", "not a url"]) {
    expect(localOnly(url)).toBe(false);
  }
});

test("the start-up note names the URL and the setting, only when the URL was not chosen with --base-url", () => {
  const note = localOnlyNote("http://127.0.0.1:8080", false)!;
  expect(note).toContain("http://127.0.0.1:8080");
  expect(note).toContain("INLET_BASE_URL");
  expect(note).toContain("--base-url");
  expect(localOnlyNote("http://127.0.0.1:8080", true)).toBeNull();
  expect(localOnlyNote("https://hooks.example.com", false)).toBeNull();
});

test("a wildcard host gives trigger URLs on the loopback address of its family, never 0.0.0.0", () => {
  expect(publicBaseUrl(loadServerConfig(["--host", "0.0.0.0"], {}), 9000)).toBe("http://127.0.0.1:9000");
  expect(publicBaseUrl(loadServerConfig(["--host", "::"], {}), 9000)).toBe("http://[::1]:9000");
  expect(publicBaseUrl(loadServerConfig(["--host", "0.0.0.0", "--base-url", "https://h.example/"], {}), 9000)).toBe("https://h.example");
});
