export type OutgoingMail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Where a reply goes (a shopper's address on the shop's notifications); never has CR/LF. */
  replyTo?: string;
  /** Small text attachments (a calendar invitation); handed to nodemailer as they are. */
  attachments?: { filename: string; content: string; contentType: string }[];
};
