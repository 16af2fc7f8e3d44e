import { Injectable, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { startMicroservice } from './microservice';

// the machine's NATS (transport tests may not import the testing library)
const NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

const calls = { init: 0, bootstrap: 0 };

@Injectable()
class CountingHooks implements OnModuleInit, OnApplicationBootstrap {
  onModuleInit(): void {
    calls.init++;
  }
  onApplicationBootstrap(): void {
    calls.bootstrap++;
  }
}

@Module({ providers: [CountingHooks] })
class HooksModule {}

/** startMicroservice runs each lifecycle hook once (Nest's microservice init would run them twice). */
describe('startMicroservice lifecycle', () => {
  it('runs onModuleInit and onApplicationBootstrap exactly once, before joining the queue group', async () => {
    const service = await startMicroservice(
      'token-data',
      HooksModule,
      { natsUrl: NATS_URL, databaseUrl: '', redisUrl: '', logLevel: 'error', networks: [], devnetManifest: undefined, healthPort: 0 },
      () => ({}),
    );
    try {
      expect(calls).toEqual({ init: 1, bootstrap: 1 });
    } finally {
      await service.stop();
    }
  });
});
