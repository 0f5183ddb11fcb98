export { codecs } from './codecs';
export { createApp } from './create-app';
export { createDefaultConfig, EMBEDDED_SIMULATOR } from './default-config';
export { formatBanner } from './format-banner';
export { loadConfigFile } from './load-config-file';
export { startExampleServer, type ExampleServer, type ExampleServerOptions } from './start-example-server';
export { createLogger } from './create-logger';
