import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';

/**
 * The most of one result the tool log keeps. Far above what the model reads at once (resultCap.ts cuts
 * that and points at recall_tool_result); a server that returns more is cut here with a note.
 */
export const maxStoredResultChars = 2_000_000;

/**
 * A tool result as text for the model and the tool log: text as it is; images, audio and binary
 * resources described (type, size, where), since the model reads text only here; embedded text resources
 * with their URI; `structuredContent` as JSON when the server sent no text with it.
 */
export function resultText(result: Pick<CallToolResult, 'content' | 'structuredContent'>): string {
  const parts = (result.content ?? []).map(describeContent);
  const hasText = (result.content ?? []).some((block) => block.type === 'text' || (block.type === 'resource' && 'text' in block.resource));
  if (result.structuredContent !== undefined && !hasText) parts.push(JSON.stringify(result.structuredContent, null, 2));
  const text = parts.join('\n').trim() === '' ? '(The tool returned no content.)' : parts.join('\n');
  if (text.length <= maxStoredResultChars) return text;
  return `${text.slice(0, maxStoredResultChars)}\n[The server returned ${text.length.toLocaleString('en-US')} characters; the workbench keeps the first ${maxStoredResultChars.toLocaleString('en-US')}.]`;
}

function describeContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[Image (${block.mimeType}, ${sizeOfBase64(block.data)}) returned by the tool; images are not shown to you here, only this description.]`;
    case 'audio':
      return `[Audio (${block.mimeType}, ${sizeOfBase64(block.data)}) returned by the tool; audio is not passed to you here, only this description.]`;
    case 'resource_link':
      return `[Resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}${block.description ? ` — ${block.description}` : ''}]`;
    case 'resource': {
      const { resource } = block;
      const mime = resource.mimeType ? `, ${resource.mimeType}` : '';
      if ('text' in resource) return `[Resource <${resource.uri}>${mime}]\n${resource.text}`;
      return `[Resource <${resource.uri}>${mime}, ${sizeOfBase64(resource.blob)} of binary data, not shown]`;
    }
    default:
      return `[Content of type "${(block as { type?: unknown }).type}" that the workbench does not show]`;
  }
}

/** The decoded size of base64 data, in bytes, KB or MB. */
function sizeOfBase64(data: string): string {
  const bytes = Math.floor((data.replace(/[\s=]/g, '').length * 3) / 4);
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
