import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectSocketBridge } from './bridge/socketBridge.js';
import type { WorkbenchBridge } from './bridge/types.js';
import { App } from './components/App.js';
import { StoreProvider } from './store/StoreContext.js';
import { createWorkbenchStore } from './store/workbenchStore.js';
import './styles.css';

/** In Electron the preload provides the bridge; in a browser, the browser host's WebSocket does. */
function chooseBridge(): { bridge: WorkbenchBridge; onLost?: (listener: () => void) => void } {
  if (window.workbench) return { bridge: window.workbench };
  const socket = connectSocketBridge();
  return { bridge: socket, onLost: (listener) => socket.onClose(listener) };
}

const { bridge, onLost } = chooseBridge();
const store = createWorkbenchStore(bridge);
onLost?.(() => store.getState().connectionLost());
void store.getState().start().catch(() => store.getState().connectionLost());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
