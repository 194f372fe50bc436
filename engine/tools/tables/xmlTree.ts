import { SaxesParser } from 'saxes';

/** An XML element with names stripped of their prefixes (`w:style` → `style`), enough to read Office parts. */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

/** Parses a whole XML document into an element tree (saxes does the parsing). */
export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const open: XmlElement[] = [root];
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: localName(tag.name), attrs: localAttributes(tag.attributes as Record<string, string>), children: [], text: '' };
    open.at(-1)!.children.push(element);
    if (!tag.isSelfClosing) open.push(element);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) open.pop();
  });
  parser.on('text', (text) => {
    open.at(-1)!.text += text;
  });
  parser.write(xml).close();
  return root.children[0] ?? root;
}

export function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

export function localAttributes(attributes: Readonly<Record<string, string>>): Record<string, string> {
  const local: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) local[localName(name)] = value;
  }
  return local;
}

export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((each) => each.name === name);
}

export function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  return element?.children.filter((each) => each.name === name) ?? [];
}

/** Every element of that name below `element`, in document order. */
export function descendants(element: XmlElement | undefined, name: string): XmlElement[] {
  if (!element) return [];
  return element.children.flatMap((each) => [...(each.name === name ? [each] : []), ...descendants(each, name)]);
}

/** Follows a path of child names: path(styleSheet, 'fonts', 'font'). */
export function at(element: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  return names.reduce<XmlElement | undefined>((current, name) => child(current, name), element);
}

/** The `val` attribute of a child, the usual way Office writes a setting (`<w:sz w:val="24"/>`). */
export function valOf(element: XmlElement | undefined, name: string): string | undefined {
  return child(element, name)?.attrs['val'];
}
