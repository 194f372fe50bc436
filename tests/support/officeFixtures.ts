import JSZip from 'jszip';

const rel = (id: string, type: string, target: string) =>
  `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
const rels = (...items: string[]) => `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join('')}</Relationships>`;
const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const a = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const p = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

const theme = `<?xml version="1.0"?><a:theme ${a} name="Office"><a:themeElements>
<a:clrScheme name="Office"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:accent1><a:srgbClr val="4472C4"/></a:accent1></a:clrScheme>
<a:fontScheme name="Office"><a:majorFont><a:latin typeface="Calibri Light"/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/></a:minorFont></a:fontScheme>
</a:themeElements></a:theme>`;

/** A small but real Word document: defaults, a theme, Normal, Heading 1 (used twice) and a custom style, A4 with 2.5 cm margins. */
export async function docxFixture(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('_rels/.rels', rels(rel('rId1', 'officeDocument', 'word/document.xml')));
  zip.file('word/_rels/document.xml.rels', rels(rel('rId1', 'styles', 'styles.xml'), rel('rId2', 'theme', 'theme/theme1.xml')));
  zip.file('word/theme/theme1.xml', theme);
  zip.file(
    'word/styles.xml',
    `<?xml version="1.0"?><w:styles ${w}>
<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:before="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:rFonts w:ascii="Georgia"/><w:b/><w:color w:val="2F5496"/><w:sz w:val="32"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/></w:style>
<w:style w:type="character" w:customStyle="1" w:styleId="Amount"><w:name w:val="Amount"/><w:rPr><w:i/></w:rPr></w:style>
</w:styles>`,
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0"?><w:document ${w}><w:body>
<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>March</w:t></w:r></w:p>
<w:p><w:r><w:rPr><w:rStyle w:val="Amount"/></w:rPr><w:t>-850.00</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>April</w:t></w:r></w:p>
<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1417" w:bottom="1134" w:left="1417" w:right="1417"/></w:sectPr>
</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** A small presentation: one master with a theme and two layouts, and two slides with titles. */
export async function pptxFixture(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('_rels/.rels', rels(rel('rId1', 'officeDocument', 'ppt/presentation.xml')));
  zip.file(
    'ppt/presentation.xml',
    `<?xml version="1.0"?><p:presentation ${p}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>
<p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst><p:sldSz cx="12192000" cy="6858000"/></p:presentation>`,
  );
  zip.file('ppt/_rels/presentation.xml.rels', rels(rel('rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'), rel('rId2', 'slide', 'slides/slide1.xml'), rel('rId3', 'slide', 'slides/slide2.xml')));
  zip.file(
    'ppt/slideMasters/slideMaster1.xml',
    `<?xml version="1.0"?><p:sldMaster ${p} ${a}><p:cSld name="Brand"/><p:txStyles>
<p:titleStyle><a:lvl1pPr><a:defRPr sz="4400" b="1"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="Georgia"/></a:defRPr></a:lvl1pPr></p:titleStyle>
<p:bodyStyle><a:lvl1pPr><a:defRPr sz="2800"/></a:lvl1pPr><a:lvl2pPr><a:defRPr sz="2400"/></a:lvl2pPr></p:bodyStyle></p:txStyles></p:sldMaster>`,
  );
  zip.file('ppt/slideMasters/_rels/slideMaster1.xml.rels', rels(rel('rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml'), rel('rId2', 'slideLayout', '../slideLayouts/slideLayout2.xml'), rel('rId3', 'theme', '../theme/theme1.xml')));
  zip.file('ppt/theme/theme1.xml', theme);
  const layout = (name: string, type: string, placeholders: string[]) =>
    `<?xml version="1.0"?><p:sldLayout ${p} type="${type}"><p:cSld name="${name}"><p:spTree>${placeholders.map((ph) => `<p:sp><p:nvSpPr><p:nvPr><p:ph type="${ph}"/></p:nvPr></p:nvSpPr></p:sp>`).join('')}</p:spTree></p:cSld></p:sldLayout>`;
  zip.file('ppt/slideLayouts/slideLayout1.xml', layout('Title Slide', 'title', ['ctrTitle', 'subTitle']));
  zip.file('ppt/slideLayouts/slideLayout2.xml', layout('Title and Content', 'obj', ['title', 'body']));
  const slide = (title: string) =>
    `<?xml version="1.0"?><p:sld ${p} ${a}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>${title}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  zip.file('ppt/slides/slide1.xml', slide('Quarterly results'));
  zip.file('ppt/slides/_rels/slide1.xml.rels', rels(rel('rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml')));
  zip.file('ppt/slides/slide2.xml', slide('Spending by category'));
  zip.file('ppt/slides/_rels/slide2.xml.rels', rels(rel('rId1', 'slideLayout', '../slideLayouts/slideLayout2.xml')));
  return zip.generateAsync({ type: 'nodebuffer' });
}
