import type { FileHandle } from 'node:fs/promises';

/** What a file's first bytes say it is; the name is shown to the model when a binary file is refused. */
const signatures: readonly { name: string; bytes: readonly number[]; at?: number }[] = [
  { name: 'PNG image', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { name: 'JPEG image', bytes: [0xff, 0xd8, 0xff] },
  { name: 'GIF image', bytes: [0x47, 0x49, 0x46, 0x38] },
  { name: 'WebP image', bytes: [0x57, 0x45, 0x42, 0x50], at: 8 },
  { name: 'PDF document', bytes: [0x25, 0x50, 0x44, 0x46] },
  { name: 'ZIP archive (also .xlsx, .docx, .jar)', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { name: 'gzip archive', bytes: [0x1f, 0x8b] },
  { name: 'ELF executable', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { name: 'WebAssembly module', bytes: [0x00, 0x61, 0x73, 0x6d] },
  { name: 'SQLite database', bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65] },
  { name: 'Windows executable', bytes: [0x4d, 0x5a] },
];

/** How many leading bytes decide whether a file is text, as git and ripgrep do (a NUL byte means binary). */
export const sniffLength = 8192;

export type FileKind = { binary: false } | { binary: true; description: string };

/** Judges an open file by its first `sniffLength` bytes. */
export async function sniffFileKind(handle: FileHandle): Promise<FileKind> {
  const head = Buffer.alloc(sniffLength);
  const { bytesRead } = await handle.read(head, 0, sniffLength, 0);
  return fileKindOf(head.subarray(0, bytesRead));
}

/** Judges a file by its first `sniffLength` bytes. */
export function fileKindOf(head: Uint8Array): FileKind {
  for (const signature of signatures) {
    const at = signature.at ?? 0;
    if (signature.bytes.every((byte, index) => head[at + index] === byte)) return { binary: true, description: signature.name };
  }
  return head.includes(0) ? { binary: true, description: 'binary data' } : { binary: false };
}
