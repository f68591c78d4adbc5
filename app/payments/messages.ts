// The payments' messages (decision 048): the site's way to be paid, set at /tesoreria.
export const PAYMENT_MESSAGES = {
  paymentMethodSaved: "Datos de pago guardados.",
  paymentQrSaved: "QR del banco guardado.",
  paymentQrRemoved: "QR del banco quitado.",
  paymentConfirmed: "Pago confirmado.",
  paymentRefused: "Pago rechazado: la persona verá el motivo.",
  paymentWaived: "Beca registrada: esa persona no tiene que pagar.",
  paymentRefunded: "Reembolso registrado.",
  seenMissing:
    "El formulario no dice en qué estado viste el pago. Vuelve a cargar la página y decide de nuevo.",
  receiptReceived: "Recibimos tu pago: tesorería lo revisará y te avisará por correo.",
} as const;
