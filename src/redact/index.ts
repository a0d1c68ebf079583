/**
 * PII redaction: field names matched by user patterns, run in QuickJS; the body is walked on
 * the host and only undecided names enter the sandbox.
 *
 * @module
 */
export { checkPatterns, MAX_PATTERN_LENGTH, MAX_PATTERNS, RedactionPatternError, type PatternProblem } from "./patterns.ts";
export { classifyNames, compileRedaction, NameDecisions, redact, REDACTED, Redactor, redactWith, type RedactorOptions } from "./redactor.ts";
