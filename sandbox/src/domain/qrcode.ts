/**
 * QR code images of BR Codes: PNG, base64-encoded (qrcode package, with its defaults: error
 * correction level M, scale 4 and the standard quiet zone of four modules).
 */
import QRCode from "qrcode";

export async function qrCodePngBase64(text: string): Promise<string> {
  const png = await QRCode.toBuffer(text);
  return png.toString("base64");
}
