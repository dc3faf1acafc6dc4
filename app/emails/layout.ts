import { SHOP, SHOP_ADDRESS } from "#app/lib/site.ts";

export type EmailContent = {
  subject: string;
  /** Shown by mail clients next to the subject. */
  preview: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** An image attached to the message with this Content-ID, shown after the paragraphs. */
  image?: { cid: string; alt: string; size: number };
  /** Small print under the action, e.g. why the message was sent. */
  note?: string;
};

export type RenderedEmail = { subject: string; html: string; text: string };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** One layout for every message: the shop's name on top, its address at the bottom. */
export function renderEmail(content: EmailContent): RenderedEmail {
  const paragraphs = content.paragraphs
    .map((text) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(text)}</p>`)
    .join("");
  const image = content.image
    ? `<p style="margin:0 0 16px"><img src="cid:${escapeHtml(content.image.cid)}" alt="${escapeHtml(content.image.alt)}" width="${content.image.size}" height="${content.image.size}" style="display:block"></p>`
    : "";
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#b3202e;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold;display:inline-block">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">If the button does not work, open this address: <br><a href="${escapeHtml(content.action.url)}" style="color:#b3202e;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : "";
  const note = content.note
    ? `<p style="margin:16px 0 0;font-size:13px;color:#555">${escapeHtml(content.note)}</p>`
    : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;background:#f6f4ef;font-family:Helvetica,Arial,sans-serif;color:#1b1f2e">
<span style="display:none;max-height:0;overflow:hidden">${escapeHtml(content.preview)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#1b1f2e;color:#f5c451;padding:20px 28px;font-size:20px;font-weight:bold">${escapeHtml(SHOP.name)}</td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(content.heading)}</h1>
${paragraphs}${image}${action}${note}
</td></tr>
<tr><td style="padding:16px 28px;background:#f0ede6;font-size:12px;color:#555">${escapeHtml(SHOP.name)} · ${escapeHtml(SHOP_ADDRESS)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = [
    SHOP.name,
    "",
    content.heading,
    "",
    ...content.paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ""] : []),
    ...(content.note ? [content.note, ""] : []),
    "--",
    `${SHOP.name}, ${SHOP_ADDRESS}`,
  ].join("\n");
  return { subject: content.subject, html, text };
}
