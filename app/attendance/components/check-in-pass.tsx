import type { PassView } from "~/attendance/check-in";

/**
 * A participant's pass for the door: their QR code (an SVG made on the server by qrSvg, from the
 * signed token) and the short code to say or type when the QR cannot be scanned. A pass that is
 * not valid yet (a payment treasury has not confirmed) is a greyed box that says why, with nothing
 * a door phone could scan.
 */
export function CheckInPass({ pass }: { pass: PassView }) {
  if (!pass.valid)
    return (
      <figure className="checkin-pass checkin-pass-not-valid">
        <div className="checkin-pass-qr checkin-pass-placeholder">
          <p>Tu código QR aparecerá aquí cuando tesorería confirme el pago.</p>
        </div>
        <figcaption>
          <strong>{pass.reason}</strong>
        </figcaption>
      </figure>
    );
  return (
    <figure className="checkin-pass">
      <div className="checkin-pass-qr" dangerouslySetInnerHTML={{ __html: pass.qr }} />
      <figcaption>
        Código: <strong className="checkin-pass-code">{pass.code}</strong>
      </figcaption>
    </figure>
  );
}
