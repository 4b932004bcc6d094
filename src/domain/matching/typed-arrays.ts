/** Growing the engine's flat typed-array buffers. Owns nothing else. */

/** A copy of `array` twice as long, its values at the start. */
export function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const next = new Int32Array(array.length * 2);
  next.set(array);
  return next;
}
