export interface OutputCaptureLimits {
  /** Bytes kept from the start of the output. */
  readonly headBytes: number;
  /** Bytes kept from the end of the output. */
  readonly tailBytes: number;
}

const decoder = new TextDecoder('utf-8');

/**
 * Keeps the head and the tail of a command's output, however much it writes: memory stays within the two
 * limits plus one chunk. The start usually says what ran and the end how it went, so the middle is what
 * gets dropped.
 */
export class OutputCapture {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer[] = [];
  private tailLength = 0;
  private total = 0;

  constructor(private readonly limits: OutputCaptureLimits) {}

  get totalBytes(): number {
    return this.total;
  }

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const toHead = Math.min(chunk.length, this.limits.headBytes - this.headLength);
    if (toHead > 0) {
      this.head.push(chunk.subarray(0, toHead));
      this.headLength += toHead;
    }
    if (toHead < chunk.length) this.addToTail(chunk.subarray(toHead));
  }

  /**
   * The output as text: whole when it fit, else head, a line `… N bytes omitted …`, and tail. The cuts are
   * moved to character boundaries so no UTF-8 character is split; its bytes count as omitted.
   */
  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    const omitted = this.total - head.length - tail.length;
    if (omitted === 0) return decoder.decode(Buffer.concat([head, tail]));
    const headEnd = endOfLastWholeCharacter(head);
    const tailStart = startOfFirstWholeCharacter(tail);
    const omittedBytes = omitted + (head.length - headEnd) + tailStart;
    return `${decoder.decode(head.subarray(0, headEnd))}\n… ${omittedBytes} bytes omitted …\n${decoder.decode(tail.subarray(tailStart))}`;
  }

  private addToTail(bytes: Buffer): void {
    this.tail.push(bytes);
    this.tailLength += bytes.length;
    while (this.tailLength > this.limits.tailBytes) {
      const first = this.tail[0];
      if (!first) return;
      const excess = this.tailLength - this.limits.tailBytes;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailLength -= excess;
      }
    }
  }
}

/** Where the last complete character of `bytes` ends: before a trailing, unfinished multi-byte sequence. */
function endOfLastWholeCharacter(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if (isContinuationByte(byte)) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** Where the first complete character of `bytes` starts: after leading bytes that continue a cut-off one. */
function startOfFirstWholeCharacter(bytes: Buffer): number {
  let start = 0;
  while (start < Math.min(3, bytes.length) && isContinuationByte(bytes[start] ?? 0)) start += 1;
  return start;
}

function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}
