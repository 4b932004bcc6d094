// Every mail limit has one default, and an exceeded limit is refused with a sentence naming the limit, the value and the setting.
import { describe, expect, it } from 'vitest';
import { isDomainError } from '../errors.ts';
import { DEFAULT_MAIL_LIMITS, limitExceeded, resolveMailLimits } from './limits.ts';

describe('mail limits', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_MAIL_LIMITS).toMatchObject({
      maxMessageBytes: 26_214_400,
      maxAttachmentBytes: 10_485_760,
      maxHeaderBytes: 65_536,
      maxAttachments: 50,
      maxTextChars: 1_000_000,
      parseTimeoutMs: 10_000,
    });
  });

  it('names the limit, the value and the setting', () => {
    const e = limitExceeded('maxMessageBytes', 31_457_280, DEFAULT_MAIL_LIMITS.maxMessageBytes);
    expect(e.code).toBe('MESSAGE_TOO_LARGE');
    expect(e.message).toBe(
      'This message is 31,457,280 bytes; the largest message this agent reads is 26,214,400 bytes (maxMessageBytes). Send a smaller message or raise MAX_MESSAGE_BYTES.',
    );
  });

  it('names the attachment that is too large', () => {
    const e = limitExceeded('maxAttachmentBytes', 11_000_000, 10_485_760, 'bomb.bin');
    expect(e.message).toContain('The attachment bomb.bin is 11,000,000 bytes');
    expect(e.message).toContain('(maxAttachmentBytes)');
    expect(e.message).toContain('MAX_ATTACHMENT_BYTES');
  });

  it('refuses a timeout as unreadable, not as too large', () => {
    expect(limitExceeded('parseTimeoutMs', 10_000, 10_000).code).toBe('MESSAGE_UNREADABLE');
  });

  it('fills defaults and refuses a limit that is not a positive whole number', () => {
    expect(resolveMailLimits({ maxAttachments: 3 })).toMatchObject({
      maxAttachments: 3,
      maxTextChars: 1_000_000,
    });
    let caught: unknown;
    try {
      resolveMailLimits({ maxMessageBytes: -1 });
    } catch (e) {
      caught = e;
    }
    expect(isDomainError(caught, 'CONFIG_INVALID')).toBe(true);
    expect((caught as Error).message).toContain('MAX_MESSAGE_BYTES');
  });
});
