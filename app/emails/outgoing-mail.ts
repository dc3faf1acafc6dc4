export type OutgoingMail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Where a reply goes (a shopper's address on the shop's notifications); never has CR/LF. */
  replyTo?: string;
  /**
   * Extra header lines, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) on alerts;
   * values are the shop's own, never a visitor's text.
   */
  headers?: Record<string, string>;
  /**
   * Small attachments (a calendar invitation, a QR code), handed to nodemailer as they are: an
   * image with a `cid` is shown inside the message (`<img src="cid:…">`); binary content is
   * carried as base64 text (`encoding`), as the queue keeps messages as JSON.
   */
  attachments?: {
    filename: string;
    content: string;
    contentType: string;
    cid?: string;
    encoding?: "base64";
  }[];
};
