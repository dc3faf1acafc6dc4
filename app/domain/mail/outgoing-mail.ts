export type OutgoingMail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Where a reply goes (a shopper's address on the shop's notifications); never has CR/LF. */
  replyTo?: string;
};
