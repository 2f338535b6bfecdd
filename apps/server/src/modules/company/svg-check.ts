// Whether an SVG logo can do nothing but draw, decided by parsing it (a namespace-aware XML parser) against an
// allow-list: only SVG elements that draw (no script, foreignObject, animation, links or anything in another
// namespace), only presentation and geometry attributes (no event handlers), references only inside the
// document (`#id`) except an <image> of embedded PNG/JPEG/GIF/WebP data, and style without outside references.
// Anything else, a document type, a processing instruction or a document that does not parse is refused.
import { SaxesParser, type SaxesAttributeNS } from 'saxes';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

const FILTERS = [
  'feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap',
  'feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur feMerge feMergeNode',
  'feMorphology feOffset fePointLight feSpecularLighting feSpotLight feTile feTurbulence',
].join(' ');

const ELEMENTS = new Set(
  (
    'svg g defs symbol use title desc path rect circle ellipse line polyline polygon text tspan textPath ' +
    'linearGradient radialGradient stop pattern clipPath mask marker filter image style ' +
    FILTERS
  ).split(/\s+/),
);

const ATTRIBUTES = new Set(
  [
    'id class style transform version baseProfile viewBox preserveAspectRatio width height x y x1 y1 x2 y2',
    'cx cy r rx ry fx fy fr d points pathLength dx dy rotate textLength lengthAdjust startOffset method spacing',
    'side path offset fill fill-opacity fill-rule stroke stroke-width stroke-linecap stroke-linejoin',
    'stroke-miterlimit stroke-dasharray stroke-dashoffset stroke-opacity opacity color display visibility',
    'overflow font-family font-size font-weight font-style font-variant font-stretch text-anchor',
    'dominant-baseline alignment-baseline baseline-shift letter-spacing word-spacing text-decoration',
    'writing-mode direction unicode-bidi stop-color stop-opacity gradientUnits gradientTransform spreadMethod',
    'patternUnits patternContentUnits patternTransform clip-path clipPathUnits clip-rule mask maskUnits',
    'maskContentUnits mask-type filter filterUnits primitiveUnits marker-start marker-mid marker-end',
    'markerWidth markerHeight markerUnits refX refY orient shape-rendering text-rendering image-rendering',
    'color-interpolation color-interpolation-filters color-rendering vector-effect paint-order',
    'mix-blend-mode isolation in in2 result stdDeviation mode operator k1 k2 k3 k4 values type',
    'flood-color flood-opacity lighting-color kernelMatrix order divisor bias targetX targetY edgeMode',
    'preserveAlpha surfaceScale specularConstant specularExponent diffuseConstant azimuth elevation z',
    'pointsAtX pointsAtY pointsAtZ limitingConeAngle baseFrequency numOctaves seed stitchTiles scale',
    'xChannelSelector yChannelSelector tableValues slope intercept amplitude exponent radius media',
    'href',
  ]
    .join(' ')
    .split(/\s+/),
);

/** Embedded pictures an <image> may show (never SVG: a picture in a picture is not checked). */
const IMAGE_DATA = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;

/** Text of an attribute or style sheet with what browsers ignore taken out (spaces, controls, escapes). */
function squeezed(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0020\u007f-\u009f]+/g, '')
      .replace(/\\/g, '')
      .toLowerCase()
  );
}

/** A style sheet or style attribute that reaches nothing outside the document and runs nothing. */
function styleIsInert(css: string): boolean {
  const s = squeezed(css.replace(/\/\*[\s\S]*?\*\//g, ''));
  if (/@import|@font-face|expression\(|javascript:|behavior:|-moz-binding/.test(s)) return false;
  for (const m of s.matchAll(/url\(([^)]*)\)?/g)) if (!m[1]!.replace(/^['"]/, '').startsWith('#')) return false;
  return true;
}

function referenceIsInert(element: string, value: string): boolean {
  const v = value.trim();
  if (v.startsWith('#')) return !/[\s"'<>]/.test(v);
  return element === 'image' && IMAGE_DATA.test(v);
}

function attributeIsSafe(element: string, a: SaxesAttributeNS): boolean {
  if (a.uri === XMLNS_NS) return a.value === SVG_NS || a.value === XLINK_NS;
  if (a.uri === XML_NS) return a.local === 'space' || a.local === 'lang';
  if (a.uri === XLINK_NS) return a.local === 'href' ? referenceIsInert(element, a.value) : a.local === 'title';
  if (a.uri !== '' || !ATTRIBUTES.has(a.local)) return false;
  if (a.local === 'href') return referenceIsInert(element, a.value);
  if (a.local === 'style') return styleIsInert(a.value);
  const value = squeezed(a.value);
  if (value.includes('javascript:') || value.includes('data:')) return false;
  // presentation attributes (fill, filter, clip-path …) may point inside the document only
  return !value.includes('url(') || styleIsInert(a.value);
}

/** Whether an SVG document can do nothing but draw (see above). */
export function svgIsSafe(svg: string): boolean {
  const parser = new SaxesParser({ xmlns: true });
  let safe = true;
  let depth = 0;
  let inStyle = false;
  let styleText = '';
  const refuse = () => {
    safe = false;
  };
  parser.on('doctype', refuse);
  parser.on('processinginstruction', refuse);
  parser.on('opentag', (tag) => {
    if (tag.uri !== SVG_NS || !ELEMENTS.has(tag.local) || (depth === 0 && tag.local !== 'svg')) safe = false;
    for (const a of Object.values(tag.attributes)) if (!attributeIsSafe(tag.local, a)) safe = false;
    if (tag.local === 'style') {
      inStyle = true;
      styleText = '';
    }
    depth += 1;
  });
  parser.on('text', (text) => {
    if (inStyle) styleText += text;
  });
  parser.on('cdata', (text) => {
    if (inStyle) styleText += text;
  });
  parser.on('closetag', (tag) => {
    depth -= 1;
    if (tag.local === 'style') {
      inStyle = false;
      if (!styleIsInert(styleText)) safe = false;
    }
  });
  try {
    parser.write(svg.replace(/^\uFEFF/, '')).close();
  } catch {
    return false;
  }
  return safe;
}
