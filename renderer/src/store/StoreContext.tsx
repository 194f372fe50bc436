import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { WorkbenchActions, WorkbenchStore } from './workbenchStore.js';
import type { WorkbenchState } from './state.js';

const StoreContext = createContext<WorkbenchStore | null>(null);

export function StoreProvider({ store, children }: { store: WorkbenchStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** Reads one slice of the workbench store; components re-render only when that slice changes. */
export function useWorkbench<T>(selector: (state: WorkbenchState & WorkbenchActions) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useWorkbench must be used inside <StoreProvider>');
  return useStore(store, selector);
}
