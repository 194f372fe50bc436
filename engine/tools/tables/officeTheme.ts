import type JSZip from 'jszip';
import { partText } from './officeZip.js';
import { at, parseXml, type XmlElement } from './xmlTree.js';

export interface ThemeSummary {
  /** "headings Calibri Light, body Calibri" */
  fonts: string | null;
  /** "dk1 000000, lt1 FFFFFF, accent1 4472C4, …" */
  colors: string | null;
}

/** The fonts and colours a theme part defines (DrawingML, shared by Excel, Word and PowerPoint). */
export async function themeSummary(zip: JSZip, part: string | undefined, requested: string): Promise<ThemeSummary> {
  const xml = part ? await partText(zip, part, requested) : null;
  if (xml === null) return { fonts: null, colors: null };
  const elements = at(parseXml(xml), 'themeElements');
  const scheme = at(elements, 'fontScheme');
  const major = at(scheme, 'majorFont', 'latin')?.attrs['typeface'];
  const minor = at(scheme, 'minorFont', 'latin')?.attrs['typeface'];
  const fonts = major || minor ? `headings ${major ?? '?'}, body ${minor ?? '?'}` : null;
  const colors = at(elements, 'clrScheme')?.children.map((color) => `${color.name} ${colorValue(color) ?? '?'}`).join(', ') || null;
  return { fonts, colors };
}

/** A DrawingML colour as hex ("4472C4"), or the system colour's last value. */
export function colorValue(element: XmlElement | undefined): string | null {
  const srgb = at(element, 'srgbClr')?.attrs['val'];
  if (srgb) return srgb;
  const system = at(element, 'sysClr');
  return system?.attrs['lastClr'] ?? system?.attrs['val'] ?? null;
}

/** The first part of a kind among relationship targets, e.g. the theme of a workbook. */
export function firstTarget(targets: Map<string, { target: string; type: string }>, type: string): string | undefined {
  return [...targets.values()].find((target) => target.type === type)?.target;
}
