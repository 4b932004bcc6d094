// Invariant: a zip bomb is found before any reader unpacks it, whether its directory declares the huge size or lies small; an honest XLSX passes with its real inflated size.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inspectZip } from './zip-guard.ts';

const fixture = (name: string): Buffer =>
  readFileSync(new URL(`../../../../fixtures/attachments/${name}`, import.meta.url));

/** The zip with every central-directory entry declaring `bytes` as its inflated size (a liar when small). */
function declaring(zip: Buffer, bytes: number): Buffer {
  const out = Buffer.from(zip);
  for (
    let i = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    i >= 0;
    i = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), i + 4)
  ) {
    out.writeUInt32LE(bytes, i + 24);
  }
  return out;
}

describe('inspectZip', () => {
  it('passes an honest XLSX with the bytes it really inflates to', async () => {
    const verdict = await inspectZip(fixture('manifest.xlsx'), 32 * 1024 * 1024);
    expect(verdict.kind).toBe('ok');
    expect(verdict.kind === 'ok' && verdict.inflatedBytes).toBeGreaterThan(1000);
  });

  it('refuses a zip whose directory declares more than the bound, without inflating it', async () => {
    const zip = fixture('zip-bomb.xlsx');
    // past the bound by its declaration alone: the packed bytes are not even looked at
    const garbled = Buffer.from(zip);
    garbled.fill(0x55, 100, 20_000);
    expect(await inspectZip(garbled, 32 * 1024 * 1024)).toEqual({ kind: 'bomb' });
  });

  it('refuses a zip whose directory lies small and whose part inflates past its declaration', async () => {
    const liar = declaring(fixture('zip-bomb.xlsx'), 1000);
    expect(await inspectZip(liar, 32 * 1024 * 1024)).toEqual({ kind: 'bomb' });
  });

  it('calls bytes with no zip directory broken, not a bomb', async () => {
    expect((await inspectZip(Buffer.alloc(200, 0x41), 1024)).kind).toBe('broken');
  });
});
