// Reads a QR code from a picture (a PNG screenshot) with the same decoder the check-in pages use
// (zxing-wasm, docs/decisions/040-qr-decoder.md), its WebAssembly read from node_modules: the
// package would fetch it from a CDN otherwise.
import fs from "node:fs";
import { createRequire } from "node:module";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";

const require = createRequire(import.meta.url);
let prepared = false;

/** The text of the QR code in `png`, or null when none is read. */
export async function decodeQr(png: Buffer): Promise<string | null> {
  if (!prepared) {
    const wasm = fs.readFileSync(require.resolve("zxing-wasm/reader/zxing_reader.wasm"));
    prepareZXingModule({
      overrides: {
        wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength),
      },
    });
    prepared = true;
  }
  const results = await readBarcodes(new Uint8Array(png), { formats: ["QRCode"], tryHarder: true });
  return results.find((result) => result.isValid && result.text)?.text ?? null;
}
