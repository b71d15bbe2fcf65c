/** QR code images of BR Codes: PNG, base64-encoded (qrcode package). */
import QRCode from "qrcode";

export async function qrCodePngBase64(text: string): Promise<string> {
  const png = await QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 2, scale: 4 });
  return png.toString("base64");
}
