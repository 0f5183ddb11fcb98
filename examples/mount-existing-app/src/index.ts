export { createExistingApp } from './create-existing-app';
