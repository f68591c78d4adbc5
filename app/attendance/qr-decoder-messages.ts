// What the check-in page and its QR decoder worker (qr-decoder.worker.ts) say to each other, and
// what either reader (the browser's detector or the worker) offers the page.

export interface QrReader {
  /** The QR code in the video's current frame, or null. */
  read(video: HTMLVideoElement): Promise<string | null>;
  close(): void;
}

export type DecoderRequest =
  | { type: "prepare" }
  /** A camera frame, its pixels handed over (transferred) to the worker. */
  | { type: "read"; id: number; image: ImageData };

export type DecoderReply =
  | { type: "ready" }
  | { type: "failed" }
  /** The frame's QR code, or null when it had none that could be read. */
  | { type: "read"; id: number; value: string | null };
