import type { AdminAnswer, AdminOperationRequest } from './admin-operations';

/** A service call's result as an operation's JSON answer. */
export const json = async (answer: Promise<unknown>): Promise<AdminAnswer> => ({ json: await answer });

/** The path's `:id`. */
export const id = (request: AdminOperationRequest) => request.params.id ?? '';
