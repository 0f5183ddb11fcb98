import { id, json } from '../admin/admin-answer';
import type { AdminOperation } from '../admin/admin-operations';

/** The live configuration's admin operations (admin token only), part of `ADMIN_OPERATIONS`. */
export const CONFIG_OPERATIONS: readonly AdminOperation[] = [
  {
    method: 'get', path: '/config', status: 200,
    run: (admin, identity) => json(admin.getConfig(identity)),
    describe: { operationId: 'adminGetConfig', summary: 'The routes, upstreams and prices in force, secrets masked (admin token)', tag: 'Admin config', answer: 'AdminConfig' },
  },
  {
    method: 'post', path: '/config/versions', status: 201, body: 'AdminChangeConfig',
    run: (admin, identity, request) => json(admin.changeConfig(identity, request.body)),
    describe: { operationId: 'adminChangeConfig', summary: 'Change the config: the whole new document, checked as the file is, saved as a new version (admin token)', tag: 'Admin config', answer: 'AdminConfigVersion' },
  },
  {
    method: 'get', path: '/config/versions', status: 200,
    run: (admin, identity, request) => json(admin.listConfigVersions(identity, request.query)),
    describe: { operationId: 'adminListConfigVersions', summary: 'Config versions, newest first (admin token)', tag: 'Admin config', answer: 'AdminConfigVersionPage', query: 'configVersions' },
  },
  {
    method: 'get', path: '/config/versions/:id', status: 200,
    run: (admin, identity, request) => json(admin.getConfigVersion(identity, id(request))),
    describe: { operationId: 'adminGetConfigVersion', summary: 'One config version with its document and what it changed (admin token)', tag: 'Admin config', answer: 'AdminConfigVersion' },
  },
  {
    method: 'get', path: '/config/versions/:id/diff', status: 200,
    run: (admin, identity, request) => json(admin.diffConfigVersions(identity, id(request), request.query)),
    describe: { operationId: 'adminDiffConfigVersions', summary: 'What changed between two config versions (admin token)', tag: 'Admin config', answer: 'AdminConfigDiff', query: 'configDiff' },
  },
  {
    method: 'post', path: '/config/versions/:id/rollback', status: 201,
    run: (admin, identity, request) => json(admin.rollbackConfig(identity, id(request))),
    describe: { operationId: 'adminRollbackConfig', summary: 'Make a version\'s config current again, as a new version (admin token)', tag: 'Admin config', answer: 'AdminConfigVersion' },
  },
];
