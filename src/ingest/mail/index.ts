/** The mail ingest surface: raw RFC 822 or a data part of fields → MailMessage. */
export { parseMail } from './parse.ts';
export { messageFromFields } from './from-fields.ts';
export { parseCsv } from './csv.ts';
