// Forwards, replies-of-forwards and machine-sent mail are recognised from their subjects, bodies and headers.
import { describe, expect, it } from 'vitest';
import { hasForwardBlock, hasForwardPrefix, isAutomated, isNoReplyAddress } from './signals.ts';

describe('hasForwardPrefix', () => {
  it.each([
    'Fwd: x',
    'FW: x',
    'WG: Voravis',
    'TR: facture',
    'RV: preaviso',
    'Doorst: x',
    'Re: Fwd: x',
    'AW: WG: x',
    'Fw[2]: x',
    'إعادة توجيه: شحنة',
  ])('sees a forward in %s', (subject) => expect(hasForwardPrefix(subject)).toBe(true));
  it.each(['Re: x', 'Pre-alert: x', 'Fwdr: x', 'Forwarder pre-alert', 'TRANSIT: x', 'Voravis WG 12', ''])(
    'sees no forward in %s',
    (subject) => expect(hasForwardPrefix(subject)).toBe(false),
  );
});

describe('hasForwardBlock', () => {
  it.each([
    '---------- Forwarded message ---------\nFrom: a',
    'Hi\n\nBegin forwarded message:\n\nFrom: x',
    '---------- Weitergeleitete Nachricht ---------',
    '-------- Message transféré --------',
    '---------- Mensaje reenviado ---------',
  ])('sees a forwarded block in %j', (body) => expect(hasForwardBlock(body)).toBe(true));

  it('does not take an Outlook reply header for a forward', () => {
    expect(hasForwardBlock('Thanks\n\n-----Original Message-----\nFrom: x')).toBe(false);
  });
});

describe('isAutomated', () => {
  const headers =
    (h: Record<string, string>) =>
    (name: string): string | undefined =>
      h[name];
  it('reads Auto-Submitted other than no', () => {
    expect(isAutomated(headers({ 'auto-submitted': 'auto-generated' }), 'a@b.example')).toBe(true);
    expect(isAutomated(headers({ 'auto-submitted': 'no' }), 'a@b.example')).toBe(false);
  });
  it('reads Precedence bulk/list/junk and List-Id', () => {
    expect(isAutomated(headers({ precedence: 'bulk' }), 'a@b.example')).toBe(true);
    expect(isAutomated(headers({ precedence: 'first-class' }), 'a@b.example')).toBe(false);
    expect(isAutomated(headers({ 'list-id': '<x.example>' }), 'a@b.example')).toBe(true);
  });
  it('reads a no-reply sender', () => {
    expect(isAutomated(headers({}), 'noreply@cargoportal.example')).toBe(true);
    expect(isNoReplyAddress('no-reply@x.example')).toBe(true);
    expect(isNoReplyAddress('do-not-reply@x.example')).toBe(true);
    expect(isNoReplyAddress('noreply-bookings@x.example')).toBe(true);
    expect(isNoReplyAddress('noreen@x.example')).toBe(false);
  });
});
