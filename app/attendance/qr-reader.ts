// Reading QR codes from the camera's video, in the browser. Where the browser has BarcodeDetector
// (Chromium on Android, ChromeOS and macOS; Safari 17+ on macOS) it is used; elsewhere (iOS Safari,
// Firefox, Chromium on Linux) a WebAssembly decoder in a worker does it (qr-worker-reader.ts),
// loaded only when a check-in page asks for it (docs/decisions/040-qr-decoder.md).

import type { QrReader } from "./qr-decoder-messages";

export type { QrReader };

// The browser's BarcodeDetector, not yet in TypeScript's DOM types.
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
}

/** Whether this browser can read QR codes with the camera at all. */
export function cameraScanningPossible(): boolean {
  if (typeof navigator.mediaDevices?.getUserMedia !== "function") return false;
  const detector = (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector;
  return (
    detector !== undefined || (typeof WebAssembly === "object" && typeof Worker === "function")
  );
}

async function nativeReader(): Promise<QrReader | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  const formats = await (Detector.getSupportedFormats?.() ?? Promise.resolve(["qr_code"])).catch(
    () => [] as string[],
  );
  if (!formats.includes("qr_code")) return null;
  const detector = new Detector({ formats: ["qr_code"] });
  return {
    async read(video) {
      const [code] = await detector.detect(video);
      return code?.rawValue || null;
    },
    close() {},
  };
}

/** The browser's own detector where it reads QR codes, the WebAssembly decoder otherwise. */
export async function openQrReader(): Promise<QrReader> {
  const native = await nativeReader();
  if (native) return native;
  const { openWorkerReader } = await import("./qr-worker-reader");
  return openWorkerReader();
}
