/** The limits the system puts on a path and on one name in it, in bytes of UTF-8, and how to name them. */
export interface PathLimits {
  /** PATH_MAX: a whole path must be shorter, as it counts the terminating NUL. */
  readonly pathMax: number;
  /** NAME_MAX: the most one name may have. */
  readonly nameMax: number;
  /** The system's name, and each limit's, for messages. */
  readonly system: string;
  readonly pathMaxName: string;
  readonly nameMaxName: string;
}

const limitsBySystem: Partial<Record<NodeJS.Platform, PathLimits>> = {
  linux: { pathMax: 4096, nameMax: 255, system: 'Linux', pathMaxName: 'PATH_MAX', nameMaxName: 'NAME_MAX' },
  darwin: { pathMax: 1024, nameMax: 255, system: 'macOS', pathMaxName: 'PATH_MAX', nameMaxName: 'NAME_MAX' },
  win32: { pathMax: 32_767, nameMax: 255, system: 'Windows', pathMaxName: 'the long-path limit', nameMaxName: 'the name limit' },
};

/** This system's limits; a system not listed is held to Linux's. */
export const pathLimits: PathLimits = limitsBySystem[process.platform] ?? limitsBySystem.linux!;

/** Whether a path of `bytes` bytes is too long to be used whole: the system answers ENAMETOOLONG. */
export function isBeyondPathMax(bytes: number, limits: PathLimits = pathLimits): boolean {
  return bytes >= limits.pathMax;
}

/**
 * Why `absolute` (a path that will be used whole, the workspace root included) passes the limits, or null
 * when it does not. Only the names after the first `fromIndex` characters are measured one by one: the
 * root's own exist already.
 */
export function pathLimitProblem(absolute: string, { limits = pathLimits, fromIndex = 0 }: { limits?: PathLimits; fromIndex?: number } = {}): string | null {
  const bytes = Buffer.byteLength(absolute);
  if (isBeyondPathMax(bytes, limits)) return `its full path would be ${count(bytes)} bytes; ${pathMaxRule(limits)}`;
  for (const name of absolute.slice(fromIndex).split(/[\\/]/)) {
    const nameBytes = Buffer.byteLength(name);
    if (nameBytes <= limits.nameMax) continue;
    const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
    return `the name "${shown}" is ${count(nameBytes)} bytes; ${limits.system} allows at most ${count(limits.nameMax)} for one name (${limits.nameMaxName})`;
  }
  return null;
}

/**
 * For a walk below `root`: why a path from it (relative, '/' separators) is too long to be used whole, or
 * null. A UTF-16 unit is at most 3 bytes of UTF-8, so only paths near the limit are measured.
 */
export function tooLongBelow(root: string, limits: PathLimits = pathLimits): (relPath: string) => string | null {
  const rootBytes = Buffer.byteLength(root) + 1;
  return (relPath) => {
    if (!isBeyondPathMax(rootBytes + relPath.length * 3, limits)) return null;
    const bytes = rootBytes + Buffer.byteLength(relPath);
    return isBeyondPathMax(bytes, limits) ? pathTooLongReason(bytes, limits) : null;
  };
}

/** Why a path a walk met cannot be used: its `bytes` pass the limit for a whole path. */
export function pathTooLongReason(bytes: number, limits: PathLimits = pathLimits): string {
  return `its full path is ${count(bytes)} bytes; ${pathMaxRule(limits)}`;
}

function pathMaxRule(limits: PathLimits): string {
  return `${limits.system} takes paths of less than ${count(limits.pathMax)} bytes (${limits.pathMaxName})`;
}

function count(bytes: number): string {
  return bytes.toLocaleString('en-US');
}
