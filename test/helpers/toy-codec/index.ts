export { toyCodec } from './toy-codec';
export { TOY_REQUEST_ID_HEADER, toyDescriptor } from './toy-descriptor';
export type { ToyRequest, ToyResponse } from './toy-wire';
