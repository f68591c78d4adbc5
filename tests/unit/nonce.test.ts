// The CSP nonce: drawn from the CSPRNG in batches, and still never the same twice.
import { expect, test } from "vitest";
import { freshNonce } from "#server/http/security.server";

test("every nonce is 16 fresh bytes, across many refills of the batch", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const nonce = freshNonce();
    expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    seen.add(nonce);
  }
  expect(seen.size).toBe(5000);
});
