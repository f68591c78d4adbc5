import { useCallback, useEffect, useRef, useState } from "react";
import { cameraScanningPossible, openQrReader, type QrReader } from "~/attendance/qr-reader";

/** How often a frame is looked at, and how long the same code is ignored after it was read. */
const SCAN_EVERY_MS = 250;
const SAME_CODE_PAUSE_MS = 3000;

/**
 * Reads QR codes with the camera: with the browser's BarcodeDetector where it has one, with the
 * site's WebAssembly decoder in a worker elsewhere (app/attendance/qr-reader.ts). The decoder is
 * loaded as the page opens, so that it is ready (and kept for offline use) before the first pass.
 * The code can always be typed. The camera stops when the person stops it, leaves the page or
 * switches away from it.
 */
export function QrScanner({ onCode }: { onCode: (value: string) => void }) {
  const [support, setSupport] = useState<"unknown" | "yes" | "no">("unknown");
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const timer = useRef<number | null>(null);
  const reader = useRef<Promise<QrReader> | null>(null);
  const last = useRef<{ value: string; at: number } | null>(null);
  const handler = useRef(onCode);
  handler.current = onCode;

  useEffect(() => {
    if (!cameraScanningPossible()) return setSupport("no");
    const opening = openQrReader();
    reader.current = opening;
    opening.then(
      () => setSupport("yes"),
      () => setSupport("no"),
    );
    return () => {
      reader.current = null;
      void opening.then((open) => open.close()).catch(() => {});
    };
  }, []);

  const stop = useCallback(() => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
    if (video.current) video.current.srcObject = null;
    setRunning(false);
  }, []);

  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === "hidden") stop();
    };
    document.addEventListener("visibilitychange", hidden);
    window.addEventListener("pagehide", stop);
    return () => {
      document.removeEventListener("visibilitychange", hidden);
      window.removeEventListener("pagehide", stop);
      stop();
    };
  }, [stop]);

  async function start() {
    if (!reader.current || !video.current) return;
    setProblem(null);
    try {
      const media = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: "environment" } },
        audio: false,
      });
      stream.current = media;
      video.current.srcObject = media;
      await video.current.play();
      setRunning(true);
      const decoder = await reader.current;
      const look = async () => {
        if (!stream.current || !video.current) return;
        try {
          const value = await decoder.read(video.current);
          const now = Date.now();
          if (
            value &&
            stream.current &&
            (last.current?.value !== value || now - last.current.at > SAME_CODE_PAUSE_MS)
          ) {
            last.current = { value, at: now };
            handler.current(value);
          }
        } catch {
          // A frame that could not be read; the next one may be.
        }
        if (stream.current) timer.current = window.setTimeout(look, SCAN_EVERY_MS);
      };
      void look();
    } catch (error) {
      stop();
      setProblem(
        error instanceof DOMException && error.name === "NotAllowedError"
          ? "No hay permiso para usar la cámara. Puedes escribir el código de la persona."
          : "No se pudo abrir la cámara. Puedes escribir el código de la persona.",
      );
    }
  }

  if (support === "no") {
    return (
      <p className="muted admin-checkin-camera-note">
        Este navegador no puede leer códigos QR con la cámara: escribe el código de la persona.
      </p>
    );
  }
  return (
    <div className="admin-checkin-camera">
      <video
        ref={video}
        className="admin-checkin-video"
        hidden={!running}
        muted
        playsInline
        aria-label="Imagen de la cámara"
      />
      {running ? (
        <button
          type="button"
          className="button button-secondary button-small admin-checkin-stop"
          onClick={stop}
        >
          Detener la cámara
        </button>
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => void start()}
          disabled={support !== "yes"}
        >
          Escanear con la cámara
        </button>
      )}
      {problem ? <p role="alert">{problem}</p> : null}
    </div>
  );
}
