export {
  comparableEvents,
  type ComparableErrorEvent,
  type ComparableErrorField,
  type ComparableEvent,
} from './comparable-events';
export { decodeStreamMessages } from './decode-stream-messages';
export { testEncodeContext } from './test-encode-context';
