import { formatBytes } from '../contract/units.js';

/** 1536 → "1.5 KB"; exact bytes under 1 KB (the contract's, which the renderer shows sizes with too). */
export const formatSize = formatBytes;
