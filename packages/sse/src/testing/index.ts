export {
  describeVendorStreamRecordings,
  type VendorStreamRecordings,
} from './describe-vendor-stream-recordings';
export { findSplitsThatChangeMessages } from './find-splits-that-change-messages';
export { expectForwardedUnchangedAndRejected } from './expect-forwarded-unchanged-and-rejected';
export {
  decodeSSEChunks,
  decodeStreamChunks,
  readFixture,
  readJSONFixture,
  splitAt,
  splitEvery,
} from './fixture-helpers';
