import path from 'node:path';
import { Readable } from 'node:stream';
import JSZip from 'jszip';
import { formatSize } from '../../files/fileSize.js';
import { ToolError } from '../tool.js';
import type { Workspace } from '../../workspace/workspace.js';
import { childrenNamed, parseXml } from './xmlTree.js';

/** Office files (.xlsx, .docx, .pptx) are ZIP archives, read whole into memory: this caps that. */
export const maxOfficeFileBytes = 256 * 1024 * 1024;
/** An XML part read whole (styles, a workbook's sheet list) may unpack to at most this much. */
const maxPartBytes = 32 * 1024 * 1024;

export interface OfficeFile {
  readonly requested: string;
  readonly rel: string;
  readonly size: number;
}

/** Opens an Office file's ZIP container, read through the Workspace; a file that is not one is a ToolError. */
export async function openOfficeZip(workspace: Workspace, file: OfficeFile): Promise<JSZip> {
  if (file.size > maxOfficeFileBytes) {
    throw new ToolError(`${file.requested} is ${formatSize(file.size)}; Office files over ${formatSize(maxOfficeFileBytes)} are not opened.`);
  }
  const data = await workspace.readFile(await workspace.resolve(file.rel, 'read'));
  try {
    return await JSZip.loadAsync(data);
  } catch (error) {
    throw new ToolError(`${file.requested} is not a valid Office file (its ZIP container cannot be read: ${(error as Error).message}).`);
  }
}

/**
 * One part of the archive as a stream of chunks, unpacked as they are read: a consumer that stops
 * reading stops the unpacking (the stream pauses), so memory stays bounded by a chunk.
 */
export async function* partChunks(zip: JSZip, name: string): AsyncGenerator<Buffer> {
  const entry = zip.file(name);
  if (!entry) return;
  const stream = new Readable().wrap(entry.nodeStream('nodebuffer'));
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } finally {
    stream.destroy();
  }
}

/** Streams one part to `onChunk` until it returns 'stop' or the part ends; false when there is no such part. */
export async function streamPart(zip: JSZip, name: string, onChunk: (chunk: Buffer) => 'more' | 'stop'): Promise<boolean> {
  if (!zip.file(name)) return false;
  for await (const chunk of partChunks(zip, name)) if (onChunk(chunk) === 'stop') break;
  return true;
}

/** One XML part as text, or null when the archive has no such part; a part that unpacks too large is refused. */
export async function partText(zip: JSZip, name: string, requested: string): Promise<string | null> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let bytes = 0;
  const found = await streamPart(zip, name, (chunk) => {
    bytes += chunk.length;
    if (bytes > maxPartBytes) return 'stop';
    text += decoder.decode(chunk, { stream: true });
    return 'more';
  });
  if (!found) return null;
  if (bytes > maxPartBytes) throw new ToolError(`${requested}: its part ${name} unpacks to more than ${formatSize(maxPartBytes)}, which is not read.`);
  return text + decoder.decode();
}

/** The parts a relationships file (`_rels/x.rels`) points at, by relationship id, as archive paths. */
export function relationshipTargets(relsXml: string | null, partName: string): Map<string, { target: string; type: string }> {
  const targets = new Map<string, { target: string; type: string }>();
  if (relsXml === null) return targets;
  const folder = path.posix.dirname(partName);
  for (const { attrs } of childrenNamed(parseXml(relsXml), 'Relationship')) {
    const { Id: id, Target: target, Type: type = '' } = attrs;
    if (!id || !target || attrs['TargetMode'] === 'External') continue;
    const resolved = target.startsWith('/') ? target.slice(1) : path.posix.normalize(path.posix.join(folder, target));
    targets.set(id, { target: resolved, type: type.slice(type.lastIndexOf('/') + 1) });
  }
  return targets;
}

/** The relationships part of a part: xl/workbook.xml → xl/_rels/workbook.xml.rels. */
export function relsPartOf(partName: string): string {
  return path.posix.join(path.posix.dirname(partName), '_rels', `${path.posix.basename(partName)}.rels`);
}
