import { createMemoryLimiter } from '@switchyard/engine';
import { describeLimiterContract } from './describe-limiter-contract';

describeLimiterContract('createMemoryLimiter', () => ({
  createLimiter: options => createMemoryLimiter(options),
  settle: () => new Promise(resolve => setImmediate(resolve)),
}));
