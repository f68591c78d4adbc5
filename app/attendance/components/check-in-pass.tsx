/**
 * A participant's pass for the door: their QR code (an SVG made on the server by qrSvg, from the
 * signed token) and the short code to say or type when the QR cannot be scanned.
 */
export function CheckInPass({ qr, code }: { qr: string; code: string }) {
  return (
    <figure className="checkin-pass">
      <div className="checkin-pass-qr" dangerouslySetInnerHTML={{ __html: qr }} />
      <figcaption>
        Código: <strong className="checkin-pass-code">{code}</strong>
      </figcaption>
    </figure>
  );
}
