import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadLocalSettings } from './local-settings';

describe('loadLocalSettings: the platform simulators\' ports', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'courier-local-settings-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('gives every registered platform with a simulator a port, 4501 on in the registry\'s order, and none to THIRD_PARTY', () => {
    expect(loadLocalSettings({ LOCAL_DATA_DIR: dataDir }).platformPorts).toEqual({ PLATFORM_A: 4501, PLATFORM_B: 4502, PLATFORM_C: 4503, PLATFORM_D: 4504 });
  });

  it('takes LOCAL_<code>_PORT (0: a free one) and refuses what is not a port, naming the variable', () => {
    expect(loadLocalSettings({ LOCAL_DATA_DIR: dataDir, LOCAL_PLATFORM_C_PORT: '0', LOCAL_PLATFORM_A_PORT: '5601' }).platformPorts).toEqual({ PLATFORM_A: 5601, PLATFORM_B: 4502, PLATFORM_C: 0, PLATFORM_D: 4504 });
    expect(() => loadLocalSettings({ LOCAL_DATA_DIR: dataDir, LOCAL_PLATFORM_D_PORT: '70000' })).toThrow(/LOCAL_PLATFORM_D_PORT must be a port number/);
  });
});
