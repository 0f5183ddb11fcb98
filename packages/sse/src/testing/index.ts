export { decodeSSEChunks, readFixture, splitAt, splitEvery } from './fixture-helpers';
