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
  /** Small text attachments (a calendar invitation); handed to nodemailer as they are. */
  attachments?: { filename: string; content: string; contentType: string }[];
};
