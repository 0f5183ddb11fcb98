export {
  comparableEvents,
  type ComparableErrorEvent,
  type ComparableErrorField,
  type ComparableEvent,
} from './comparable-events';
