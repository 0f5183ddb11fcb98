export { createArrayFrameSink, type ArrayFrameSink } from './create-array-frame-sink';
export { createManualSchedule, type ManualSchedule } from './create-manual-schedule';
export {
  createScriptedUpstream,
  transportError,
  type ScriptedAnswer,
  type ScriptedCall,
  type ScriptedUpstream,
} from './create-scripted-upstream';
export {
  allCodecs,
  createTestEngine,
  TEST_NOW,
  type TestEngine,
  type TestEngineOptions,
  type TestUpstream,
} from './create-test-engine';
export { readFixture } from './read-fixture';
export { createFailoverTestEngine, FAILOVER_PRICING, OVERLOADED_ANSWER } from './create-failover-test-engine';
export { messagesError, messagesRateLimited, messagesServed, messagesServedMany } from './messages-answers';
