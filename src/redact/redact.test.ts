import { describe, expect, test } from "bun:test";
import { Sandbox, SandboxError, SandboxMemory, SandboxTimeout } from "../sandbox/index.ts";
import { checkPatterns, classifyNames, compileRedaction, MAX_PATTERNS, NameDecisions, redact, REDACTED, RedactionPatternError, redactWith } from "./index.ts";
import { nested, thrown } from "../../test/support/values.ts";
import { parseJson } from "../json/index.ts";

describe("redact", () => {
  const pii = compileRedaction(["pass(word)?", "^email$", "token$", "^(card|cc)[_-]?(num|number)?$"]);

  test("replaces matching fields at every depth, inside arrays too", () => {
    const body = {
      email: "top@example.com",
      user: { Email: "a@b.c", profile: { password: "hunter2", name: "Ann" } },
      cards: [{ cc_num: "4242", brand: "visa" }, [{ CARD: "5555" }], "card"],
      deep: nested(200, { password: "x" }),
    };
    const out = redact(pii, body) as typeof body;
    expect(out.email).toBe(REDACTED);
    expect(out.user).toEqual({ Email: REDACTED, profile: { password: REDACTED, name: "Ann" } });
    expect(out.cards).toEqual([{ cc_num: REDACTED, brand: "visa" }, [{ CARD: REDACTED }], "card"]);
    expect(JSON.stringify(out.deep)).toBe(JSON.stringify(nested(200, { password: REDACTED })));
  });

  test("replaces values of every type, and never matches values or array indexes", () => {
    const body = {
      password: { nested: { object: true } },
      passwords: ["a", "b"],
      api_token: 12345,
      refreshToken: null,
      passport: false,
      note: "password email token",
      list: ["password", "email"],
      "0": "index-like name",
    };
    const numeric = compileRedaction(["^0$", "^1$"]);
    expect(redact(pii, body)).toEqual({
      password: REDACTED,
      passwords: REDACTED,
      api_token: REDACTED,
      refreshToken: REDACTED,
      passport: REDACTED, // "pass" is a substring
      note: "password email token",
      list: ["password", "email"],
      "0": "index-like name",
    });
    expect(redact(numeric, { list: ["a", "b"], "0": "named zero" })).toEqual({ list: ["a", "b"], "0": REDACTED });
  });

  test("patterns are case-insensitive and match substrings unless anchored", () => {
    const redactor = compileRedaction(["secret", "^id$"]);
    expect(redact(redactor, { MY_SECRET_KEY: 1, SecretSauce: 2, id: 3, ID: 4, user_id: 5, identity: 6 })).toEqual({
      MY_SECRET_KEY: REDACTED,
      SecretSauce: REDACTED,
      id: REDACTED,
      ID: REDACTED,
      user_id: 5,
      identity: 6,
    });
  });

  test("does not modify the body, keeps field order, and leaves non-objects alone", () => {
    const body = { a: 1, password: "x", b: { c: [1, 2] } };
    const copy = structuredClone(body);
    const out = redact(pii, body) as typeof body;
    expect(body).toEqual(copy);
    expect(Object.keys(out)).toEqual(["a", "password", "b"]);
    expect(out.b).toBe(body.b); // untouched subtrees are shared, not copied
    for (const value of ["password", 42, null, true, undefined]) expect(redact(pii, value)).toBe(value);
  });

  test('a field named "__proto__" is redacted as a field, not turned into a prototype', () => {
    const body = JSON.parse('{"__proto__": {"password": "x"}, "email": "e"}') as Record<string, unknown>;
    const out = redact(compileRedaction(["^email$"]), body) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__", "email"]);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"password":"x"},"email":"[REDACTED]"}');
    const proto = redact(compileRedaction(["proto"]), body) as Record<string, unknown>;
    expect(JSON.stringify(proto)).toBe('{"__proto__":"[REDACTED]","email":"e"}');
  });

  test("no patterns: the body passes as is", () => {
    const body = { password: "x" };
    expect(redact(compileRedaction([]), body)).toBe(body);
  });

  test("a catastrophic pattern ends at the deadline, fails closed, and the sandbox stays usable", () => {
    const evil = compileRedaction(["^(a+)+$"]);
    const started = performance.now();
    const error = thrown(() => redact(evil, { ["a".repeat(40) + "!"]: "secret", password: "x" }));
    expect(error).toBeInstanceOf(SandboxTimeout);
    expect(performance.now() - started).toBeLessThan(1000);
    // Other triggers, and the same one on harmless names, answer correctly afterwards.
    expect(redact(pii, { password: "x", ok: 1 })).toEqual({ password: REDACTED, ok: 1 });
    expect(redact(evil, { aaaa: 1, b: 2 })).toEqual({ aaaa: REDACTED, b: 2 });
  });

  test("a pattern that exhausts the sandbox's memory fails closed with SandboxMemory", async () => {
    const sandbox = await Sandbox.create({ memoryBytes: 8 * 1024 * 1024, deadlineMs: 5_000 });
    const redactor = compileRedaction(["^(a|b)*$"], { sandbox });
    const error = thrown(() => redact(redactor, { ["a".repeat(400_000)]: "secret" }));
    expect(error).toBeInstanceOf(SandboxMemory);
    expect(redact(redactor, { ab: 1, c: 2 })).toEqual({ ab: REDACTED, c: 2 });
  });

  test("nesting deeper than 256 is refused before anything enters the sandbox", () => {
    expect(JSON.stringify(redact(pii, nested(256, { password: 1 })))).toContain(REDACTED);
    const error = thrown(() => redact(pii, nested(257, { password: 1 })));
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).code).toBe("sandbox_too_deep");
    expect(thrown(() => redact(pii, [nested(257, 1)]))).toBeInstanceOf(SandboxError);
  });

  test("decisions are cached per redactor, bounded, and a decision evicted mid-call never lets a field through", () => {
    const redactor = compileRedaction(["^secret"], { maxCachedNames: 4 });
    const body: Record<string, number> = {};
    for (let i = 0; i < 10; i++) body[i % 2 ? `secret${i}` : `plain${i}`] = i;
    const expected = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, k.startsWith("secret") ? REDACTED : v]));
    expect(redact(redactor, body)).toEqual(expected);
    expect(redactor.cachedNames).toBe(4);
    expect(redact(redactor, body)).toEqual(expected);
    expect(redactor.cachedNames).toBe(4);
    // The cache is bounded in characters too.
    const wide = compileRedaction(["^secret"]);
    const wideBody = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`${i % 2 ? "secret" : "plain"}${"_".repeat(200)}${i}`, i]));
    const wideOut = redact(wide, wideBody) as Record<string, unknown>;
    expect(Object.entries(wideOut).every(([k, v]) => (k.startsWith("secret") ? v === REDACTED : v !== REDACTED))).toBe(true);
    expect(wide.cachedNames).toBeGreaterThan(100);
    expect(wide.cachedNames).toBeLessThanOrEqual(Math.floor(65_536 / 200));
    // Very long names are decided every time, never cached.
    const long = compileRedaction(["^secret"]);
    expect(redact(long, { ["secret" + "x".repeat(500)]: 1 })).toEqual({ ["secret" + "x".repeat(500)]: REDACTED });
    expect(long.cachedNames).toBe(0);
  });

  test("classifying names: a known name the same call evicts from the cache is still answered as decided", () => {
    // A worker's cache knows "email"; the request thread (whose own cache forgot it) asks about
    // it beside more new names than the worker's cache holds, so remembering them evicts "email".
    const redactor = compileRedaction(["^email$"], { maxCachedNames: 4 });
    expect(classifyNames(redactor, ["email"])).toBe("1");
    const names = ["email", "n1", "n2", "n3", "n4", "n5"];
    expect(classifyNames(redactor, names)).toBe("100000");
    // And through the request thread's walk: the field is redacted, and its decision cached as "1".
    const host = new NameDecisions(16);
    const body = Object.fromEntries(["email", "m1", "m2", "m3", "m4", "m5"].map((n) => [n, "x"]));
    classifyNames(redactor, ["email"]);
    return redactWith(host, body, async (asked) => classifyNames(redactor, asked)).then((out) => {
      expect((out as Record<string, unknown>).email).toBe(REDACTED);
      expect(host.get("email")).toBe(true);
    });
  });

  test("a warm body does not enter the sandbox", () => {
    const redactor = compileRedaction(["^password$"]);
    const body = { password: "x", user: { name: "n" } };
    redact(redactor, body);
    const calls: string[] = [];
    const original = redactor.sandbox.call.bind(redactor.sandbox);
    redactor.sandbox.call = (...args) => {
      calls.push(args[1]);
      return original(...args);
    };
    try {
      expect(redact(redactor, body)).toEqual({ password: REDACTED, user: { name: "n" } });
    } finally {
      redactor.sandbox.call = original;
    }
    expect(calls).toEqual([]);
  });

  test("patterns that refer to groups keep their meaning beside other patterns", () => {
    const redactor = compileRedaction(["^x", "^(ab)\\1$", "^(?<c>c)\\k<c>$", "(?<n>d)e", "(?<n>f)g"]);
    expect(redact(redactor, { abab: 1, ab: 2, cc: 3, c: 4, de: 5, fg: 6, xa: 7, ax: 8 })).toEqual({
      abab: REDACTED,
      ab: 2,
      cc: REDACTED,
      c: 4,
      de: REDACTED,
      fg: REDACTED,
      xa: REDACTED,
      ax: 8,
    });
  });

  test("field names with newlines, quotes and astral characters are classified one by one", () => {
    const redactor = compileRedaction(["^pass\\nword$", '"', "🔑"]);
    const body = { "pass\nword": 1, 'say "hi"': 2, "key🔑": 3, "pass word": 4, "\u0000": 5 };
    expect(redact(redactor, body)).toEqual({ "pass\nword": REDACTED, 'say "hi"': REDACTED, "key🔑": REDACTED, "pass word": 4, "\u0000": 5 });
  });
});

describe("redact: strings that hold JSON (an unredacted body is never stored)", () => {
  const pii = compileRedaction(["^email$", "card"]);

  test("a form field holding a JSON object (Slack's `payload`) is redacted inside and stays a string", () => {
    const payload = JSON.stringify({ type: "block_actions", user: { id: "U1", email: "jane@example.com" }, actions: [{ card_last4: "4242" }] });
    const out = redact(pii, { payload, token: "t" }) as Record<string, unknown>;
    expect(typeof out.payload).toBe("string");
    expect(JSON.parse(out.payload as string)).toEqual({ type: "block_actions", user: { id: "U1", email: REDACTED }, actions: [{ card_last4: REDACTED }] });
    expect(out.token).toBe("t");
  });

  test("a whole text body holding JSON (object or array) comes back as its redacted JSON text", () => {
    expect(redact(pii, '{"email":"a@b.c","n":1}')).toBe('{"email":"[REDACTED]","n":1}');
    expect(redact(pii, ' \n[{"Email":"a@b.c"},"x"]\t')).toBe('[{"Email":"[REDACTED]"},"x"]');
  });

  test("only a string in which something was redacted changes: others keep their exact text", () => {
    const kept = '{ "n": 1.50,  "id": 9007199254740993, "note": "email" }';
    const body = { kept, list: [kept], text: "plain words", bracketed: "[INFO] {started}", broken: '{"email": "a@b.c"', scalar: '"email"' };
    const out = redact(pii, body);
    expect(out).toBe(body);
    for (const text of [kept, "plain words", "[not json]", '{"email": 1', "{}", "[]"]) expect(redact(pii, text)).toBe(text);
  });

  test("JSON inside JSON inside a string is redacted at every level", () => {
    const inner = JSON.stringify({ email: "a@b.c" });
    const outer = JSON.stringify({ event: { body: inner } });
    const out = redact(pii, { payload: outer }) as { payload: string };
    const event = JSON.parse(out.payload) as { event: { body: string } };
    expect(JSON.parse(event.event.body)).toEqual({ email: REDACTED });
  });

  test("a string whose duplicate names shadow a value is stored as its parsed value: the shadowed one never stays", () => {
    const shadowing = '{"user":{"email":"a@b.c"},"user":{"name":"jane"}}';
    expect(redact(pii, { payload: shadowing })).toEqual({ payload: '{"user":{"name":"jane"}}' });
    expect(redact(pii, shadowing)).toBe('{"user":{"name":"jane"}}');
    // Colons inside strings are not members: such a text is kept as it is.
    const colons = '{"url":"http://x:80/a:b","t":"a\\":"}';
    expect(redact(pii, colons)).toBe(colons);
  });

  test("the nesting limit counts the levels inside a string as the body's", () => {
    // The payload field is level 1 and its string level 2, so 255 levels fit inside it.
    expect(redact(pii, { payload: JSON.stringify(nested(255, { email: 1 })) })).toEqual({ payload: JSON.stringify(nested(255, { email: REDACTED })) });
    const error = thrown(() => redact(pii, { payload: JSON.stringify(nested(256, { email: 1 })) }));
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).code).toBe("sandbox_too_deep");
  });

  test("through the request thread's walk (names classified elsewhere) the same", async () => {
    const asked: string[][] = [];
    const classify = async (names: string[]) => (asked.push(names), classifyNames(pii, names));
    const out = await redactWith(new NameDecisions(), { payload: '{"email":"a@b.c"}' }, classify);
    expect(out).toEqual({ payload: '{"email":"[REDACTED]"}' });
    expect(asked.flat().sort()).toEqual(["email", "payload"]);
    expect(await redactWith(new NameDecisions(), '[{"email":1}]', classify)).toBe('[{"email":"[REDACTED]"}]');
  });

  test("request headers: a header whose name matches has its value replaced, like a body field", () => {
    const headers = { "content-type": "text/plain", "x-customer-email": "jane@example.com", "x-card-token": "tok_1", "user-agent": "curl" };
    expect(redact(compileRedaction(["email", "^x-card"]), headers)).toEqual({
      "content-type": "text/plain",
      "x-customer-email": REDACTED,
      "x-card-token": REDACTED,
      "user-agent": "curl",
    });
  });
});

describe("redact: numbers a double cannot hold", () => {
  // "text" and "raw" would match: an ExactNumber's own fields are not fields of the body.
  const pii = compileRedaction(["^email$", "text", "raw"]);

  test("are kept exactly, as numbers: never walked into, never redacted but under a matching name", async () => {
    const body = parseJson('{"id":9007199254740993,"email":"a@b.c","list":[1e400],"raw":12345678901234567890}');
    const out = redact(pii, body);
    expect(JSON.stringify(out)).toBe('{"id":9007199254740993,"email":"[REDACTED]","list":[1e400],"raw":"[REDACTED]"}');
    expect(JSON.stringify(await redactWith(new NameDecisions(), body, async (names) => classifyNames(pii, names)))).toBe(JSON.stringify(out));
    const untouched = parseJson('{"id":9007199254740993}');
    expect(redact(pii, untouched)).toBe(untouched);
  });

  test("inside a string that holds JSON, are written back as they were when something there was redacted", () => {
    const payload = '{"email":"a@b.c","id":9007199254740993,"big":1e400,"long":0.1000000000000000055511151231257827}';
    expect(redact(pii, { payload })).toEqual({
      payload: '{"email":"[REDACTED]","id":9007199254740993,"big":1e400,"long":0.1000000000000000055511151231257827}',
    });
  });

  test("count as numbers, not as a level, for the nesting limit", () => {
    const deepest = parseJson(JSON.stringify(nested(255, [0])).replace("[0]", "[9007199254740993]"));
    expect(() => redact(compileRedaction(["^email$"]), deepest)).not.toThrow();
  });
});

describe("checkPatterns / compileRedaction", () => {
  test("names the pattern and says why", () => {
    const problems = checkPatterns(["^email$", "card(", "", "x".repeat(201), "[z-a]", "a**", 7]);
    expect(problems.map((p) => p.index)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(problems[0].message).toBe(`pattern "card(" is not a valid regular expression: expecting ')'`);
    expect(problems[1].message).toMatch(/empty/);
    expect(problems[2].message).toMatch(/201 characters long; at most 200/);
    expect(problems[3].message).toMatch(/"\[z-a\]" is not a valid regular expression: .*range/);
    expect(problems[4].message).toMatch(/"a\*\*" is not a valid regular expression: nothing to repeat/);
    expect(problems[5].message).toMatch(/must be a string/);
  });

  test("at most 50 patterns", () => {
    const many = Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => `field${i}`);
    expect(checkPatterns(many.slice(0, MAX_PATTERNS))).toEqual([]);
    expect(checkPatterns(many)).toEqual([{ index: MAX_PATTERNS, message: "too many patterns: at most 50 are allowed, got 51" }]);
  });

  test("accepts the syntax of JavaScript regular expressions", () => {
    expect(checkPatterns(["^(?<name>user)_?id$", "(?=x)y", "(a)\\1", "\\bssn\\b", "[\\p{L}]", "cvv|cvc", "x{2,3}"])).toEqual([]);
  });

  test("compileRedaction throws one error listing every problem", () => {
    const error = thrown(() => compileRedaction(["ok", "(", "?"]));
    expect(error).toBeInstanceOf(RedactionPatternError);
    expect((error as RedactionPatternError).problems.map((p) => p.index)).toEqual([1, 2]);
    expect((error as Error).message).toMatch(
      /^pattern 2: pattern "\(" is not a valid regular expression: .+; pattern 3: pattern "\?" is not a valid regular expression: nothing to repeat$/,
    );
  });
});
