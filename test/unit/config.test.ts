import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, serverConfig } from '../../src/config.ts';

test('memory-limit: 160MB by default, a size from the flag or the environment, a clear error otherwise', () => {
  const saved = process.env['VESSEL_EVENTS_MEMORY_LIMIT'];
  delete process.env['VESSEL_EVENTS_MEMORY_LIMIT'];
  try {
    assert.equal(serverConfig({}).memoryLimit, '160MB');
    assert.equal(serverConfig({ 'memory-limit': '4GB' }).memoryLimit, '4GB');
    process.env['VESSEL_EVENTS_MEMORY_LIMIT'] = '2.5 GiB';
    assert.equal(serverConfig({}).memoryLimit, '2.5 GiB');
    assert.equal(serverConfig({ 'memory-limit': '300MB' }).memoryLimit, '300MB');
    for (const bad of ['lots', '512', '-1GB', '1 PB']) {
      assert.throws(() => serverConfig({ 'memory-limit': bad }), (e: unknown) => e instanceof ConfigError && /--memory-limit \(VESSEL_EVENTS_MEMORY_LIMIT\) must be a size/.test(e.message));
    }
  } finally {
    if (saved === undefined) delete process.env['VESSEL_EVENTS_MEMORY_LIMIT'];
    else process.env['VESSEL_EVENTS_MEMORY_LIMIT'] = saved;
  }
});

test('wire: gfw by default, the format the official clients read; spec when asked', () => {
  const saved = process.env['VESSEL_EVENTS_WIRE'];
  delete process.env['VESSEL_EVENTS_WIRE'];
  try {
    assert.equal(serverConfig({}).wire, 'gfw');
    assert.equal(serverConfig({ wire: 'spec' }).wire, 'spec');
    assert.throws(() => serverConfig({ wire: 'xml' }), (e: unknown) => e instanceof ConfigError && /--wire/.test(e.message));
  } finally {
    if (saved !== undefined) process.env['VESSEL_EVENTS_WIRE'] = saved;
  }
});
