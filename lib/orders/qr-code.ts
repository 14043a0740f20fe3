import "server-only";
import QRCode from "qrcode";

/** An SVG QR code of the text; error correction M (15 %) keeps it small enough to scan off a phone screen. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
