/**
 * Printable ASCII from most to least frequent in source code, as measured over 80 MB of JavaScript,
 * TypeScript, JSON and Markdown. Bytes not listed (control bytes, UTF-8 beyond ASCII) are rarer still.
 */
const commonFirst = ' etrnosai\nlcudp.mhf,")(g:=y;\tb/*-v0{}A1\'SwxE_`TCk2IPRD|[]ONB34LFjM65&8\\>79U?q!H+V@QG$#zW<KYJXZ^%~';

/** How rare a byte is in source text: its place in commonFirst, past its end for one not listed. */
function rank(byte: number): number {
  const index = byte < 0x80 ? commonFirst.indexOf(String.fromCharCode(byte)) : -1;
  return index === -1 ? commonFirst.length : index;
}

/**
 * The offset of the byte in `bytes` least likely to occur in source text. A byte search (memchr) for
 * it stops least often, so looking for a literal by its rarest byte is several times faster than by
 * its first, which is what Buffer.indexOf does for short needles.
 */
export function rarestByteOffset(bytes: Uint8Array): number {
  let rarest = 0;
  let rarestRank = -1;
  bytes.forEach((byte, offset) => {
    const byteRank = rank(byte);
    if (byteRank > rarestRank) [rarest, rarestRank] = [offset, byteRank];
  });
  return rarest;
}

/** How rare the rarest byte of `bytes` is (higher: rarer), which says how often a search for it stops. */
export function rarestByteRank(bytes: Uint8Array): number {
  return bytes.length === 0 ? -1 : rank(bytes[rarestByteOffset(bytes)]!);
}
