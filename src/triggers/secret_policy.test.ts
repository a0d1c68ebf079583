import { expect, test } from "bun:test";
import { context, plugins } from "../triggers_as_code/testdata/context.ts";
import { normalizeTrigger } from "./normalize.ts";
import { needsGeneratedSecret } from "./secret_policy.ts";

const needs = (input: Record<string, unknown>) => needsGeneratedSecret(normalizeTrigger({ name: "t", ...input }, context), plugins);

test("a generated secret: generic shared-secret modes and apps whose plugin generates one; not none, a public-key JWT or a pasted app secret", () => {
  expect(needs({})).toBe(false);
  for (const type of ["bearer", "header", "basic", "hmac-sha256", "hmac-sha512"])
    expect({
      type,
      needs: needs({ auth: { type, ...(type === "header" ? { headerName: "X-Key" } : {}), ...(type === "basic" ? { username: "u" } : {}) } }),
    }).toEqual({ type, needs: true });
  expect(needs({ auth: { type: "jwt", jwt: { algorithms: ["HS256"] } } })).toBe(true);
  expect(needs({ auth: { type: "jwt", jwt: { algorithms: ["RS256"], jwksUrl: "https://id.example/jwks.json" } } })).toBe(false);
  expect(needs({ app: "github" })).toBe(true);
  expect(needs({ app: "stripe" })).toBe(false);
});
