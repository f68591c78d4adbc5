// The WebAssembly QR decoder's side on the page: it copies a frame of the camera's video into
// pixels and hands them to the decoder's worker (qr-decoder.worker.ts), which answers with the
// code it found. Imported only by openQrReader, so that no page but a check-in page loads it.
import type { DecoderReply, DecoderRequest, QrReader } from "./qr-decoder-messages";

/**
 * Frames are scaled down to this many pixels on their longer side: a pass held in front of a
 * phone fills a good part of the picture, and a smaller frame is decoded several times faster.
 */
const FRAME_MAX_SIDE = 720;

export async function openWorkerReader(): Promise<QrReader> {
  const worker = new Worker(new URL("./qr-decoder.worker.ts", import.meta.url), {
    type: "module",
    name: "lector-qr",
  });
  const post = (request: DecoderRequest, transfer: Transferable[] = []) =>
    worker.postMessage(request, transfer);
  const waiting = new Map<number, (value: string | null) => void>();
  let nextId = 0;
  let ready: (ok: boolean) => void = () => {};
  const prepared = new Promise<boolean>((resolve) => (ready = resolve));
  worker.onmessage = ({ data: reply }: MessageEvent<DecoderReply>) => {
    if (reply.type === "read") {
      waiting.get(reply.id)?.(reply.value);
      waiting.delete(reply.id);
    } else ready(reply.type === "ready");
  };
  worker.onerror = () => ready(false);
  post({ type: "prepare" });
  if (!(await prepared)) {
    worker.terminate();
    throw new Error("El lector de códigos QR no se pudo cargar.");
  }

  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) {
    worker.terminate();
    throw new Error("El navegador no puede copiar la imagen de la cámara.");
  }
  return {
    read(video) {
      const { videoWidth: width, videoHeight: height } = video;
      if (!width || !height) return Promise.resolve(null);
      const scale = Math.min(1, FRAME_MAX_SIDE / Math.max(width, height));
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        post({ type: "read", id, image }, [image.data.buffer]);
      });
    },
    close() {
      worker.terminate();
      for (const resolve of waiting.values()) resolve(null);
      waiting.clear();
    },
  };
}
