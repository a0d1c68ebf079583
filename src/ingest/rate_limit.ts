/**
 * A token bucket per trigger: `rate` requests per second with a burst of `rate`. Returns how
 * many milliseconds to wait (0 = go).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly rate: number) {}

  take(key: string, nowMs: number): number {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.rate, at: nowMs };
      this.buckets.set(key, bucket);
    }
    // A wall clock stepped back (NTP) refills nothing, rather than draining the bucket for as long as it went back.
    bucket.tokens = Math.min(this.rate, bucket.tokens + (Math.max(0, nowMs - bucket.at) / 1000) * this.rate);
    bucket.at = nowMs;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, ((1 - bucket.tokens) / this.rate) * 1000);
  }
}
