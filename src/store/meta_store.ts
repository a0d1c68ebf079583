/** Values of the store itself, by key (the admin token's hash, the secret key's fingerprint, the last base URL). */
export interface MetaStore {
  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;
  /** Sets `key` only if it has none yet; resolves with the value that holds (instances may race to create one). */
  setMetaIfAbsent(key: string, value: string): Promise<string>;
}
