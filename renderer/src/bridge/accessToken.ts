import { socketTokenParam } from '../../../engine/contract/channels.js';

const storageKey = 'rpi-workbench-access-token';

export interface TokenSources {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * The browser host's access token. The URL it prints carries it in the fragment (`#token=…`); the
 * page moves it into sessionStorage, which belongs to this origin and port alone and outlives reloads,
 * and takes it out of the address bar. Null when the page was opened without it.
 */
export function takeAccessToken({ location, history, storage }: TokenSources): string | null {
  const fromUrl = new URLSearchParams(location.hash.replace(/^#/, '')).get(socketTokenParam);
  if (fromUrl) {
    storage.setItem(storageKey, fromUrl);
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    return fromUrl;
  }
  return storage.getItem(storageKey);
}
