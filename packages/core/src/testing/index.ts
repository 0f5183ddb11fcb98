export {
  comparableEvents,
  type ComparableErrorEvent,
  type ComparableErrorField,
  type ComparableEvent,
} from './comparable-events';
export { decodeStreamMessages } from './decode-stream-messages';
export { gatewayErrorOf, gatewayErrorOfAsync } from './gateway-error-of';
export { listMemberPaths } from './list-member-paths';
export { listNullPaths } from './list-null-paths';
export { testEncodeContext } from './test-encode-context';
