import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir } from '../../../engine/settings/index.js';

const onLinux = process.platform !== 'darwin' && process.platform !== 'win32';

describe('configDir', () => {
  it('uses RPI_WORKBENCH_CONFIG_DIR when set, made absolute', () => {
    expect(configDir({ RPI_WORKBENCH_CONFIG_DIR: '/tmp/rpi-config', XDG_CONFIG_HOME: '/xdg' })).toBe(path.resolve('/tmp/rpi-config'));
    expect(configDir({ RPI_WORKBENCH_CONFIG_DIR: 'relative/config' })).toBe(path.resolve('relative/config'));
  });

  it.skipIf(!onLinux)('ignores a blank RPI_WORKBENCH_CONFIG_DIR', () => {
    expect(configDir({ RPI_WORKBENCH_CONFIG_DIR: '  ', XDG_CONFIG_HOME: '/xdg' })).toBe(path.join('/xdg', 'rpi-workbench'));
  });

  it.skipIf(!onLinux)('uses XDG_CONFIG_HOME on Linux', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/home/me/.cfg' })).toBe('/home/me/.cfg/rpi-workbench');
  });

  it.skipIf(!onLinux)('falls back to ~/.config on Linux', () => {
    expect(configDir({})).toBe(path.join(os.homedir(), '.config', 'rpi-workbench'));
    expect(configDir({ XDG_CONFIG_HOME: ' ' })).toBe(path.join(os.homedir(), '.config', 'rpi-workbench'));
  });

  it('reads process.env when no environment is given', () => {
    const saved = process.env.RPI_WORKBENCH_CONFIG_DIR;
    process.env.RPI_WORKBENCH_CONFIG_DIR = '/tmp/from-process-env';
    try {
      expect(configDir()).toBe(path.resolve('/tmp/from-process-env'));
    } finally {
      if (saved === undefined) delete process.env.RPI_WORKBENCH_CONFIG_DIR;
      else process.env.RPI_WORKBENCH_CONFIG_DIR = saved;
    }
  });
});
