export type OutgoingMail = { to: string; subject: string; html: string; text: string };
