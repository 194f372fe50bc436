import { describe, expect, it } from 'vitest';
import { isLocalServer } from '../../../../engine/llm/prices/localServer.js';

describe('isLocalServer', () => {
  it.each([
    'http://localhost:11434/v1',
    'http://127.0.0.1:8080/v1',
    'http://[::1]:1234/v1',
    'http://10.0.0.5:8000/v1',
    'http://172.20.1.2/v1',
    'http://192.168.1.20:1234/v1',
    'http://gpu-box.local:8000/v1',
    'http://host.docker.internal:11434/v1',
  ])('%s is on this machine or network', (url) => {
    expect(isLocalServer(url)).toBe(true);
  });

  it.each(['https://api.openai.com/v1', 'https://openrouter.ai/api/v1', 'http://172.32.0.1/v1', 'https://llm.example.com/v1', 'not a url'])('%s is not', (url) => {
    expect(isLocalServer(url)).toBe(false);
  });
});
