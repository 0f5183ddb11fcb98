import { createMemoryLimiter } from '@signalbox/engine';
import { describeLimiterContract } from './describe-limiter-contract';

describeLimiterContract('createMemoryLimiter', () => ({
  createLimiter: options => createMemoryLimiter(options),
  settle: () => new Promise(resolve => setImmediate(resolve)),
}));
