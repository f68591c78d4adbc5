// The QR decoder for browsers without BarcodeDetector (iOS Safari, Firefox, Debian's Chromium):
// ZXing-C++ compiled to WebAssembly (zxing-wasm), run in this worker so that decoding never holds
// up the page. The .wasm file is one of the site's own built files: zxing-wasm would fetch it from
// a CDN by default, which the site never does (docs/decisions/040-qr-decoder.md).
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";
import type { DecoderReply, DecoderRequest } from "./qr-decoder-messages";

prepareZXingModule({
  overrides: {
    locateFile: (file: string, prefix: string) =>
      file.endsWith(".wasm") ? wasmUrl : prefix + file,
  },
});

// The worker's global scope, typed here: the project's TypeScript library is the page's (DOM).
const scope = self as unknown as {
  onmessage: ((message: MessageEvent<DecoderRequest>) => void) | null;
  postMessage(reply: DecoderReply): void;
};

scope.onmessage = ({ data: request }) => {
  if (request.type === "prepare") {
    prepareZXingModule({ fireImmediately: true }).then(
      () => scope.postMessage({ type: "ready" }),
      () => scope.postMessage({ type: "failed" }),
    );
    return;
  }
  readBarcodes(request.image, { formats: ["QRCode"], tryHarder: true, maxNumberOfSymbols: 1 })
    .then((results) => {
      const found = results.find((result) => result.isValid && result.text);
      scope.postMessage({ type: "read", id: request.id, value: found?.text ?? null });
    })
    .catch(() => scope.postMessage({ type: "read", id: request.id, value: null }));
};
