import type JSZip from 'jszip';
import { ToolError } from '../tool.js';
import { firstTarget, themeSummary } from './officeTheme.js';
import { partText, relationshipTargets, relsPartOf } from './officeZip.js';
import { plural } from './tableText.js';
import { at, child, childrenNamed, descendants, parseXml, type XmlElement } from './xmlTree.js';

const maxSlides = 60;
type Targets = Map<string, { target: string; type: string }>;

/** A presentation's look as text: slide size, theme, each master with its text styles and layouts, and the layout and title of each slide. */
export async function pptxStylesText(zip: JSZip, requested: string): Promise<string> {
  const packageRels = relationshipTargets(await partText(zip, '_rels/.rels', requested), '');
  const presentationPart = firstTarget(packageRels, 'officeDocument') ?? 'ppt/presentation.xml';
  const presentationXml = await partText(zip, presentationPart, requested);
  if (presentationXml === null) throw new ToolError(`${requested} is not a PowerPoint presentation (it has no ${presentationPart}).`);
  const presentation = parseXml(presentationXml);
  const rels = relationshipTargets(await partText(zip, relsPartOf(presentationPart), requested), presentationPart);
  const size = at(presentation, 'sldSz')?.attrs;
  const lines = [`${requested} — presentation styles`];
  if (size) lines.push(`Slide size: ${cm(size['cx'])} × ${cm(size['cy'])}${size['type'] ? ` (${size['type']})` : ''}`);
  const layoutNames = new Map<string, string>();
  for (const { attrs } of childrenNamed(at(presentation, 'sldMasterIdLst'), 'sldMasterId')) {
    const master = rels.get(attrs['id'] ?? '');
    if (master) lines.push(...(await masterLines(zip, master.target, requested, layoutNames)));
  }
  const slides = childrenNamed(at(presentation, 'sldIdLst'), 'sldId').flatMap(({ attrs }) => {
    const slide = rels.get(attrs['id'] ?? '');
    return slide ? [slide.target] : [];
  });
  lines.push(`Slides, ${slides.length}:`);
  for (const [index, slide] of slides.slice(0, maxSlides).entries()) lines.push(`  ${index + 1}. ${await slideText(zip, slide, requested, layoutNames)}`);
  if (slides.length > maxSlides) lines.push(`  … ${slides.length - maxSlides} more`);
  return lines.join('\n');
}

async function masterLines(zip: JSZip, part: string, requested: string, layoutNames: Map<string, string>): Promise<string[]> {
  const xml = await partText(zip, part, requested);
  if (xml === null) return [];
  const master = parseXml(xml);
  const rels: Targets = relationshipTargets(await partText(zip, relsPartOf(part), requested), part);
  const theme = await themeSummary(zip, firstTarget(rels, 'theme'), requested);
  const name = at(master, 'cSld')?.attrs['name'] || part.split('/').pop();
  const lines = [`Master "${name}"${theme.fonts ? ` — theme fonts: ${theme.fonts}` : ''}`];
  if (theme.colors) lines.push(`  theme colours: ${theme.colors}`);
  const textStyles = at(master, 'txStyles');
  for (const [label, element] of [['title', 'titleStyle'], ['body', 'bodyStyle']] as const) {
    const levels = at(textStyles, element)?.children.filter((level) => /^lvl[1-3]pPr$/.test(level.name)) ?? [];
    if (levels.length) lines.push(`  ${label} text: ${levels.map((level) => `level ${level.name[3]} ${levelText(level)}`).join('; ')}`);
  }
  const layouts: string[] = [];
  for (const { target, type } of rels.values()) {
    if (type !== 'slideLayout') continue;
    const layoutXml = await partText(zip, target, requested);
    if (layoutXml === null) continue;
    const layout = parseXml(layoutXml);
    const layoutName = at(layout, 'cSld')?.attrs['name'] || target.split('/').pop() || target;
    layoutNames.set(target, layoutName);
    const placeholders = descendants(layout, 'ph').map((ph) => ph.attrs['type'] ?? 'body');
    layouts.push(`"${layoutName}"${layout.attrs['type'] ? ` (${layout.attrs['type']})` : ''}: ${plural(placeholders.length, 'placeholder')}${placeholders.length ? ` ${[...new Set(placeholders)].join(', ')}` : ''}`);
  }
  lines.push(`  layouts, ${layouts.length}: ${layouts.join('; ')}`);
  return lines;
}

function levelText(level: XmlElement): string {
  const run = child(level, 'defRPr');
  const parts = [at(run, 'latin')?.attrs['typeface'] ?? '', run?.attrs['sz'] ? `${Number(run.attrs['sz']) / 100}pt` : ''];
  if (run?.attrs['b'] === '1') parts.push('bold');
  const color = at(run, 'solidFill', 'srgbClr')?.attrs['val'] ?? at(run, 'solidFill', 'schemeClr')?.attrs['val'];
  if (color) parts.push(`colour ${color}`);
  return parts.filter(Boolean).join(' ') || 'inherited';
}

async function slideText(zip: JSZip, part: string, requested: string, layoutNames: Map<string, string>): Promise<string> {
  const rels = relationshipTargets(await partText(zip, relsPartOf(part), requested), part);
  const layout = firstTarget(rels, 'slideLayout');
  const xml = await partText(zip, part, requested);
  const slide = xml === null ? undefined : parseXml(xml);
  const title = descendants(slide, 'sp').find((shape) => ['title', 'ctrTitle'].includes(descendants(shape, 'ph')[0]?.attrs['type'] ?? ''));
  const titleText = descendants(title, 't').map((text) => text.text).join('').trim();
  return `layout "${layout ? (layoutNames.get(layout) ?? layout) : '?'}"${titleText ? ` — "${titleText.slice(0, 80)}"` : ''}`;
}

/** EMU → "25.4 cm". */
function cm(emu: string | undefined): string {
  return `${Math.round((Number(emu ?? 0) / 360_000) * 10) / 10} cm`;
}
