import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createBridge } from './bridge.js';

contextBridge.exposeInMainWorld('workbench', createBridge({ ipc: ipcRenderer, webUtils }));
